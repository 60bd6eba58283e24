// VAT's largest cuts on the clustering benchmark sets (Euclidean, CPU). Cutting the k-1 largest Prim
// edges is single linkage cut into k clusters, so the labels must equal scipy's
// fcluster(linkage(X, "single"), k, "maxclust") on every set (reference files written by
// tests/golden/data/generate_scipy_single_fcluster.py, k = the number of reference clusters), and
// recover the reference clusters where single linkage can (hepta, lsun). Every value is printed.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "clusterlens/compare/agreement.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/vat/vat.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

const std::string kReferenceDir = std::string(CLUSTERLENS_SOURCE_DIR) + "/tests/golden/data/single_fcluster/";

struct Entry {
    std::string battery, name;
    std::size_t n = 0, k = 0, clusters = 0;
    bool tieAtCut = false;
};

std::vector<Entry> readIndex() {
    std::ifstream in(kReferenceDir + "index.csv");
    std::string line;
    std::getline(in, line);  // header
    std::vector<Entry> entries;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        Entry e;
        std::string n, k, clusters, tie;
        std::getline(fields, e.battery, ',');
        std::getline(fields, e.name, ',');
        std::getline(fields, n, ',');
        std::getline(fields, k, ',');
        std::getline(fields, clusters, ',');
        std::getline(fields, tie, ',');
        e.n = std::stoul(n);
        e.k = std::stoul(k);
        e.clusters = std::stoul(clusters);
        e.tieAtCut = tie == "1";
        entries.push_back(e);
    }
    return entries;
}

// Same partition: the contingency table has exactly one non-zero cell per row and per column.
bool samePartition(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b) {
    std::map<std::int32_t, std::int32_t> ab, ba;
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (ab.emplace(a[i], b[i]).first->second != b[i]) return false;
        if (ba.emplace(b[i], a[i]).first->second != a[i]) return false;
    }
    return true;
}

struct BenchmarkVat {
    Dataset data;
    VatResult vat;
};

BenchmarkVat runVat(const std::string& battery, const std::string& name) {
    BenchmarkVat r;
    r.data = readDataset(test::dataPath("benchmarks/" + battery + "/" + name + ".data.gz"));
    VatOptions options;
    options.backend = Backend::Cpu;
    r.vat = computeVat(r.data.values.data(), r.data.n, r.data.d, options);
    return r;
}

// The k-th and (k-1)-th largest cuts are equal: "k clusters" is then not unique.
bool tieAtCut(const VatResult& vat, std::size_t k) {
    if (k < 2 || k >= vat.n) return false;
    std::vector<double> cuts(vat.cut.begin() + 1, vat.cut.end());
    std::sort(cuts.begin(), cuts.end(), std::greater<>());
    return cuts[k - 2] == cuts[k - 1];
}

std::vector<std::int32_t> toInt32(const std::vector<int>& labels) {
    return std::vector<std::int32_t>(labels.begin(), labels.end());
}

}  // namespace

TEST(VatBenchmarks, LargestCutsEqualScipySingleLinkageFcluster) {
    const std::vector<Entry> entries = readIndex();
    ASSERT_GE(entries.size(), 20u) << "missing " << kReferenceDir << "index.csv";
    for (const Entry& e : entries) {
        SCOPED_TRACE(e.name);
        const BenchmarkVat run = runVat(e.battery, e.name);
        ASSERT_EQ(run.data.n, e.n);
        if (e.tieAtCut || tieAtCut(run.vat, e.k)) {
            std::printf("[vat golden] %-18s skipped: equal merge heights at the cut into k=%zu clusters\n",
                        e.name.c_str(), e.k);
            continue;
        }
        const std::vector<std::int32_t> reference = readLabels(kReferenceDir + e.name + ".labels.gz", e.n);
        const std::vector<std::int32_t> labels = toInt32(labelsFromLargestCuts(run.vat, e.k));
        const double ari = adjustedRandIndex(contingencyTable(labels, reference));
        std::printf("[vat golden] %-18s n=%-6zu k=%-3zu start=%-6zu ARI vs scipy fcluster = %.6f (%.2f s)\n",
                    e.name.c_str(), e.n, e.k, run.vat.start, ari, run.vat.secondsTree + run.vat.secondsOrder);
        EXPECT_EQ(ari, 1.0);
        EXPECT_TRUE(samePartition(labels, reference));
    }
}

TEST(VatBenchmarks, LargestCutsRecoverHeptaAndLsun) {
    const std::pair<const char*, std::size_t> cases[] = {{"hepta", 7}, {"lsun", 3}};
    for (const auto& [name, k] : cases) {
        const BenchmarkVat run = runVat("fcps", name);
        ASSERT_EQ(run.data.labels.size(), run.data.n) << name << ": labels0 not attached";
        const std::vector<std::int32_t> labels = toInt32(labelsFromLargestCuts(run.vat, k));
        const double ari = adjustedRandIndex(contingencyTable(labels, run.data.labels));
        std::printf("[vat golden] %-6s k=%zu ARI vs labels0 = %.6f\n", name, k, ari);
        EXPECT_EQ(ari, 1.0) << name;
    }
}

TEST(VatBenchmarks, SamePartitionDetectsADifference) {
    EXPECT_TRUE(samePartition({0, 0, 1, 2}, {5, 5, 3, 4}));
    EXPECT_FALSE(samePartition({0, 0, 1, 1}, {5, 5, 5, 4}));
    EXPECT_FALSE(samePartition({0, 1, 1, 1}, {5, 5, 4, 4}));
}
