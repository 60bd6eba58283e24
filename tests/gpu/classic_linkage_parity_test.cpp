// GPU ward and centroid linkages (matrix-free) against classicLinkageCpu: same merges, same labels,
// heights equal to 1e-6 relative.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/synthetic.hpp"
#include "require_gpu.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/hca/classic_linkage_cuda.hpp"
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

void expectSameLinkage(const Linkage& gpu, const Linkage& cpu) {
    ASSERT_EQ(gpu.leafCount, cpu.leafCount);
    ASSERT_EQ(gpu.merges.size(), cpu.merges.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < cpu.merges.size(); ++i) {
        const Merge& g = gpu.merges[i];
        const Merge& c = cpu.merges[i];
        ASSERT_EQ(g.a, c.a) << "row " << i;
        ASSERT_EQ(g.b, c.b) << "row " << i;
        ASSERT_EQ(g.size, c.size) << "row " << i;
        const double scale = std::max(std::abs(c.height), 1e-300);
        worst = std::max(worst, std::abs(g.height - c.height) / scale);
        ASSERT_LE(std::abs(g.height - c.height), 1e-6 * scale) << "row " << i;
    }
    std::cout << "largest relative height difference " << worst << "\n";
}

}  // namespace

TEST(ClassicLinkageParity, WardAndCentroidEqualCpuOnRandomData) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    struct Shape {
        std::size_t n, d;
    };
    const Shape shapes[] = {{2, 1}, {3, 2}, {40, 3}, {700, 2}, {1500, 5}, {2500, 14}};
    for (LinkageMethod method : {LinkageMethod::Ward, LinkageMethod::Centroid}) {
        for (const Shape& s : shapes) {
            SCOPED_TRACE(linkageMethodName(method) + ", seed " + std::to_string(seed) + ", n " + std::to_string(s.n) +
                         ", d " + std::to_string(s.d));
            const std::vector<float> x = uniformPoints(s.n, s.d, seed + s.n * 31 + s.d);
            expectSameLinkage(classicLinkageCuda(x.data(), s.n, s.d, method),
                              classicLinkageCpu(x.data(), s.n, s.d, method));
        }
    }
}

TEST(ClassicLinkageParity, WardAndCentroidEqualCpuOnClusteredData) {
    CL_REQUIRE_GPU();
    SyntheticOptions o;
    o.n = 3000;
    o.d = 14;
    o.clusters = 10;
    o.seed = test::testSeed() + 1;
    std::cout << "seed " << o.seed << "\n";
    const Dataset data = makeCytometryLike(o);
    for (LinkageMethod method : {LinkageMethod::Ward, LinkageMethod::Centroid}) {
        SCOPED_TRACE(linkageMethodName(method));
        const Linkage gpu = classicLinkageCuda(data.values.data(), data.n, data.d, method);
        EXPECT_NO_THROW(gpu.validate("gpu " + linkageMethodName(method)));
        expectSameLinkage(gpu, classicLinkageCpu(data.values.data(), data.n, data.d, method));
    }
}

TEST(ClassicLinkageParity, WardHeightIsTheCentroidFormula) {
    CL_REQUIRE_GPU();
    // Two pairs far apart: the last merge joins {0,1} (mean 0.5) and {2,3} (mean 10.5) in 1-D:
    // sqrt(2·2·2/4)·10 = sqrt(2)·10.
    const std::vector<float> x = {0.0f, 1.0f, 10.0f, 11.0f};
    const Linkage ward = classicLinkageCuda(x.data(), 4, 1, LinkageMethod::Ward);
    ASSERT_EQ(ward.merges.size(), 3u);
    EXPECT_NEAR(ward.merges[2].height, std::sqrt(2.0) * 10.0, 1e-12);
    const Linkage centroid = classicLinkageCuda(x.data(), 4, 1, LinkageMethod::Centroid);
    EXPECT_NEAR(centroid.merges[2].height, 10.0, 1e-12);
}

TEST(ClassicLinkageParity, OtherMethodsAreRefusedAndCancelIsHonoured) {
    CL_REQUIRE_GPU();
    const std::vector<float> x = uniformPoints(600, 3, 5);
    for (LinkageMethod method :
         {LinkageMethod::Complete, LinkageMethod::Average, LinkageMethod::Weighted, LinkageMethod::Median}) {
        try {
            classicLinkageCuda(x.data(), 600, 3, method);
            ADD_FAILURE() << linkageMethodName(method) << " was accepted";
        } catch (const InvalidInput& e) {
            EXPECT_NE(std::string(e.what()).find("use --backend cpu"), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(classicLinkageCuda(x.data(), 1, 3, LinkageMethod::Ward), InvalidInput);
    JobControl control;
    control.cancel();
    EXPECT_THROW(classicLinkageCuda(x.data(), 600, 3, LinkageMethod::Ward, &control), Cancelled);
    EXPECT_THROW(classicLinkageCuda(x.data(), 600, 3, LinkageMethod::Centroid, &control), Cancelled);
}

#else

TEST(ClassicLinkageParity, NeedsABuildWithCuda) {
    GTEST_SKIP() << "this build has no CUDA support";
}

#endif
