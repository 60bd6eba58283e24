#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <vector>

#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/errors.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

struct Blobs {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<float> x;
    std::vector<std::int32_t> truth;
};

// k well-separated Gaussian blobs (centres 100 apart along the first feature, unit noise), in random order.
Blobs separatedBlobs(std::size_t perBlob, std::size_t k, std::size_t d, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise;
    Blobs b;
    b.n = perBlob * k;
    b.d = d;
    for (std::size_t i = 0; i < b.n; ++i) {
        const std::size_t c = rng() % k;
        b.truth.push_back(static_cast<std::int32_t>(c));
        for (std::size_t j = 0; j < d; ++j)
            b.x.push_back(static_cast<float>((j == 0 ? 100.0 * static_cast<double>(c) : 0.0) + noise(rng)));
    }
    return b;
}

double choose2(double v) {
    return v * (v - 1.0) / 2.0;
}

// Adjusted Rand index (Hubert & Arabie 1985) from the contingency table of two labelings.
double adjustedRandIndex(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b) {
    std::map<std::pair<std::int32_t, std::int32_t>, double> table;
    std::map<std::int32_t, double> rows, cols;
    for (std::size_t i = 0; i < a.size(); ++i) {
        table[{a[i], b[i]}] += 1.0;
        rows[a[i]] += 1.0;
        cols[b[i]] += 1.0;
    }
    double index = 0.0, sumRows = 0.0, sumCols = 0.0;
    for (const auto& [key, count] : table) index += choose2(count);
    for (const auto& [key, count] : rows) sumRows += choose2(count);
    for (const auto& [key, count] : cols) sumCols += choose2(count);
    const double expected = sumRows * sumCols / choose2(static_cast<double>(a.size()));
    const double maximum = 0.5 * (sumRows + sumCols);
    return (index - expected) / (maximum - expected);
}

}  // namespace

TEST(KMeans, RecoversWellSeparatedClustersExactly) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    const Blobs blobs = separatedBlobs(200, 6, 3, seed);
    KMeansOptions options;
    options.k = 6;
    options.seed = seed;
    const KMeansResult result = kmeansCpu(blobs.x.data(), blobs.n, blobs.d, options);
    EXPECT_DOUBLE_EQ(adjustedRandIndex(result.labels, blobs.truth), 1.0);
    EXPECT_TRUE(result.converged);
    EXPECT_EQ(result.emptyClusters, 0u);
    EXPECT_EQ(result.centroids.size(), 6u * 3u);
}

TEST(KMeans, IsReproducibleForASeed) {
    const std::uint64_t seed = test::testSeed() + 1;
    std::cout << "seed " << seed << "\n";
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise;
    std::vector<float> x(5000 * 4);
    for (float& v : x) v = static_cast<float>(noise(rng));
    KMeansOptions options;
    options.k = 7;
    options.seed = 42;
    const KMeansResult first = kmeansCpu(x.data(), 5000, 4, options);
    const KMeansResult second = kmeansCpu(x.data(), 5000, 4, options);
    EXPECT_EQ(first.labels, second.labels);
    EXPECT_EQ(first.centroids, second.centroids);
    EXPECT_EQ(first.inertia, second.inertia);
    EXPECT_EQ(first.iterations, second.iterations);
    options.seed = 43;
    const KMeansResult other = kmeansCpu(x.data(), 5000, 4, options);
    EXPECT_NE(first.centroids, other.centroids);
}

TEST(KMeans, InertiaNeverIncreasesOverIterations) {
    const std::uint64_t seed = test::testSeed() + 2;
    std::cout << "seed " << seed << "\n";
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise;
    std::vector<double> x(3000 * 5);
    for (double& v : x) v = noise(rng);
    KMeansOptions options;
    options.k = 12;
    options.seed = seed;
    options.tolerance = 0.0;
    const KMeansResult result = kmeansCpu(x.data(), 3000, 5, options);
    ASSERT_GE(result.inertiaHistory.size(), 2u);
    EXPECT_EQ(result.inertiaHistory.size(), result.iterations + 1);
    for (std::size_t i = 1; i < result.inertiaHistory.size(); ++i)
        EXPECT_LE(result.inertiaHistory[i], result.inertiaHistory[i - 1] * (1.0 + 1e-12)) << "iteration " << i;
    EXPECT_EQ(result.inertia, result.inertiaHistory.back());
}

TEST(KMeans, LabelsAreNearestCentroidsAndInertiaTheirSquaredDistances) {
    const Blobs blobs = separatedBlobs(50, 4, 2, 9);
    KMeansOptions options;
    options.k = 5;
    const KMeansResult result = kmeansCpu(blobs.x.data(), blobs.n, blobs.d, options);
    double inertia = 0.0;
    for (std::size_t i = 0; i < blobs.n; ++i) {
        double best = std::numeric_limits<double>::infinity();
        std::int32_t label = -1;
        for (std::size_t c = 0; c < options.k; ++c) {
            double s = 0.0;
            for (std::size_t j = 0; j < blobs.d; ++j) {
                const double diff = static_cast<double>(blobs.x[i * blobs.d + j]) - result.centroids[c * blobs.d + j];
                s += diff * diff;
            }
            if (s < best) {
                best = s;
                label = static_cast<std::int32_t>(c);
            }
        }
        EXPECT_EQ(result.labels[i], label) << "point " << i;
        inertia += best;
    }
    EXPECT_NEAR(result.inertia, inertia, 1e-9 * inertia);
}

TEST(KMeans, KEqualToNGivesZeroInertia) {
    const float x[] = {0.0f, 1.0f, 5.0f, 9.0f, 2.0f};
    KMeansOptions options;
    options.k = 5;
    const KMeansResult result = kmeansCpu(x, 5, 1, options);
    EXPECT_EQ(result.inertia, 0.0);
    EXPECT_EQ(result.emptyClusters, 0u);
}

TEST(KMeans, EmptyClustersAreReseededWithoutCrashing) {
    // Three distinct locations, four copies each, k = 5: two centres must duplicate a location.
    std::vector<float> x;
    for (int copy = 0; copy < 4; ++copy)
        for (float v : {0.0f, 10.0f, 20.0f}) x.push_back(v);
    KMeansOptions options;
    options.k = 5;
    const KMeansResult result = kmeansCpu(x.data(), x.size(), 1, options);
    EXPECT_EQ(result.inertia, 0.0);
    for (std::int32_t label : result.labels) {
        EXPECT_GE(label, 0);
        EXPECT_LT(label, 5);
    }
    EXPECT_LE(result.emptyClusters, 2u);
}

TEST(KMeans, RejectsBadKNamingTheOptionAndNonFiniteInput) {
    const float x[] = {0.0f, 1.0f, 2.0f};
    KMeansOptions options;
    options.k = 4;
    try {
        kmeansCpu(x, 3, 1, options);
        FAIL() << "expected InvalidInput";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("-k"), std::string::npos) << e.what();
    }
    options.k = 0;
    EXPECT_THROW(kmeansCpu(x, 3, 1, options), InvalidInput);
    options.k = 1;
    EXPECT_THROW(kmeansCpu(x, 0, 1, options), InvalidInput);
    const float bad[] = {0.0f, std::numeric_limits<float>::infinity()};
    EXPECT_THROW(kmeansCpu(bad, 2, 1, options), NonFiniteInput);
}

TEST(KMeans, StopsWithCancelledWhenCancelled) {
    const Blobs blobs = separatedBlobs(100, 3, 2, 3);
    KMeansOptions options;
    options.k = 3;
    JobControl control;
    control.cancel();
    EXPECT_THROW(kmeansCpu(blobs.x.data(), blobs.n, blobs.d, options, &control), Cancelled);
}
