// Classic linkages against scipy.cluster.hierarchy.linkage (scipy 1.10). The golden files in
// tests/golden/data are written by tests/golden/data/generate_scipy_linkages.py.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

const std::string kGoldenDir = std::string(CLUSTERLENS_SOURCE_DIR) + "/tests/golden/data/";
const std::vector<std::string> kSets = {"random_50x2", "random_200x6", "random_500x14", "wine", "hepta", "aggregation"};
const std::vector<std::string> kRandomSets = {"random_50x2", "random_200x6", "random_500x14"};
const std::vector<std::string> kMethods = {"single", "complete", "average", "weighted", "centroid", "median", "ward"};
constexpr double kRelativeTolerance = 1e-9;

struct Points {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<double> values;
};

Points readPoints(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    Points points;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::stringstream fields(line);
        std::string field;
        std::size_t columns = 0;
        while (std::getline(fields, field, ',')) {
            points.values.push_back(std::strtod(field.c_str(), nullptr));
            ++columns;
        }
        if (points.d == 0) points.d = columns;
        if (columns != points.d) throw std::runtime_error(path + ": ragged row");
        ++points.n;
    }
    return points;
}

std::string goldenPath(const std::string& set, const std::string& suffix) {
    return kGoldenDir + set + "." + suffix;
}

// Same merges (a, b, size) row by row, heights within kRelativeTolerance. Reports the first few
// differing rows only.
void expectSameLinkage(const Linkage& expected, const Linkage& actual) {
    ASSERT_EQ(actual.leafCount, expected.leafCount);
    ASSERT_EQ(actual.merges.size(), expected.merges.size());
    int reported = 0;
    for (std::size_t i = 0; i < expected.merges.size() && reported < 5; ++i) {
        const Merge& e = expected.merges[i];
        const Merge& a = actual.merges[i];
        const double scale = std::max(std::abs(e.height), 1e-300);
        const bool same =
            a.a == e.a && a.b == e.b && a.size == e.size && std::abs(a.height - e.height) <= kRelativeTolerance * scale;
        if (!same) {
            ADD_FAILURE() << "row " << i << ": expected (" << e.a << ", " << e.b << ", " << e.height << ", " << e.size
                          << ") got (" << a.a << ", " << a.b << ", " << a.height << ", " << a.size << ")";
            ++reported;
        }
    }
}

using SetAndMethod = std::tuple<std::string, std::string>;

class ScipyLinkage : public ::testing::TestWithParam<SetAndMethod> {};
class ScipyLinkageFloat : public ::testing::TestWithParam<SetAndMethod> {};

std::string paramName(const ::testing::TestParamInfo<SetAndMethod>& param) {
    return std::get<0>(param.param) + "_" + std::get<1>(param.param);
}

}  // namespace

TEST_P(ScipyLinkage, EqualsScipyMergesAndHeights) {
    const auto& [set, method] = GetParam();
    const Points points = readPoints(goldenPath(set, "data.csv"));
    const Linkage expected = readLinkageCsv(goldenPath(set, method + ".csv"));
    const Linkage actual = classicLinkageCpu(points.values.data(), points.n, points.d, parseLinkageMethod(method));
    expectSameLinkage(expected, actual);
}

// The random sets are float32 values written as doubles: the float entry point sees the same numbers.
TEST_P(ScipyLinkageFloat, FloatEntryPointEqualsScipy) {
    const auto& [set, method] = GetParam();
    const Points points = readPoints(goldenPath(set, "data.csv"));
    const std::vector<float> values(points.values.begin(), points.values.end());
    for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(static_cast<double>(values[i]), points.values[i]);
    const Linkage expected = readLinkageCsv(goldenPath(set, method + ".csv"));
    expectSameLinkage(expected, classicLinkageCpu(values.data(), points.n, points.d, parseLinkageMethod(method)));
}

INSTANTIATE_TEST_SUITE_P(Golden, ScipyLinkage,
                         ::testing::Combine(::testing::ValuesIn(kSets), ::testing::ValuesIn(kMethods)), paramName);
INSTANTIATE_TEST_SUITE_P(Golden, ScipyLinkageFloat,
                         ::testing::Combine(::testing::ValuesIn(kRandomSets), ::testing::ValuesIn(kMethods)),
                         paramName);

TEST(ScipyLinkageSingle, MinimumSpanningTreeGivesScipySingleLinkage) {
    for (const std::string& set : kSets) {
        SCOPED_TRACE(set);
        const Points points = readPoints(goldenPath(set, "data.csv"));
        const std::vector<MstEdge> edges = minimumSpanningTreeCpu(points.values.data(), points.n, points.d);
        ASSERT_EQ(edges.size(), points.n - 1);
        expectSameLinkage(readLinkageCsv(goldenPath(set, "single.csv")), singleLinkageFromMst(edges, points.n));
    }
}

TEST(ScipyLinkageSingle, MinimumSpanningTreeWeightsAreScipySingleHeights) {
    for (const std::string& set : kSets) {
        SCOPED_TRACE(set);
        const Points points = readPoints(goldenPath(set, "data.csv"));
        std::vector<MstEdge> edges = minimumSpanningTreeCpu(points.values.data(), points.n, points.d, nullptr, 7);
        std::vector<double> weights;
        for (const MstEdge& e : edges) weights.push_back(e.w);
        std::sort(weights.begin(), weights.end());
        const Linkage expected = readLinkageCsv(goldenPath(set, "single.csv"));
        for (std::size_t i = 0; i < weights.size(); ++i)
            ASSERT_EQ(weights[i], expected.merges[i].height) << "edge " << i;
    }
}
