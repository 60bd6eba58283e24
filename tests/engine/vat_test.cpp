// VAT order, cut weights, iVAT and the largest-cut clusterings against naive recomputations: an
// O(N²) Prim over an explicit matrix, Floyd–Warshall minimax distances, brute-force range maxima.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "clusterlens/vat/range_max.hpp"
#include "clusterlens/vat/vat.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

constexpr Metric kAllMetrics[] = {Metric::Euclidean, Metric::SqEuclidean, Metric::Manhattan, Metric::Cosine};

std::vector<float> uniformPoints(std::size_t n, std::size_t d, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> x(n * d);
    for (float& v : x) v = u(rng);
    return x;
}

std::vector<double> explicitMatrix(const std::vector<float>& x, std::size_t n, std::size_t d, Metric metric) {
    std::vector<double> m(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (i != j) m[i * n + j] = metricDistance(&x[i * d], &x[j * d], d, metric);
    return m;
}

bool distinctDistances(const std::vector<double>& m, std::size_t n) {
    std::vector<double> values;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) values.push_back(m[i * n + j]);
    std::sort(values.begin(), values.end());
    return std::adjacent_find(values.begin(), values.end()) == values.end();
}

// The textbook O(N²) Prim over a stored matrix, with DESIGN.md's start and tie rules.
struct NaiveVat {
    std::size_t start = 0;
    std::vector<std::int64_t> order;
    std::vector<double> cut;
};

NaiveVat naiveVat(const std::vector<double>& m, std::size_t n) {
    NaiveVat r;
    double far = -1.0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            if (m[i * n + j] > far) {
                far = m[i * n + j];
                r.start = i;
            }
    std::vector<double> key(n, INFINITY);
    std::vector<bool> inTree(n, false);
    std::size_t latest = r.start;
    inTree[latest] = true;
    r.order.push_back(static_cast<std::int64_t>(latest));
    r.cut.push_back(0.0);
    for (std::size_t step = 1; step < n; ++step) {
        std::size_t best = n;
        for (std::size_t v = 0; v < n; ++v) {
            if (inTree[v]) continue;
            key[v] = std::min(key[v], m[latest * n + v]);
            if (best == n || key[v] < key[best]) best = v;
        }
        inTree[best] = true;
        latest = best;
        r.order.push_back(static_cast<std::int64_t>(best));
        r.cut.push_back(key[best]);
    }
    return r;
}

void expectSameVat(const VatResult& got, const NaiveVat& want, const char* what) {
    ASSERT_EQ(got.order.size(), want.order.size()) << what;
    EXPECT_EQ(got.start, want.start) << what;
    for (std::size_t k = 0; k < want.order.size(); ++k) {
        ASSERT_EQ(got.order[k], want.order[k]) << what << " position " << k;
        ASSERT_EQ(got.cut[k], want.cut[k]) << what << " position " << k;  // bit for bit
    }
}

}  // namespace

TEST(VatMetric, ParsesNamesAndRejectsUnknown) {
    for (Metric m : kAllMetrics) EXPECT_EQ(parseMetric(metricName(m)), m);
    EXPECT_THROW(parseMetric("chebyshev"), InvalidInput);
}

TEST(VatMetric, MatchesTheDefinitions) {
    const float a[] = {1.0f, 2.0f, 3.0f};
    const float b[] = {4.0f, -2.0f, 3.0f};
    EXPECT_DOUBLE_EQ(metricDistance(a, b, 3, Metric::Euclidean), 5.0);
    EXPECT_DOUBLE_EQ(metricDistance(a, b, 3, Metric::SqEuclidean), 25.0);
    EXPECT_DOUBLE_EQ(metricDistance(a, b, 3, Metric::Manhattan), 7.0);
    const double cosine = 1.0 - (4.0 - 4.0 + 9.0) / (std::sqrt(14.0) * std::sqrt(29.0));
    EXPECT_DOUBLE_EQ(metricDistance(a, b, 3, Metric::Cosine), cosine);
    for (Metric m : kAllMetrics) EXPECT_EQ(metricDistance(a, b, 3, m), metricDistance(b, a, 3, m)) << metricName(m);
}

TEST(VatOrder, EqualsBruteForcePrimOnRandomData) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    const std::size_t n = 161, d = 5;  // n not a multiple of 4: the scalar tails run too
    for (Metric metric : kAllMetrics) {
        // Manhattan sums of float differences are exact, so random points hit equal sums now and
        // then: draw again (deterministically) until every pair is distinct.
        std::vector<float> x;
        std::vector<double> m;
        std::uint64_t drawn = seed + 10 * static_cast<int>(metric);
        for (int attempt = 0; attempt < 50; ++attempt, ++drawn) {
            x = uniformPoints(n, d, drawn);
            m = explicitMatrix(x, n, d, metric);
            if (distinctDistances(m, n)) break;
        }
        ASSERT_TRUE(distinctDistances(m, n)) << metricName(metric) << ": no tie-free draw";
        std::printf("%s: points drawn with seed %llu\n", metricName(metric), static_cast<unsigned long long>(drawn));
        VatOptions options;
        options.metric = metric;
        options.backend = Backend::Cpu;
        const VatResult vat = computeVat(x.data(), n, d, options);
        expectSameVat(vat, naiveVat(m, n), metricName(metric));
        EXPECT_EQ(vat.metric, metric);
        EXPECT_EQ(vat.backend.rfind("cpu:", 0), 0u);
        ASSERT_EQ(vat.edges.size(), n - 1);
        for (std::size_t k = 0; k + 1 < n; ++k) {
            EXPECT_EQ(vat.edges[k].v, vat.order[k + 1]);
            EXPECT_EQ(vat.edges[k].w, vat.cut[k + 1]);
            EXPECT_EQ(vat.edges[k].w,
                      m[static_cast<std::size_t>(vat.edges[k].u) * n + static_cast<std::size_t>(vat.edges[k].v)]);
        }
    }
}

TEST(VatOrder, EqualsBruteForcePrimWhenTheFringeIsSplitOverThreads) {
    // 64 features make the fringe chunk 1024 vertices, so 2100 points run Prim's relax step in parallel.
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    const std::size_t n = 2100, d = 64;
    for (Metric metric : {Metric::Euclidean, Metric::Cosine}) {
        const std::vector<float> x = uniformPoints(n, d, seed + 77);
        const std::vector<double> m = explicitMatrix(x, n, d, metric);
        ASSERT_TRUE(distinctDistances(m, n)) << metricName(metric);
        VatOptions options;
        options.metric = metric;
        options.backend = Backend::Cpu;
        expectSameVat(computeVat(x.data(), n, d, options), naiveVat(m, n), metricName(metric));
    }
}

TEST(VatOrder, TiesFollowTheSmallerIndexLikeBruteForce) {
    // Integer lattice points: many equal distances, so the tie rules decide the order.
    const std::size_t side = 9, n = side * side, d = 2;
    std::vector<float> x;
    for (std::size_t i = 0; i < side; ++i)
        for (std::size_t j = 0; j < side; ++j) {
            x.push_back(static_cast<float>((i * 7) % side));
            x.push_back(static_cast<float>(j));
        }
    for (Metric metric : {Metric::Euclidean, Metric::Manhattan}) {
        VatOptions options;
        options.metric = metric;
        options.backend = Backend::Cpu;
        expectSameVat(computeVat(x.data(), n, d, options), naiveVat(explicitMatrix(x, n, d, metric), n),
                      metricName(metric));
    }
}

TEST(VatOrder, FarthestPairTakesTheLexicographicallySmallestOfEqualPairs) {
    // Four corners of a square: the two diagonals (0,3) and (1,2) are equally long.
    const std::vector<float> x = {0, 0, 1, 0, 0, 1, 1, 1};
    EXPECT_EQ(farthestPairCpu(x.data(), 4, 2, Metric::Euclidean), (std::pair<std::size_t, std::size_t>{0, 3}));
    const std::vector<float> y = {0, 0, 5, 5, 1, 1, 5, 5};  // point 1 and 3 coincide
    EXPECT_EQ(farthestPairCpu(y.data(), 4, 2, Metric::Manhattan), (std::pair<std::size_t, std::size_t>{0, 1}));
}

TEST(VatOrder, MetricSpanningTreeKeepsTheEuclideanOverloads) {
    const std::vector<float> x = uniformPoints(300, 4, 7);
    const std::vector<MstEdge> a = minimumSpanningTreeCpu(x.data(), 300, 4, nullptr, 17);
    const std::vector<MstEdge> b = minimumSpanningTreeCpu(x.data(), 300, 4, Metric::Euclidean, nullptr, 17);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].u, b[k].u);
        EXPECT_EQ(a[k].v, b[k].v);
        EXPECT_EQ(a[k].w, b[k].w);
    }
    // Squared Euclidean is a monotone map of Euclidean: same tree, squared weights.
    const std::vector<MstEdge> s = minimumSpanningTreeCpu(x.data(), 300, 4, Metric::SqEuclidean, nullptr, 17);
    for (std::size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].v, s[k].v);
        EXPECT_EQ(std::sqrt(s[k].w), a[k].w);
    }
}

TEST(VatFromTree, WalkOfTheShuffledTreeReproducesPrim) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    const std::size_t n = 400, d = 3;
    const std::vector<float> x = uniformPoints(n, d, seed);
    VatOptions options;
    options.backend = Backend::Cpu;
    const VatResult vat = computeVat(x.data(), n, d, options);
    std::vector<MstEdge> tree = vat.edges;
    std::mt19937_64 rng(seed);
    std::shuffle(tree.begin(), tree.end(), rng);
    for (std::size_t k = 0; k < tree.size(); k += 2) std::swap(tree[k].u, tree[k].v);
    const VatResult walked = vatFromTree(tree, n, vat.start);
    EXPECT_EQ(walked.order, vat.order);
    EXPECT_EQ(walked.cut, vat.cut);
    for (std::size_t k = 0; k < tree.size(); ++k) {
        EXPECT_EQ(walked.edges[k].u, vat.edges[k].u);
        EXPECT_EQ(walked.edges[k].v, vat.edges[k].v);
    }
}

TEST(VatFromTree, RejectsWhatIsNotASpanningTree) {
    const std::vector<MstEdge> cycle = {{0, 1, 1.0}, {1, 0, 2.0}};
    EXPECT_THROW(vatFromTree(cycle, 3, 0), InvalidInput);
    const std::vector<MstEdge> outside = {{0, 1, 1.0}, {1, 5, 2.0}};
    EXPECT_THROW(vatFromTree(outside, 3, 0), InvalidInput);
    EXPECT_THROW(vatFromTree({{0, 1, 1.0}}, 2, 2), InvalidInput);
    EXPECT_THROW(vatFromTree({{0, 1, 1.0}}, 3, 0), InvalidInput);
    const VatResult single = vatFromTree({}, 1, 0);
    EXPECT_EQ(single.order, std::vector<std::int64_t>{0});
}

TEST(Ivat, RangeMaximumEqualsFloydWarshallMinimax) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    const std::size_t n = 70, d = 3;
    for (Metric metric : kAllMetrics) {
        const std::vector<float> x = uniformPoints(n, d, seed + 100 + static_cast<int>(metric));
        std::vector<double> minimax = explicitMatrix(x, n, d, metric);
        for (std::size_t k = 0; k < n; ++k)
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j)
                    minimax[i * n + j] = std::min(minimax[i * n + j], std::max(minimax[i * n + k], minimax[k * n + j]));
        VatOptions options;
        options.metric = metric;
        options.backend = Backend::Cpu;
        const VatResult vat = computeVat(x.data(), n, d, options);
        const RangeMaxTable table(vat.cut);
        for (std::size_t p = 0; p < n; ++p)
            for (std::size_t q = 0; q < n; ++q) {
                const auto i = static_cast<std::size_t>(vat.order[p]);
                const auto j = static_cast<std::size_t>(vat.order[q]);
                ASSERT_EQ(table.ivat(p, q), p == q ? 0.0 : minimax[i * n + j])
                    << metricName(metric) << " positions " << p << ", " << q;
            }
    }
}

TEST(RangeMaxTable, MatchesBruteForceMaximaAndTakesTheEarliestOfEqualValues) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    for (std::size_t n : {1u, 2u, 3u, 17u, 64u, 1000u}) {
        std::vector<double> cut(n);
        std::uniform_int_distribution<int> value(0, 9);  // few values: many ties
        for (double& c : cut) c = value(rng);
        const RangeMaxTable table(cut);
        EXPECT_EQ(table.size(), n);
        EXPECT_EQ(table.table().size(), table.levels() * n);
        std::uniform_int_distribution<std::size_t> pos(0, n - 1);
        for (int trial = 0; trial < 2000; ++trial) {
            std::size_t lo = pos(rng), hi = pos(rng);
            if (lo > hi) std::swap(lo, hi);
            const auto want = static_cast<std::size_t>(
                std::max_element(cut.begin() + static_cast<long>(lo), cut.begin() + static_cast<long>(hi) + 1) -
                cut.begin());
            ASSERT_EQ(table.argmax(lo, hi), want) << "n " << n << " range " << lo << ".." << hi;
            ASSERT_EQ(table.max(lo, hi), cut[want]);
        }
    }
}

TEST(LargestCuts, LabelsEqualSingleLinkageCutIntoKClusters) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    const std::size_t n = 300, d = 2;
    const std::vector<float> x = uniformPoints(n, d, seed + 5);
    VatOptions options;
    options.backend = Backend::Cpu;
    const VatResult vat = computeVat(x.data(), n, d, options);
    // Reference: replay the single-linkage merges until k clusters remain (union-find on leaves).
    const Linkage linkage = singleLinkageFromMst(vat.edges, n);
    for (std::size_t k : {1u, 2u, 5u, 17u, 300u}) {
        std::vector<std::size_t> parent(2 * n);
        std::iota(parent.begin(), parent.end(), std::size_t{0});
        const auto find = [&](std::size_t a) {
            while (parent[a] != a) a = parent[a] = parent[parent[a]];
            return a;
        };
        for (std::size_t m = 0; m + k < n; ++m) {
            parent[find(static_cast<std::size_t>(linkage.merges[m].a))] = n + m;
            parent[find(static_cast<std::size_t>(linkage.merges[m].b))] = n + m;
        }
        const std::vector<int> labels = labelsFromLargestCuts(vat, k);
        std::set<std::pair<int, std::size_t>> pairs;
        std::set<int> distinct(labels.begin(), labels.end());
        for (std::size_t i = 0; i < n; ++i) pairs.insert({labels[i], find(i)});
        EXPECT_EQ(distinct.size(), k);
        EXPECT_EQ(pairs.size(), k) << "k = " << k << ": the partitions differ";
    }
}

TEST(LargestCuts, EqualCutsTakeTheEarlierPosition) {
    VatResult vat;
    vat.n = 6;
    vat.order = {5, 4, 3, 2, 1, 0};
    vat.cut = {0.0, 2.0, 1.0, 2.0, 2.0, 0.5};
    EXPECT_EQ(largestCutPositions(vat, 3), (std::vector<std::size_t>{1, 3}));
    EXPECT_EQ(largestCutPositions(vat, 1), (std::vector<std::size_t>{}));
    EXPECT_EQ(largestCutPositions(vat, 6), (std::vector<std::size_t>{1, 2, 3, 4, 5}));
    EXPECT_EQ(labelsFromLargestCuts(vat, 3), (std::vector<int>{2, 2, 2, 1, 1, 0}));
    EXPECT_THROW(largestCutPositions(vat, 0), InvalidInput);
    EXPECT_THROW(largestCutPositions(vat, 7), InvalidInput);
}

TEST(VatFromDistances, MatrixPathEqualsThePointsPath) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    const std::size_t n = 150, d = 4;
    for (Metric metric : kAllMetrics) {
        const std::vector<float> x = uniformPoints(n, d, seed + 9 + static_cast<int>(metric));
        VatOptions options;
        options.metric = metric;
        options.backend = Backend::Cpu;
        const VatResult points = computeVat(x.data(), n, d, options);
        const VatResult matrix = computeVatFromDistances(explicitMatrix(x, n, d, metric).data(), n);
        EXPECT_EQ(matrix.start, points.start) << metricName(metric);
        EXPECT_EQ(matrix.order, points.order) << metricName(metric);
        EXPECT_EQ(matrix.cut, points.cut) << metricName(metric);
    }
}

TEST(VatFromDistances, RejectsMatricesThatAreNotDissimilarities) {
    std::vector<double> m = {0, 1, 2, 1, 0, 3, 2, 3, 0};
    EXPECT_NO_THROW(computeVatFromDistances(m.data(), 3));
    std::vector<double> bad = m;
    bad[5] = 4;  // (2,3) != (3,2)
    EXPECT_THROW(computeVatFromDistances(bad.data(), 3), InvalidInput);
    bad = m;
    bad[4] = 1;  // diagonal
    EXPECT_THROW(computeVatFromDistances(bad.data(), 3), InvalidInput);
    bad = m;
    bad[1] = bad[3] = -1;
    EXPECT_THROW(computeVatFromDistances(bad.data(), 3), InvalidInput);
    bad = m;
    bad[1] = bad[3] = NAN;
    EXPECT_THROW(computeVatFromDistances(bad.data(), 3), NonFiniteInput);
    EXPECT_THROW(computeVatFromDistances(m.data(), 1), InvalidInput);
}

TEST(VatInput, RejectsBadPointsWithMessagesNamingThePoint) {
    VatOptions options;
    options.backend = Backend::Cpu;
    const std::vector<float> x = {1, 2, 3, 4, 5, 6};
    EXPECT_THROW(computeVat(x.data(), 1, 2, options), InvalidInput);
    EXPECT_THROW(computeVat(x.data(), 3, 0, options), InvalidInput);
    std::vector<float> nan = x;
    nan[3] = NAN;
    EXPECT_THROW(computeVat(nan.data(), 3, 2, options), NonFiniteInput);
    std::vector<float> zero = x;
    zero[2] = zero[3] = 0.0f;
    options.metric = Metric::Cosine;
    try {
        computeVat(zero.data(), 3, 2, options);
        FAIL() << "an all-zero row passed the cosine check";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("point 2"), std::string::npos) << e.what();
    }
    options.metric = Metric::Euclidean;
    EXPECT_NO_THROW(computeVat(zero.data(), 3, 2, options));
}

TEST(VatInput, CancelStopsTheComputation) {
    const std::vector<float> x = uniformPoints(2000, 3, 1);
    JobControl control;
    control.cancel();
    VatOptions options;
    options.backend = Backend::Cpu;
    EXPECT_THROW(computeVat(x.data(), 2000, 3, options, &control), Cancelled);
}

TEST(VatInput, ProgressEndsAtOne) {
    const std::vector<float> x = uniformPoints(600, 3, 2);
    JobControl control;
    VatOptions options;
    options.backend = Backend::Cpu;
    computeVat(x.data(), 600, 3, options, &control);
    EXPECT_EQ(control.progress(), 1.0);
}

TEST(VatSingleLinkage, TreeOfTheVatRunGivesScipysSingleLinkage) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    const std::size_t n = 250, d = 4;
    const std::vector<float> x = uniformPoints(n, d, seed + 3);
    VatOptions options;
    options.backend = Backend::Cpu;
    const VatResult vat = computeVat(x.data(), n, d, options);
    const std::vector<double> asDouble(x.begin(), x.end());
    const Linkage want = classicLinkageCpu(asDouble.data(), n, d, LinkageMethod::Single);
    const Linkage got = singleLinkageFromMst(vat.edges, n);
    ASSERT_EQ(got.merges.size(), want.merges.size());
    for (std::size_t m = 0; m < want.merges.size(); ++m) {
        EXPECT_EQ(got.merges[m].a, want.merges[m].a) << "merge " << m;
        EXPECT_EQ(got.merges[m].b, want.merges[m].b) << "merge " << m;
        EXPECT_EQ(got.merges[m].height, want.merges[m].height) << "merge " << m;
        EXPECT_EQ(got.merges[m].size, want.merges[m].size) << "merge " << m;
    }
}
