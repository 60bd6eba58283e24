// MHCA against the outputs of the R package mhca (mhclust, C code path) in data/reference/mhca/.
// Tie-free inputs must give the identical merge sequence with heights within 1e-9 relative; iris has
// duplicate points (arbitrary order among exact ties), so there the point heights (thesis def. 20)
// must correlate (Pearson >= 0.9999).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

struct Table {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<double> values;
};

/// Whitespace-separated numbers, one point per line.
Table readTable(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    Table t;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::vector<double> row;
        double v = 0;
        while (fields >> v) row.push_back(v);
        if (row.empty()) continue;
        if (t.d == 0) t.d = row.size();
        if (row.size() != t.d) throw std::runtime_error(path + ": ragged row " + std::to_string(t.n + 1));
        t.values.insert(t.values.end(), row.begin(), row.end());
        ++t.n;
    }
    return t;
}

std::vector<std::int32_t> readGroups(const std::string& path) {
    const Table t = readTable(path);
    std::vector<std::int32_t> groups;
    for (double v : t.values) groups.push_back(static_cast<std::int32_t>(v));
    return groups;
}

/// A reference file name: <input>.<fmd|cmd>.<subthresh>[.normalize].thr<thresh>.csv
struct Case {
    std::string file;
    std::string input;  ///< e.g. "mix2000" (data in <input>.txt)
    bool apriori = false;
    MhcaOptions options;
};

Case parseCase(const std::string& file) {
    const std::string name = file.substr(0, file.size() - 4);
    const std::size_t thr = name.rfind(".thr");
    if (thr == std::string::npos) throw std::runtime_error("unexpected name " + file);
    Case c;
    c.file = file;
    c.options.threshold = std::stod(name.substr(thr + 4));
    std::vector<std::string> parts;
    std::stringstream ss(name.substr(0, thr));
    for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
    std::size_t end = parts.size();
    if (parts[end - 1] == "normalize") {
        c.options.normalize = true;
        --end;
    }
    const std::string sub = parts[end - 1];
    c.options.subthreshold = sub == "euclidMahal" ? SubthresholdMode::EuclidMahal : parseSubthresholdMode(sub);
    c.options.variant = parts[end - 2] == "fmd" ? MhcaVariant::Full : MhcaVariant::Centroid;
    c.input = parts[0];
    for (std::size_t i = 1; i + 2 < end; ++i) {
        if (parts[i] == "apriori") {
            c.apriori = true;
        } else {
            c.input += "." + parts[i];
        }
    }
    return c;
}

const std::vector<std::string>& referenceFiles() {
    static const std::vector<std::string> files = {
        "aggregation.cmd.mahal.thr0.5.csv",
        "aggregation.fmd.mahal.thr0.5.csv",
        "engytime1000.cmd.mahal.thr0.5.csv",
        "engytime1000.fmd.mahal.thr0.5.csv",
        "mix2000.cmd.mahal.thr0.5.csv",
        "mix2000.fmd.mahal.thr0.5.csv",
        "mix2000.apriori.cmd.mahal.thr0.5.csv",
        "mix2000.apriori.fmd.mahal.thr0.5.csv",
        "iris.cmd.euclid.normalize.thr0.5.csv",
        "iris.cmd.euclid.thr0.5.csv",
        "iris.cmd.euclidMahal.normalize.thr0.5.csv",
        "iris.cmd.euclidMahal.thr0.5.csv",
        "iris.cmd.mahal.normalize.thr0.5.csv",
        "iris.cmd.mahal.thr0.5.csv",
        "iris.cmd.mahal0.normalize.thr0.5.csv",
        "iris.cmd.mahal0.thr0.5.csv",
        "iris.fmd.euclid.normalize.thr0.5.csv",
        "iris.fmd.euclid.thr0.5.csv",
        "iris.fmd.euclidMahal.normalize.thr0.5.csv",
        "iris.fmd.euclidMahal.thr0.5.csv",
        "iris.fmd.mahal.normalize.thr0.5.csv",
        "iris.fmd.mahal.thr0.5.csv",
        "iris.fmd.mahal0.normalize.thr0.5.csv",
        "iris.fmd.mahal0.thr0.5.csv",
    };
    return files;
}

/// Thesis definition 20: the height of point o is the sum of the heights of all merges whose cluster
/// contains o. Walks the merges from the root down (parents are created later than children).
std::vector<double> pointHeightsOf(const Linkage& linkage) {
    const std::size_t n = linkage.leafCount;
    std::vector<double> above(2 * n - 1, 0.0);
    for (std::size_t i = linkage.merges.size(); i-- > 0;) {
        const Merge& m = linkage.merges[i];
        const double total = above[n + i] + m.height;
        above[static_cast<std::size_t>(m.a)] = total;
        above[static_cast<std::size_t>(m.b)] = total;
    }
    return std::vector<double>(above.begin(), above.begin() + static_cast<std::ptrdiff_t>(n));
}

Linkage runCase(const Case& c, double& seconds) {
    const Table data = readTable(test::dataPath("reference/mhca/" + c.input + ".txt"));
    MhcaOptions options = c.options;
    if (c.apriori) options.apriori = readGroups(test::dataPath("reference/mhca/" + c.input + ".apriori.txt"));
    const auto start = std::chrono::steady_clock::now();
    Linkage result = mhcaCpu(data.values.data(), data.n, data.d, options);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

class MhcaReference : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST(MhcaReferenceFiles, EveryReferenceFileIsCovered) {
    std::set<std::string> listed(referenceFiles().begin(), referenceFiles().end());
    for (const auto& entry : std::filesystem::directory_iterator(test::dataPath("reference/mhca"))) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() == ".csv") {
            EXPECT_TRUE(listed.count(name)) << name << " has no test";
        }
    }
}

TEST_P(MhcaReference, MatchesMhclust) {
    const Case c = parseCase(GetParam());
    const Linkage expected = readLinkageCsv(test::dataPath("reference/mhca/" + c.file));
    double seconds = 0;
    const Linkage actual = runCase(c, seconds);
    ASSERT_EQ(actual.leafCount, expected.leafCount);
    ASSERT_EQ(actual.merges.size(), expected.merges.size());
    EXPECT_NO_THROW(actual.validate(c.file));

    if (c.input == "iris") {
        const double r = test::pearson(pointHeightsOf(actual), pointHeightsOf(expected));
        std::size_t sameRows = 0;
        while (sameRows < expected.merges.size() && expected.merges[sameRows].a == actual.merges[sameRows].a &&
               expected.merges[sameRows].b == actual.merges[sameRows].b)
            ++sameRows;
        std::cout << "[ mhca ] " << c.file << ": point-height Pearson " << r << " (first " << sameRows << " of "
                  << expected.merges.size() << " merges identical), " << seconds << " s\n";
        EXPECT_GE(r, 0.9999);
        return;
    }
    std::size_t firstMismatch = expected.merges.size();
    double maxRel = 0;
    for (std::size_t i = 0; i < expected.merges.size(); ++i) {
        const Merge& e = expected.merges[i];
        const Merge& a = actual.merges[i];
        if (firstMismatch == expected.merges.size() && (e.a != a.a || e.b != a.b || e.size != a.size))
            firstMismatch = i;
        if (firstMismatch == expected.merges.size())
            maxRel = std::max(maxRel, std::fabs(a.height - e.height) / std::max(std::fabs(e.height), 1e-300));
    }
    std::cout << "[ mhca ] " << c.file << ": "
              << (firstMismatch == expected.merges.size() ? "identical merges" : "MISMATCH")
              << ", max relative height error " << maxRel << ", " << seconds << " s\n";
    if (firstMismatch < expected.merges.size()) {
        const Merge& e = expected.merges[firstMismatch];
        const Merge& a = actual.merges[firstMismatch];
        ADD_FAILURE() << c.file << ": first different merge at row " << firstMismatch << ": expected (" << e.a << ", "
                      << e.b << ", " << e.height << ", " << e.size << "), got (" << a.a << ", " << a.b << ", "
                      << a.height << ", " << a.size << ")";
    }
    EXPECT_LE(maxRel, 1e-9);
}

namespace {

std::string caseName(const ::testing::TestParamInfo<std::string>& param) {
    std::string name = param.param.substr(0, param.param.size() - 4);
    std::replace(name.begin(), name.end(), '.', '_');
    return name;
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(AllFiles, MhcaReference, ::testing::ValuesIn(referenceFiles()), caseName);
