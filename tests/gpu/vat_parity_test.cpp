// The GPU VAT engine against the CPU oracles: farthest pair, exact minimum spanning tree in Prim order
// under every metric (same edges, same order, weights bit for bit), computeVat, and the viewport
// renderer pixel for pixel.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/synthetic.hpp"
#include "clusterlens/vat/vat.hpp"
#include "clusterlens/vat/viewport.hpp"
#include "require_gpu.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/vat/vat_cuda.hpp"
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA

namespace {

constexpr Metric kMetrics[] = {Metric::Euclidean, Metric::SqEuclidean, Metric::Manhattan, Metric::Cosine};

std::vector<float> uniformPoints(std::size_t n, std::size_t d, std::uint64_t seed, double lo = -5.0, double hi = 5.0) {
    std::mt19937_64 rng(seed);
    std::vector<float> x(n * d);
    for (float& v : x) v = static_cast<float>(lo + static_cast<double>(rng() >> 11) * 0x1.0p-53 * (hi - lo));
    return x;
}

/// Small integers: many equal distances.
std::vector<float> gridPoints(std::size_t n, std::size_t d, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<float> x(n * d);
    for (float& v : x) v = static_cast<float>(1 + rng() % 4);
    return x;
}

void expectSameTree(const std::vector<MstEdge>& gpu, const std::vector<MstEdge>& cpu) {
    ASSERT_EQ(gpu.size(), cpu.size());
    for (std::size_t k = 0; k < cpu.size(); ++k) {
        ASSERT_EQ(gpu[k].v, cpu[k].v) << "Prim position " << k + 1;
        ASSERT_EQ(gpu[k].u, cpu[k].u) << "Prim position " << k + 1;
        ASSERT_EQ(gpu[k].w, cpu[k].w) << "Prim position " << k + 1;  // bit for bit
    }
}

std::vector<double> sortedWeights(const std::vector<MstEdge>& edges) {
    std::vector<double> w;
    for (const MstEdge& e : edges) w.push_back(e.w);
    std::sort(w.begin(), w.end());
    return w;
}

struct Shape {
    std::size_t n, d;
};

// Shapes cover one partial tile, many tiles with padding, one and several feature chunks (d > 32).
constexpr Shape kShapes[] = {{2, 1}, {3, 2}, {17, 3}, {300, 1}, {700, 5}, {2100, 14}, {1300, 39}, {600, 70}};

}  // namespace

TEST(VatParity, FarthestPairEqualsCpuForEveryMetricAndShape) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    for (const Metric metric : kMetrics)
        for (const Shape& s : kShapes) {
            SCOPED_TRACE(std::string(metricName(metric)) + ", n " + std::to_string(s.n) + ", d " + std::to_string(s.d));
            const std::vector<float> x = uniformPoints(s.n, s.d, seed + s.n * 31 + s.d);
            EXPECT_EQ(farthestPairCuda(x.data(), s.n, s.d, metric), farthestPairCpu(x.data(), s.n, s.d, metric));
        }
}

TEST(VatParity, FarthestPairTiesTakeTheLexicographicallySmallestPair) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 1;
    std::cout << "seed " << seed << "\n";
    for (const Metric metric : kMetrics) {
        SCOPED_TRACE(metricName(metric));
        const std::vector<float> x = gridPoints(900, 3, seed);
        EXPECT_EQ(farthestPairCuda(x.data(), 900, 3, metric), farthestPairCpu(x.data(), 900, 3, metric));
        const std::vector<float> same(40 * 2, 1.5f);  // all distances equal: (0, 1)
        EXPECT_EQ(farthestPairCuda(same.data(), 40, 2, metric), (std::pair<std::size_t, std::size_t>{0, 1}));
    }
}

TEST(VatParity, MinimumSpanningTreeEqualsCpuPrimForEveryMetricAndShape) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 2;
    std::cout << "seed " << seed << "\n";
    for (const Metric metric : kMetrics)
        for (const Shape& s : kShapes) {
            // Rows of one feature are all +1 or -1 after normalising: cosine distances 0 and 2 only,
            // so the tree is not unique there (covered by TiedDistancesStillGiveAMinimumSpanningTree).
            if (metric == Metric::Cosine && s.d == 1) continue;
            SCOPED_TRACE(std::string(metricName(metric)) + ", n " + std::to_string(s.n) + ", d " + std::to_string(s.d));
            const std::vector<float> x = uniformPoints(s.n, s.d, seed + s.n * 17 + s.d);
            const std::size_t start = (seed + s.n) % s.n;
            expectSameTree(minimumSpanningTreeCuda(x.data(), s.n, s.d, metric, nullptr, start),
                           minimumSpanningTreeCpu(x.data(), s.n, s.d, metric, nullptr, start));
        }
}

TEST(VatParity, ClusteredCytometryLikeDataEqualsCpu) {
    CL_REQUIRE_GPU();
    SyntheticOptions o;
    o.seed = test::testSeed() + 3;
    std::cout << "seed " << o.seed << "\n";
    struct Case {
        std::size_t n, d;
        Metric metric;
    };
    for (const Case& c : {Case{24000, 14, Metric::Euclidean}, Case{9000, 14, Metric::Manhattan},
                          Case{7000, 39, Metric::Cosine}, Case{5000, 39, Metric::SqEuclidean}}) {
        SCOPED_TRACE(std::string(metricName(c.metric)) + ", n " + std::to_string(c.n) + ", d " + std::to_string(c.d));
        o.n = c.n;
        o.d = c.d;
        const Dataset data = makeCytometryLike(o);
        const auto far = farthestPairCpu(data.values.data(), c.n, c.d, c.metric);
        EXPECT_EQ(farthestPairCuda(data.values.data(), c.n, c.d, c.metric), far);
        expectSameTree(minimumSpanningTreeCuda(data.values.data(), c.n, c.d, c.metric, nullptr, far.first),
                       minimumSpanningTreeCpu(data.values.data(), c.n, c.d, c.metric, nullptr, far.first));
    }
}

TEST(VatParity, TiedDistancesStillGiveAMinimumSpanningTree) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 4;
    std::cout << "seed " << seed << "\n";
    for (const Metric metric : kMetrics) {
        SCOPED_TRACE(metricName(metric));
        std::vector<float> x = gridPoints(1500, 4, seed);
        const std::vector<float> copy(x.begin(), x.begin() + 200 * 4);
        x.insert(x.end(), copy.begin(), copy.end());  // exact duplicates: zero-weight edges
        const std::size_t n = x.size() / 4;
        const std::vector<MstEdge> gpu = minimumSpanningTreeCuda(x.data(), n, 4, metric);
        const std::vector<MstEdge> cpu = minimumSpanningTreeCpu(x.data(), n, 4, metric);
        // Every minimum spanning tree has the same multiset of weights.
        EXPECT_EQ(sortedWeights(gpu), sortedWeights(cpu));
        EXPECT_NO_THROW(vatFromTree(gpu, n, 0));
    }
}

TEST(VatParity, ComputeVatOnCudaEqualsCpu) {
    CL_REQUIRE_GPU();
    SyntheticOptions o;
    o.n = 6000;
    o.d = 9;
    o.seed = test::testSeed() + 5;
    std::cout << "seed " << o.seed << "\n";
    const Dataset data = makeCytometryLike(o);
    for (const Metric metric : kMetrics) {
        SCOPED_TRACE(metricName(metric));
        VatOptions options;
        options.metric = metric;
        options.backend = Backend::Cuda;
        const VatResult gpu = computeVat(data.values.data(), data.n, data.d, options);
        options.backend = Backend::Cpu;
        const VatResult cpu = computeVat(data.values.data(), data.n, data.d, options);
        EXPECT_EQ(gpu.start, cpu.start);
        EXPECT_EQ(gpu.order, cpu.order);
        EXPECT_EQ(gpu.cut, cpu.cut);
    }
}

TEST(VatParity, RendererEqualsCpuPixelForPixel) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 6;
    std::cout << "seed " << seed << "\n";
    const std::size_t n = 2500, d = 7;
    const std::vector<float> x = uniformPoints(n, d, seed, 0.5, 3.0);
    std::vector<VatViewport> views;
    const auto view = [&](double r0, double r1, double c0, double c1, int w, int h, VatImageKind kind,
                          VatPixelMode mode) {
        views.push_back(VatViewport{r0, r1, c0, c1, w, h, kind, mode});
    };
    for (const VatImageKind kind : {VatImageKind::Vat, VatImageKind::Ivat})
        for (const VatPixelMode mode : {VatPixelMode::Representative, VatPixelMode::BlockMean}) {
            view(0, double(n), 0, double(n), 300, 300, kind, mode);     // whole matrix, symmetric
            view(100.25, 1900.5, 333.3, 2499.9, 257, 131, kind, mode);  // zoomed, not square
            view(1200, 1260.5, 1200, 1260.5, 500, 500, kind, mode);     // upsampled: many pixels a point
            view(0, double(n), 0, double(n), 1, 1, kind, mode);         // one pixel
            view(7.5, 8.5, 2000, double(n), 3, 64, kind, mode);
        }
    for (const Metric metric : kMetrics) {
        SCOPED_TRACE(metricName(metric));
        VatOptions options;
        options.metric = metric;
        options.backend = Backend::Cpu;
        const VatResult vat = computeVat(x.data(), n, d, options);
        const VatRenderSource source = makeVatRenderSource(vat, x.data(), d);
        VatDeviceRenderer renderer(source);
        EXPECT_GT(renderer.deviceBytes(), n * d * sizeof(float));
        for (std::size_t v = 0; v < views.size(); ++v) {
            SCOPED_TRACE("viewport " + std::to_string(v));
            const std::size_t pixels = std::size_t(views[v].width) * std::size_t(views[v].height);
            std::vector<float> gpu(pixels, std::numeric_limits<float>::quiet_NaN());
            std::vector<float> cpu(pixels, -1.0f);
            renderer.renderToHost(views[v], gpu.data());
            renderVatViewportCpu(source, views[v], cpu.data());
            std::size_t differ = 0;
            for (std::size_t p = 0; p < pixels; ++p) differ += gpu[p] == cpu[p] ? 0 : 1;
            EXPECT_EQ(differ, 0u) << "of " << pixels << " pixels";
            EXPECT_GE(renderer.lastKernelMilliseconds(), 0.0);
        }
    }
}

TEST(VatParity, RejectsBadInputAndHonoursCancel) {
    CL_REQUIRE_GPU();
    std::vector<float> x = uniformPoints(300, 3, 11);
    EXPECT_THROW(minimumSpanningTreeCuda(x.data(), 300, 0, Metric::Euclidean), InvalidInput);
    EXPECT_THROW(minimumSpanningTreeCuda(x.data(), 300, 3, Metric::Euclidean, nullptr, 300), InvalidInput);
    EXPECT_THROW(farthestPairCuda(x.data(), 1, 3, Metric::Euclidean), InvalidInput);
    std::vector<float> zero = x;
    std::fill(zero.begin() + 30, zero.begin() + 33, 0.0f);
    EXPECT_THROW(minimumSpanningTreeCuda(zero.data(), 300, 3, Metric::Cosine), InvalidInput);
    EXPECT_THROW(farthestPairCuda(zero.data(), 300, 3, Metric::Cosine), InvalidInput);
    x[100] = std::numeric_limits<float>::infinity();
    EXPECT_THROW(minimumSpanningTreeCuda(x.data(), 300, 3, Metric::Manhattan), NonFiniteInput);
    EXPECT_THROW(farthestPairCuda(x.data(), 300, 3, Metric::Manhattan), NonFiniteInput);
    const std::vector<float> y = uniformPoints(5000, 4, 12);
    JobControl control;
    control.cancel();
    EXPECT_THROW(minimumSpanningTreeCuda(y.data(), 5000, 4, Metric::Euclidean, &control), Cancelled);
    EXPECT_THROW(farthestPairCuda(y.data(), 5000, 4, Metric::Euclidean, &control), Cancelled);
    VatRenderSource empty;
    EXPECT_THROW(VatDeviceRenderer{empty}, InvalidInput);
}

#else

TEST(VatParity, NeedsABuildWithCuda) {
    GTEST_SKIP() << "this build has no CUDA support";
}

#endif
