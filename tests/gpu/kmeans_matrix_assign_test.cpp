// The k-means assignment through a matrix product (cuBLAS DGEMM or FP64 tensor-core tiles, a proven
// screen, exact rechecks) against the per-point kernel and kmeansCpu: the same labels, centroids and inertia history,
// bit for bit, on data near and far from the origin and on a lattice full of exact ties.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <tuple>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/synthetic.hpp"
#include "require_gpu.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/kmeans_cuda.hpp"
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA

namespace {

KMeansOptions fixedIterations(std::size_t k, std::uint64_t seed, std::size_t iterations) {
    KMeansOptions options;
    options.k = k;
    options.seed = seed;
    options.maxIterations = iterations;
    options.tolerance = 0.0;
    return options;
}

void expectIdentical(const KMeansResult& matrix, const KMeansResult& kernel) {
    EXPECT_EQ(matrix.labels, kernel.labels);
    EXPECT_EQ(matrix.centroids, kernel.centroids);
    EXPECT_EQ(matrix.inertiaHistory, kernel.inertiaHistory);
    EXPECT_EQ(matrix.iterations, kernel.iterations);
    EXPECT_EQ(matrix.converged, kernel.converged);
}

/// Whether this device takes the tensor tiles (FP64 tensor cores); printed when it does not.
bool tilesSupported() {
    try {
        const std::vector<float> x{0.0f, 1.0f};
        kmeansCuda(x.data(), 2, 1, fixedIterations(1, 1, 1), nullptr, KMeansAssignment::TensorTiles);
        return true;
    } catch (const InvalidInput& e) {
        std::cout << "tensor tiles not compared: " << e.what() << "\n";
        return false;
    }
}

void compareVariants(const std::vector<float>& x, std::size_t n, std::size_t d, const KMeansOptions& options) {
    const KMeansResult kernel = kmeansCuda(x.data(), n, d, options, nullptr, KMeansAssignment::Kernel);
    const KMeansResult matrix = kmeansCuda(x.data(), n, d, options, nullptr, KMeansAssignment::MatrixProduct);
    expectIdentical(matrix, kernel);
    if (d <= 64 && tilesSupported()) {
        SCOPED_TRACE("tensor tiles");
        expectIdentical(kmeansCuda(x.data(), n, d, options, nullptr, KMeansAssignment::TensorTiles), kernel);
    }
}

TEST(KMeansMatrixAssign, EqualsTheKernelOnCytometryLikeData) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 11;
    std::cout << "seed " << seed << "\n";
    for (const auto& [n, d, k] : {std::tuple<std::size_t, std::size_t, std::size_t>{20000, 14, 100},
                                  {6000, 39, 300},
                                  {3000, 3, 70},
                                  {5000, 64, 130},
                                  {4000, 70, 65}}) {
        SyntheticOptions o;
        o.n = n;
        o.d = d;
        o.seed = seed;
        const Dataset data = makeCytometryLike(o);
        SCOPED_TRACE(testing::Message() << n << " x " << d << ", k = " << k);
        compareVariants(data.values, n, d, fixedIterations(k, seed, 8));
    }
}

TEST(KMeansMatrixAssign, EqualsTheKernelFarFromTheOrigin) {
    CL_REQUIRE_GPU();
    // Values near 1e4 with a spread of 1: without the mean's shift the product's terms would be 1e8
    // times the distances; the screen must still keep the nearest centroid.
    std::mt19937_64 rng(test::testSeed() + 12);
    std::normal_distribution<double> spread(0.0, 1.0);
    const std::size_t n = 8000, d = 6;
    std::vector<float> x(n * d);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < d; ++j)
            x[i * d + j] = static_cast<float>(1e4 + 3.0 * static_cast<double>(i % 7) + spread(rng));
    compareVariants(x, n, d, fixedIterations(96, 3, 6));
}

TEST(KMeansMatrixAssign, TiesGoToTheLowerLabelAsInTheKernel) {
    CL_REQUIRE_GPU();
    // Points on the integer lattice {0..3}^3, each many times: centroids drawn from the points are
    // lattice points, and many points are equally far from two or more of them.
    const std::size_t d = 3;
    std::vector<float> x;
    for (int copy = 0; copy < 30; ++copy)
        for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b)
                for (int c = 0; c < 4; ++c) x.insert(x.end(), {float(a), float(b), float(c)});
    const std::size_t n = x.size() / d;
    compareVariants(x, n, d, fixedIterations(64, 9, 5));
    const KMeansOptions options = fixedIterations(64, 9, 5);
    const KMeansResult cpu = kmeansCpu(x.data(), n, d, options);
    const KMeansResult matrix = kmeansCuda(x.data(), n, d, options, nullptr, KMeansAssignment::MatrixProduct);
    EXPECT_EQ(matrix.labels, cpu.labels);
}

TEST(KMeansMatrixAssign, TensorTilesRefuseMoreThan64Features) {
    CL_REQUIRE_GPU();
    const std::vector<float> x(3 * 65, 1.0f);
    EXPECT_THROW(kmeansCuda(x.data(), 3, 65, fixedIterations(2, 1, 1), nullptr, KMeansAssignment::TensorTiles),
                 InvalidInput);
}

TEST(KMeansMatrixAssign, AutoMatchesTheCpuWithManyClusters) {
    CL_REQUIRE_GPU();
    SyntheticOptions o;
    o.n = 12000;
    o.d = 10;
    o.seed = test::testSeed() + 13;
    const Dataset data = makeCytometryLike(o);
    const KMeansOptions options = fixedIterations(600, o.seed, 6);  // k x d = 6000: Auto takes the matrix product
    const KMeansResult cpu = kmeansCpu(data.values.data(), data.n, data.d, options);
    const KMeansResult gpu = kmeansCuda(data.values.data(), data.n, data.d, options);
    EXPECT_EQ(gpu.labels, cpu.labels);
    EXPECT_EQ(gpu.iterations, cpu.iterations);
    ASSERT_EQ(gpu.centroids.size(), cpu.centroids.size());
    for (std::size_t e = 0; e < cpu.centroids.size(); ++e)
        EXPECT_NEAR(gpu.centroids[e], cpu.centroids[e], 1e-9 * std::max(1.0, std::abs(cpu.centroids[e])));
    expectIdentical(gpu,
                    kmeansCuda(data.values.data(), data.n, data.d, options, nullptr, KMeansAssignment::MatrixProduct));
}

}  // namespace

#else

TEST(KMeansMatrixAssign, NeedsABuildWithCuda) {
    GTEST_SKIP() << "this build has no CUDA support";
}

#endif
