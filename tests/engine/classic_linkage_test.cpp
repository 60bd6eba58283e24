#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

constexpr LinkageMethod kAllMethods[] = {LinkageMethod::Single,   LinkageMethod::Complete, LinkageMethod::Average,
                                         LinkageMethod::Weighted, LinkageMethod::Centroid, LinkageMethod::Median,
                                         LinkageMethod::Ward};

// Gaussian blobs: n points x d features, doubles.
std::vector<double> randomBlobs(std::size_t n, std::size_t d, std::size_t blobs, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> centre(-5.0, 5.0);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<double> centres(blobs * d);
    for (double& c : centres) c = centre(rng);
    std::vector<double> x(n * d);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < d; ++j) x[i * d + j] = centres[(i % blobs) * d + j] + noise(rng);
    return x;
}

double euclid(const double* a, const double* b, std::size_t d) {
    double s = 0.0;
    for (std::size_t j = 0; j < d; ++j) s += (a[j] - b[j]) * (a[j] - b[j]);
    return std::sqrt(s);
}

// A cluster as the naive recomputation sees it: its points, its centroid and, for median linkage,
// the midpoint of its two children's points (WPGMC).
struct NaiveCluster {
    std::vector<std::size_t> members;
    std::vector<double> centroid;
    std::vector<double> medianPoint;
};

// Replays a linkage with O(N^3) work from the definitions: every merge must join two live clusters,
// have the height of the linkage distance between them, and be a global minimum among live pairs.
class NaiveReplay {
public:
    NaiveReplay(const std::vector<double>& x, std::size_t n, std::size_t d, LinkageMethod method)
        : m_x(x), m_n(n), m_d(d), m_method(method) {
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<double> p(x.begin() + static_cast<long>(i * d), x.begin() + static_cast<long>((i + 1) * d));
            m_live[static_cast<std::int64_t>(i)] = NaiveCluster{{i}, p, p};
        }
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                m_weighted[{static_cast<std::int64_t>(i), static_cast<std::int64_t>(j)}] =
                    euclid(&x[i * d], &x[j * d], d);
    }

    double distance(std::int64_t a, std::int64_t b) const {
        const NaiveCluster& A = m_live.at(a);
        const NaiveCluster& B = m_live.at(b);
        double result = 0.0;
        switch (m_method) {
            case LinkageMethod::Single:
                result = std::numeric_limits<double>::infinity();
                [[fallthrough]];
            case LinkageMethod::Complete:
            case LinkageMethod::Average:
                for (std::size_t i : A.members)
                    for (std::size_t j : B.members) {
                        const double dist = euclid(&m_x[i * m_d], &m_x[j * m_d], m_d);
                        if (m_method == LinkageMethod::Single) result = std::min(result, dist);
                        if (m_method == LinkageMethod::Complete) result = std::max(result, dist);
                        if (m_method == LinkageMethod::Average) result += dist;
                    }
                if (m_method == LinkageMethod::Average)
                    result /= static_cast<double>(A.members.size() * B.members.size());
                return result;
            case LinkageMethod::Weighted:
                return m_weighted.at({a, b});
            case LinkageMethod::Centroid:
                return euclid(A.centroid.data(), B.centroid.data(), m_d);
            case LinkageMethod::Median:
                return euclid(A.medianPoint.data(), B.medianPoint.data(), m_d);
            case LinkageMethod::Ward: {
                const double na = static_cast<double>(A.members.size());
                const double nb = static_cast<double>(B.members.size());
                return std::sqrt(2.0 * na * nb / (na + nb)) * euclid(A.centroid.data(), B.centroid.data(), m_d);
            }
        }
        return result;
    }

    void check(const Linkage& linkage) {
        ASSERT_EQ(linkage.leafCount, m_n);
        ASSERT_EQ(linkage.merges.size(), m_n - 1);
        for (std::size_t row = 0; row < linkage.merges.size(); ++row) {
            const Merge& m = linkage.merges[row];
            ASSERT_TRUE(m_live.count(m.a) && m_live.count(m.b)) << "row " << row << " merges a dead cluster";
            ASSERT_LT(m.a, m.b);
            const double h = distance(m.a, m.b);
            ASSERT_NEAR(m.height, h, 1e-9 * std::max(1.0, h)) << "row " << row;
            for (const auto& [p, cp] : m_live)
                for (const auto& [q, cq] : m_live)
                    if (p < q) {
                        ASSERT_GE(distance(p, q), h - 1e-9 * std::max(1.0, h)) << "row " << row << " is not a minimum";
                    }
            merge(m, static_cast<std::int64_t>(m_n + row));
        }
    }

private:
    void merge(const Merge& m, std::int64_t id) {
        NaiveCluster A = m_live.at(m.a);
        NaiveCluster B = m_live.at(m.b);
        for (const auto& [other, unused] : m_live) {
            if (other == m.a || other == m.b) continue;
            const double w = 0.5 * (m_weighted.at({m.a, other}) + m_weighted.at({m.b, other}));
            m_weighted[{id, other}] = m_weighted[{other, id}] = w;
        }
        m_live.erase(m.a);
        m_live.erase(m.b);
        NaiveCluster C;
        C.members = A.members;
        C.members.insert(C.members.end(), B.members.begin(), B.members.end());
        C.centroid.assign(m_d, 0.0);
        C.medianPoint.assign(m_d, 0.0);
        const double na = static_cast<double>(A.members.size());
        const double nb = static_cast<double>(B.members.size());
        for (std::size_t j = 0; j < m_d; ++j) {
            C.centroid[j] = (na * A.centroid[j] + nb * B.centroid[j]) / (na + nb);
            C.medianPoint[j] = 0.5 * (A.medianPoint[j] + B.medianPoint[j]);
        }
        m_live[id] = C;
    }

    const std::vector<double>& m_x;
    std::size_t m_n;
    std::size_t m_d;
    LinkageMethod m_method;
    std::map<std::int64_t, NaiveCluster> m_live;
    std::map<std::pair<std::int64_t, std::int64_t>, double> m_weighted;
};

// Prim with a full distance matrix, the obvious way: reference for minimumSpanningTreeCpu.
std::vector<MstEdge> bruteForcePrim(const std::vector<double>& x, std::size_t n, std::size_t d, std::size_t start) {
    std::vector<char> inTree(n, 0);
    std::vector<double> best(n, std::numeric_limits<double>::infinity());
    std::vector<std::int64_t> parent(n, static_cast<std::int64_t>(start));
    std::vector<MstEdge> edges;
    std::size_t latest = start;
    inTree[start] = 1;
    for (std::size_t step = 1; step < n; ++step) {
        std::size_t next = n;
        for (std::size_t v = 0; v < n; ++v) {
            if (inTree[v]) continue;
            const double dist = euclid(&x[latest * d], &x[v * d], d);
            if (dist < best[v]) {
                best[v] = dist;
                parent[v] = static_cast<std::int64_t>(latest);
            }
            if (next == n || best[v] < best[next]) next = v;
        }
        edges.push_back(MstEdge{parent[next], static_cast<std::int64_t>(next), best[next]});
        inTree[next] = 1;
        latest = next;
    }
    return edges;
}

}  // namespace

TEST(ClassicLinkage, ParsesMethodNamesAndRejectsOthersNamingTheOption) {
    for (LinkageMethod method : kAllMethods) EXPECT_EQ(parseLinkageMethod(linkageMethodName(method)), method);
    EXPECT_EQ(parseLinkageMethod("ward"), LinkageMethod::Ward);
    try {
        parseLinkageMethod("mahalanobis-ish");
        FAIL() << "expected InvalidInput";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("--linkage"), std::string::npos) << e.what();
    }
}

TEST(ClassicLinkage, EveryMergeIsTheGlobalMinimumOfANaiveRecomputation) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << " (set CLUSTERLENS_TEST_SEED to repeat)\n";
    for (std::uint64_t round = 0; round < 3; ++round) {
        const std::size_t n = 24 + 8 * round;
        const std::size_t d = 2 + round;
        const std::vector<double> x = randomBlobs(n, d, 3 + round, seed + round);
        for (LinkageMethod method : kAllMethods) {
            SCOPED_TRACE(linkageMethodName(method) + " round " + std::to_string(round));
            const Linkage linkage = classicLinkageCpu(x.data(), n, d, method);
            EXPECT_NO_THROW(linkage.validate("test"));
            NaiveReplay(x, n, d, method).check(linkage);
        }
    }
}

TEST(ClassicLinkage, ReducibleMethodsGiveMonotoneHeights) {
    const std::uint64_t seed = test::testSeed() + 100;
    std::cout << "seed " << seed << "\n";
    const std::vector<double> x = randomBlobs(300, 4, 5, seed);
    for (LinkageMethod method : {LinkageMethod::Single, LinkageMethod::Complete, LinkageMethod::Average,
                                 LinkageMethod::Weighted, LinkageMethod::Ward}) {
        EXPECT_EQ(classicLinkageCpu(x.data(), 300, 4, method).inversionCount(), 0u) << linkageMethodName(method);
    }
}

TEST(ClassicLinkage, TwoPointsGiveOneMergeAtTheirDistance) {
    const float x[] = {0.0f, 0.0f, 3.0f, 4.0f};
    for (LinkageMethod method : kAllMethods) {
        const Linkage linkage = classicLinkageCpu(x, 2, 2, method);
        ASSERT_EQ(linkage.merges.size(), 1u);
        EXPECT_EQ(linkage.merges[0].a, 0);
        EXPECT_EQ(linkage.merges[0].b, 1);
        EXPECT_DOUBLE_EQ(linkage.merges[0].height, 5.0) << linkageMethodName(method);
        EXPECT_EQ(linkage.merges[0].size, 2);
    }
}

TEST(ClassicLinkage, RejectsTooFewPointsNoFeaturesAndNonFiniteValues) {
    const float one[] = {1.0f, 2.0f};
    EXPECT_THROW(classicLinkageCpu(one, 1, 2, LinkageMethod::Average), InvalidInput);
    EXPECT_THROW(classicLinkageCpu(one, 2, 0, LinkageMethod::Average), InvalidInput);
    const float bad[] = {1.0f, std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f};
    EXPECT_THROW(classicLinkageCpu(bad, 2, 2, LinkageMethod::Ward), NonFiniteInput);
    EXPECT_THROW(classicLinkageCpu(bad, 2, 2, LinkageMethod::Single), NonFiniteInput);
}

TEST(ClassicLinkage, RefusesADistanceMatrixAboveTheLimitButNotSingleLinkage) {
    const std::size_t n = 70000;
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i) * 1.5f + static_cast<float>(i % 7) * 0.001f;
    try {
        classicLinkageCpu(x.data(), n, 1, LinkageMethod::Average);
        FAIL() << "expected InvalidInput";
    } catch (const InvalidInput& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("distance matrix"), std::string::npos) << message;
        EXPECT_NE(message.find("single"), std::string::npos) << message;
    }
}

TEST(ClassicLinkage, StopsWithCancelledWhenCancelled) {
    const std::vector<double> x = randomBlobs(200, 3, 2, 5);
    for (LinkageMethod method : kAllMethods) {
        JobControl control;
        control.cancel();
        EXPECT_THROW(classicLinkageCpu(x.data(), 200, 3, method, &control), Cancelled) << linkageMethodName(method);
    }
}

TEST(MinimumSpanningTree, EqualsBruteForcePrimFromAnyStart) {
    const std::uint64_t seed = test::testSeed() + 200;
    std::cout << "seed " << seed << "\n";
    const std::size_t n = 400, d = 5;
    const std::vector<double> x = randomBlobs(n, d, 4, seed);
    for (std::size_t start : {std::size_t{0}, std::size_t{17}, n - 1}) {
        const std::vector<MstEdge> expected = bruteForcePrim(x, n, d, start);
        const std::vector<MstEdge> actual = minimumSpanningTreeCpu(x.data(), n, d, nullptr, start);
        ASSERT_EQ(actual.size(), expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k) {
            EXPECT_EQ(actual[k].u, expected[k].u) << "edge " << k << " start " << start;
            EXPECT_EQ(actual[k].v, expected[k].v) << "edge " << k << " start " << start;
            EXPECT_NEAR(actual[k].w, expected[k].w, 1e-12 * expected[k].w) << "edge " << k;
        }
    }
}

TEST(MinimumSpanningTree, PrefersTheSmallerIndexAmongEqualDistances) {
    // Points on a line at 0, 1, 2, 3: from 1, both 0 and 2 are at distance 1.
    const float x[] = {0.0f, 1.0f, 2.0f, 3.0f};
    const std::vector<MstEdge> edges = minimumSpanningTreeCpu(x, 4, 1, nullptr, 1);
    ASSERT_EQ(edges.size(), 3u);
    EXPECT_EQ(edges[0].v, 0);
    EXPECT_EQ(edges[1].v, 2);
    EXPECT_EQ(edges[1].u, 1);
    EXPECT_EQ(edges[2].v, 3);
}

TEST(MinimumSpanningTree, SingleLinkageFromMstRejectsEdgesThatAreNotATree) {
    EXPECT_THROW(singleLinkageFromMst({MstEdge{0, 1, 1.0}}, 3), InvalidInput);
    EXPECT_THROW(singleLinkageFromMst({MstEdge{0, 1, 1.0}, MstEdge{1, 0, 2.0}}, 3), InvalidInput);
    EXPECT_THROW(singleLinkageFromMst({MstEdge{0, 1, 1.0}, MstEdge{1, 5, 2.0}}, 3), InvalidInput);
    const Linkage ok = singleLinkageFromMst({MstEdge{2, 1, 2.0}, MstEdge{0, 1, 1.0}}, 3);
    ASSERT_EQ(ok.merges.size(), 2u);
    EXPECT_EQ(ok.merges[0].a, 0);
    EXPECT_EQ(ok.merges[0].b, 1);
    EXPECT_EQ(ok.merges[1].a, 2);
    EXPECT_EQ(ok.merges[1].b, 3);
    EXPECT_EQ(ok.merges[1].size, 3);
}
