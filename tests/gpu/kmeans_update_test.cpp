// The GPU k-means update step: each centroid is its cluster's points summed in the documented fixed
// order (in point order, chunks of 256 points of one cluster, then the chunk sums in order) over the
// cluster's size, bit for bit, also for very unequal clusters and more features than one shared tile.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "clusterlens/cluster/kmeans.hpp"
#include "require_gpu.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/kmeans_cuda.hpp"
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA

namespace {

constexpr std::size_t kChunk = 256;

/// Points around k centres 100 apart on the diagonal, cluster c taking share[c] of them in random
/// order, uniform noise of half-width 3 (far apart: Lloyd's loop settles on the true clusters).
std::vector<float> unequalClusters(std::size_t n, std::size_t d, const std::vector<double>& share, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::discrete_distribution<std::size_t> pick(share.begin(), share.end());
    std::uniform_real_distribution<double> noise(-3.0, 3.0);
    std::vector<float> x(n * d);
    for (std::size_t i = 0; i < n; ++i) {
        const double centre = 100.0 * static_cast<double>(pick(rng));
        for (std::size_t j = 0; j < d; ++j) x[i * d + j] = static_cast<float>(centre + noise(rng) + 0.25 * j);
    }
    return x;
}

/// The centroids of `labels` with the update step's order of additions.
std::vector<double> chunkedMeans(const std::vector<float>& x, std::size_t d, const std::vector<std::int32_t>& labels,
                                 std::size_t k) {
    std::vector<double> means(k * d, 0.0);
    for (std::size_t c = 0; c < k; ++c) {
        std::vector<std::size_t> members;
        for (std::size_t i = 0; i < labels.size(); ++i)
            if (labels[i] == static_cast<std::int32_t>(c)) members.push_back(i);
        for (std::size_t j = 0; j < d; ++j) {
            double total = 0.0;
            for (std::size_t first = 0; first < members.size(); first += kChunk) {
                double chunk = 0.0;
                for (std::size_t m = first; m < std::min(members.size(), first + kChunk); ++m)
                    chunk += static_cast<double>(x[members[m] * d + j]);
                total += chunk;
            }
            means[c * d + j] = total / static_cast<double>(members.size());
        }
    }
    return means;
}

/// Runs to convergence with tolerance 0, so the final labels are the ones the last update summed.
void expectChunkedCentroids(std::size_t n, std::size_t d, const std::vector<double>& share, std::uint64_t seed) {
    const std::vector<float> x = unequalClusters(n, d, share, seed);
    KMeansOptions options;
    options.k = share.size();
    options.seed = seed;
    options.tolerance = 0.0;
    options.maxIterations = 100;
    const KMeansResult result = kmeansCuda(x.data(), n, d, options);
    ASSERT_TRUE(result.converged);
    ASSERT_GE(result.iterations, 1u);
    ASSERT_EQ(result.emptyClusters, 0u);
    const std::vector<double> expected = chunkedMeans(x, d, result.labels, options.k);
    ASSERT_EQ(result.centroids.size(), expected.size());
    for (std::size_t e = 0; e < expected.size(); ++e) EXPECT_EQ(result.centroids[e], expected[e]) << "entry " << e;
}

}  // namespace

TEST(KMeansUpdate, CentroidsAreTheChunkedSumsOverVeryUnequalClusters) {
    CL_REQUIRE_GPU();
    // 12,000 points: about 7,200 / 3,600 / 600 / 480 / 120 (many chunks, one chunk, a partial chunk).
    expectChunkedCentroids(12000, 6, {0.6, 0.3, 0.05, 0.04, 0.01}, 21);
}

TEST(KMeansUpdate, CentroidsAreTheChunkedSumsWithMoreFeaturesThanOneTile) {
    CL_REQUIRE_GPU();
    // 50 features: the chunk's rows pass through shared memory in two tiles (40 + 10).
    expectChunkedCentroids(3000, 50, {0.5, 0.3, 0.2}, 22);
}

#else

TEST(KMeansUpdate, NeedsABuildWithCuda) {
    GTEST_SKIP() << "this build has no CUDA support";
}

#endif
