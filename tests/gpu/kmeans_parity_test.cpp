// GPU k-means against kmeansCpu: the same seed gives the same centres, labels and inertia.

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <random>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/synthetic.hpp"
#include "require_gpu.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/kmeans_cuda.hpp"
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA

namespace {

double uniform01(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// k blobs with centres 50 apart on a random axis and spread 1: well separated.
std::vector<float> separatedBlobs(std::size_t n, std::size_t d, std::size_t k, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<float> x(n * d);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t c = rng() % k;
        for (std::size_t j = 0; j < d; ++j) {
            const double centre = j == c % d ? 50.0 * static_cast<double>(c / d + 1) : 0.0;
            x[i * d + j] = static_cast<float>(centre + (uniform01(rng) - 0.5) * 2.0);
        }
    }
    return x;
}

std::vector<float> uniformPoints(std::size_t n, std::size_t d, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<float> x(n * d);
    for (float& v : x) v = static_cast<float>(uniform01(rng) * 10.0);
    return x;
}

void expectSameClustering(const KMeansResult& gpu, const KMeansResult& cpu, bool exactLabels) {
    ASSERT_EQ(gpu.labels.size(), cpu.labels.size());
    ASSERT_FALSE(gpu.inertiaHistory.empty());
    // The seeding is identical: the inertia right after it agrees to rounding.
    EXPECT_NEAR(gpu.inertiaHistory[0], cpu.inertiaHistory[0], 1e-9 * std::max(1.0, cpu.inertiaHistory[0]));
    EXPECT_NEAR(gpu.inertia, cpu.inertia, 1e-4 * std::max(1.0, cpu.inertia));
    if (!exactLabels) return;
    EXPECT_EQ(gpu.labels, cpu.labels);
    EXPECT_EQ(gpu.iterations, cpu.iterations);
    EXPECT_EQ(gpu.converged, cpu.converged);
    EXPECT_EQ(gpu.emptyClusters, cpu.emptyClusters);
    ASSERT_EQ(gpu.centroids.size(), cpu.centroids.size());
    for (std::size_t e = 0; e < cpu.centroids.size(); ++e)
        EXPECT_NEAR(gpu.centroids[e], cpu.centroids[e], 1e-9 * std::max(1.0, std::abs(cpu.centroids[e])));
}

}  // namespace

TEST(KMeansParity, SameSeedSameLabelsOnSeparatedData) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    struct Case {
        std::size_t n, d, k;
    };
    const Case cases[] = {{500, 2, 1}, {3000, 5, 6}, {4000, 14, 12}, {2000, 3, 20}};
    for (const Case& c : cases) {
        SCOPED_TRACE("seed " + std::to_string(seed) + ", n " + std::to_string(c.n) + ", d " + std::to_string(c.d) +
                     ", k " + std::to_string(c.k));
        const std::vector<float> x = separatedBlobs(c.n, c.d, c.k, seed + c.n);
        KMeansOptions options;
        options.k = c.k;
        options.seed = seed + c.k;
        expectSameClustering(kmeansCuda(x.data(), c.n, c.d, options), kmeansCpu(x.data(), c.n, c.d, options), true);
    }
}

TEST(KMeansParity, SameSeedingAndInertiaOnUniformAndCytometryLikeData) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 3;
    std::cout << "seed " << seed << "\n";
    const std::vector<float> x = uniformPoints(3000, 4, seed);
    KMeansOptions options;
    options.k = 9;
    options.seed = seed;
    expectSameClustering(kmeansCuda(x.data(), 3000, 4, options), kmeansCpu(x.data(), 3000, 4, options), false);

    SyntheticOptions o;
    o.n = 5000;
    o.d = 14;
    o.seed = seed;
    const Dataset data = makeCytometryLike(o);
    options.k = 12;
    expectSameClustering(kmeansCuda(data.values.data(), data.n, data.d, options),
                         kmeansCpu(data.values.data(), data.n, data.d, options), false);
}

TEST(KMeansParity, FewerDistinctPointsThanClustersRelocateAsTheCpuDoes) {
    CL_REQUIRE_GPU();
    // 5 distinct points, each 40 times; k = 8 forces zero-potential draws and empty clusters.
    const std::vector<float> base = uniformPoints(5, 3, 77);
    std::vector<float> x;
    for (int copy = 0; copy < 40; ++copy) x.insert(x.end(), base.begin(), base.end());
    KMeansOptions options;
    options.k = 8;
    options.seed = 5;
    expectSameClustering(kmeansCuda(x.data(), 200, 3, options), kmeansCpu(x.data(), 200, 3, options), true);
}

TEST(KMeansParity, RepeatedRunsAreBitIdentical) {
    CL_REQUIRE_GPU();
    const std::vector<float> x = uniformPoints(20000, 6, 11);
    KMeansOptions options;
    options.k = 16;
    options.seed = 3;
    const KMeansResult a = kmeansCuda(x.data(), 20000, 6, options);
    const KMeansResult b = kmeansCuda(x.data(), 20000, 6, options);
    EXPECT_EQ(a.labels, b.labels);
    EXPECT_EQ(a.centroids, b.centroids);
    EXPECT_EQ(a.inertiaHistory, b.inertiaHistory);
}

TEST(KMeansParity, RejectsBadInputAndHonoursCancel) {
    CL_REQUIRE_GPU();
    std::vector<float> x = uniformPoints(10, 2, 1);
    KMeansOptions options;
    options.k = 0;
    EXPECT_THROW(kmeansCuda(x.data(), 10, 2, options), InvalidInput);
    options.k = 11;
    EXPECT_THROW(kmeansCuda(x.data(), 10, 2, options), InvalidInput);
    options.k = 3;
    x[3] = std::numeric_limits<float>::infinity();
    EXPECT_THROW(kmeansCuda(x.data(), 10, 2, options), NonFiniteInput);
    const std::vector<float> y = uniformPoints(1000, 2, 2);
    JobControl control;
    control.cancel();
    EXPECT_THROW(kmeansCuda(y.data(), 1000, 2, options, &control), Cancelled);
}

#else

TEST(KMeansParity, NeedsABuildWithCuda) {
    GTEST_SKIP() << "this build has no CUDA support";
}

#endif
