// GPU minimum spanning tree (Borůvka) against the CPU's Prim: same edges, same order, same weights.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "clusterlens/synthetic.hpp"
#include "require_gpu.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/hca/classic_linkage_cuda.hpp"
#include "clusterlens/hca/minimum_spanning_tree_cuda.hpp"
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA

namespace {

std::vector<float> uniformPoints(std::size_t n, std::size_t d, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<float> x(n * d);
    for (float& v : x) v = static_cast<float>(static_cast<double>(rng() >> 11) * 0x1.0p-53 * 10.0 - 5.0);
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

}  // namespace

TEST(MstParity, EqualsCpuPrimOnRandomDataOfManyShapes) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    struct Shape {
        std::size_t n, d;
    };
    // d covers the register-resident kernel instances (1..64 features) and the generic one (> 64).
    const Shape shapes[] = {{2, 1}, {3, 2}, {17, 3}, {300, 1}, {1000, 5}, {2500, 14}, {1200, 37}, {800, 70}, {3000, 8}};
    for (const Shape& s : shapes) {
        SCOPED_TRACE("seed " + std::to_string(seed) + ", n " + std::to_string(s.n) + ", d " + std::to_string(s.d));
        const std::vector<float> x = uniformPoints(s.n, s.d, seed + s.n * 131 + s.d);
        expectSameTree(minimumSpanningTreeCuda(x.data(), s.n, s.d), minimumSpanningTreeCpu(x.data(), s.n, s.d));
    }
}

TEST(MstParity, EqualsCpuOnClusteredDataFromAnyStart) {
    CL_REQUIRE_GPU();
    SyntheticOptions o;
    o.n = 4000;
    o.d = 14;
    o.clusters = 8;
    o.seed = test::testSeed();
    std::cout << "seed " << o.seed << "\n";
    const Dataset data = makeCytometryLike(o);
    for (std::size_t start : {std::size_t{0}, std::size_t{1234}}) {
        SCOPED_TRACE("start " + std::to_string(start));
        expectSameTree(minimumSpanningTreeCuda(data.values.data(), data.n, data.d, nullptr, start),
                       minimumSpanningTreeCpu(data.values.data(), data.n, data.d, nullptr, start));
    }
}

TEST(MstParity, SingleLinkageOnTheGpuEqualsCpu) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 7;
    std::cout << "seed " << seed << "\n";
    const std::vector<float> x = uniformPoints(2000, 6, seed);
    const Linkage gpu = classicLinkageCuda(x.data(), 2000, 6, LinkageMethod::Single);
    const Linkage cpu = classicLinkageCpu(x.data(), 2000, 6, LinkageMethod::Single);
    ASSERT_EQ(gpu.merges.size(), cpu.merges.size());
    for (std::size_t i = 0; i < cpu.merges.size(); ++i) {
        ASSERT_EQ(gpu.merges[i].a, cpu.merges[i].a) << "row " << i;
        ASSERT_EQ(gpu.merges[i].b, cpu.merges[i].b) << "row " << i;
        ASSERT_EQ(gpu.merges[i].height, cpu.merges[i].height) << "row " << i;
        ASSERT_EQ(gpu.merges[i].size, cpu.merges[i].size) << "row " << i;
    }
}

TEST(MstParity, DuplicatePointsGiveZeroWeightsAndATree) {
    CL_REQUIRE_GPU();
    std::vector<float> x = uniformPoints(50, 3, 99);
    x.insert(x.end(), x.begin(), x.end());  // every point twice
    const std::vector<MstEdge> edges = minimumSpanningTreeCuda(x.data(), 100, 3);
    ASSERT_EQ(edges.size(), 99u);
    std::size_t zeros = 0;
    for (const MstEdge& e : edges) zeros += e.w == 0.0 ? 1 : 0;
    EXPECT_EQ(zeros, 50u);
    EXPECT_NO_THROW(singleLinkageFromMst(edges, 100).validate("gpu mst"));
}

TEST(MstParity, RejectsBadInputAndHonoursCancel) {
    CL_REQUIRE_GPU();
    std::vector<float> x = uniformPoints(10, 2, 1);
    EXPECT_THROW(minimumSpanningTreeCuda(x.data(), 10, 0), InvalidInput);
    EXPECT_THROW(minimumSpanningTreeCuda(x.data(), 10, 2, nullptr, 10), InvalidInput);
    x[7] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_THROW(minimumSpanningTreeCuda(x.data(), 10, 2), NonFiniteInput);
    const std::vector<float> y = uniformPoints(500, 2, 2);
    JobControl control;
    control.cancel();
    EXPECT_THROW(minimumSpanningTreeCuda(y.data(), 500, 2, &control), Cancelled);
}

#else

TEST(MstParity, NeedsABuildWithCuda) {
    GTEST_SKIP() << "this build has no CUDA support";
}

#endif
