// GPU density peaks against densityPeaksCpu: the same dc (exact or sampled), identical cutoff
// densities, links and order; Gaussian densities within 1e-5 relative and the same links wherever
// the density order agrees. Random tests print their seed.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/synthetic.hpp"
#include "test_points.hpp"
#include "require_gpu.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/density_peaks_cuda.hpp"
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA

namespace {

using Points = test::TestPoints;
using test::latticePoints;
using test::uniformPoints;

Points cytometry(std::size_t n, std::size_t d, std::uint64_t seed) {
    return test::cytometryPoints(n, d, seed);
}

void expectIdentical(const Points& p, const DensityPeaksOptions& options, const std::string& what) {
    const DensityPeaksResult cpu = densityPeaksCpu(p.x.data(), p.n, p.d, options);
    const DensityPeaksResult gpu = densityPeaksCuda(p.x.data(), p.n, p.d, options);
    ASSERT_EQ(gpu.dc.value, cpu.dc.value) << what;
    EXPECT_EQ(gpu.dc.method, cpu.dc.method) << what;
    std::size_t differences = 0;
    for (std::size_t i = 0; i < p.n; ++i)
        if (gpu.rho[i] != cpu.rho[i] || gpu.delta[i] != cpu.delta[i] || gpu.nearestHigher[i] != cpu.nearestHigher[i] ||
            gpu.densityOrder[i] != cpu.densityOrder[i]) {
            if (++differences <= 5)
                ADD_FAILURE() << what << ": point " << i << " rho " << gpu.rho[i] << " vs " << cpu.rho[i] << ", delta "
                              << gpu.delta[i] << " vs " << cpu.delta[i] << ", link " << gpu.nearestHigher[i] << " vs "
                              << cpu.nearestHigher[i] << ", order " << gpu.densityOrder[i] << " vs "
                              << cpu.densityOrder[i];
        }
    EXPECT_EQ(differences, 0u) << what;
    std::cout << "[dpc parity] " << what << ": n=" << p.n << " d=" << p.d << " dc=" << gpu.dc.value
              << " identical; gpu " << gpu.secondsDc << " + " << gpu.secondsRho << " + " << gpu.secondsDelta << " s\n";
}

void expectClose(const Points& p, const DensityPeaksOptions& options, const std::string& what) {
    const DensityPeaksResult cpu = densityPeaksCpu(p.x.data(), p.n, p.d, options);
    const DensityPeaksResult gpu = densityPeaksCuda(p.x.data(), p.n, p.d, options);
    ASSERT_EQ(gpu.dc.value, cpu.dc.value) << what;
    double worst = 0.0;
    double worstRho = 0.0;
    std::size_t linkDifferences = 0;
    for (std::size_t i = 0; i < p.n; ++i) {
        const double relative = std::abs(gpu.rho[i] - cpu.rho[i]) / std::max(cpu.rho[i], 1e-300);
        if (relative > worst) {
            worst = relative;
            worstRho = cpu.rho[i];
        }
        if (gpu.nearestHigher[i] != cpu.nearestHigher[i]) {
            ++linkDifferences;
            continue;
        }
        EXPECT_EQ(gpu.delta[i], cpu.delta[i]) << what << ": point " << i;
    }
    EXPECT_LE(worst, 1e-5) << what;
    // A link can differ only where float rounding swapped two nearly equal densities.
    EXPECT_LE(linkDifferences, p.n / 1000 + 2) << what;
    std::cout << "[dpc parity] " << what << ": n=" << p.n << " d=" << p.d << " max rho rel. difference " << worst
              << " (at rho " << worstRho << "), links differing " << linkDifferences << "; gpu " << gpu.secondsDc
              << " + " << gpu.secondsRho << " + " << gpu.secondsDelta << " s\n";
}

DensityPeaksOptions cutoff() {
    DensityPeaksOptions o;
    o.kernel = DensityKernel::Cutoff;
    return o;
}

}  // namespace

TEST(DensityPeaksParity, CutoffIsIdenticalToCpu) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    expectIdentical(uniformPoints(5000, 3, seed), cutoff(), "uniform");
    expectIdentical(cytometry(20000, 14, seed), cutoff(), "cytometry-like");
    expectIdentical(latticePoints(3001, 2, 12, seed + 1), cutoff(), "lattice with ties");
    expectIdentical(cytometry(3000, 57, seed + 2), cutoff(), "57 features (two feature chunks)");
    expectIdentical(uniformPoints(1000, 1, seed + 3), cutoff(), "one feature");
    DensityPeaksOptions user = cutoff();
    user.dc = 1.0;
    expectIdentical(latticePoints(2000, 3, 6, seed + 4), user, "lattice, dc on a lattice distance");
    for (const std::size_t n : {2u, 3u, 129u, 257u}) expectIdentical(uniformPoints(n, 5, seed + n), cutoff(), "tiny");
}

TEST(DensityPeaksParity, LargerCutoffRunUsesManyUnitsAndStaysIdentical) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    expectIdentical(cytometry(40000, 4, seed), cutoff(), "cytometry-like 40K");
}

TEST(DensityPeaksParity, GaussianAgreesWithCpu) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    const DensityPeaksOptions gaussian;
    expectClose(uniformPoints(5000, 3, seed), gaussian, "uniform");
    expectClose(cytometry(20000, 14, seed), gaussian, "cytometry-like");
    expectClose(cytometry(3000, 57, seed + 2), gaussian, "57 features");
    DensityPeaksOptions sampled;
    sampled.exactPercentile = false;
    sampled.sampleSize = 50000;
    expectClose(cytometry(20000, 14, seed + 5), sampled, "sampled dc");
}

TEST(DensityPeaksParity, SparseGaussianRowsAreRecountedExactly) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    // Rows with rho < 1 are recounted from exact distances. Here every term is about e^-10.9, which the
    // float distances of 65536 features would miss by percents; a launch holds 128 rows of 65536
    // features, so the 300 rows take three launches.
    DensityPeaksOptions wide;
    wide.dc = std::sqrt(1e5);
    expectClose(uniformPoints(300, 65536, seed), wide, "65536 features, every row recounted");
    DensityPeaksOptions small;
    small.dc = 0.5;
    expectClose(uniformPoints(5000, 3, seed + 1), small, "uniform, dc 0.5: many rows recounted");
}

TEST(DensityPeaksParity, GaussianIsReproducibleRunToRun) {
    CL_REQUIRE_GPU();
    const Points p = cytometry(30000, 14, test::testSeed());
    const DensityPeaksResult a = densityPeaksCuda(p.x.data(), p.n, p.d, DensityPeaksOptions{});
    const DensityPeaksResult b = densityPeaksCuda(p.x.data(), p.n, p.d, DensityPeaksOptions{});
    EXPECT_EQ(a.rho, b.rho);
    EXPECT_EQ(a.delta, b.delta);
    EXPECT_EQ(a.nearestHigher, b.nearestHigher);
    EXPECT_EQ(a.densityOrder, b.densityOrder);
}

// The halo on the GPU takes the same border pairs as the CPU: identical labels, also on a lattice
// where many pairs sit exactly at dc, and with several clusters per tile.
TEST(DensityPeaksParity, HaloIsIdenticalToCpu) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    struct Case {
        Points p;
        std::size_t peaks;
        const char* what;
    };
    const Case cases[] = {{cytometry(20000, 14, seed), 8, "cytometry-like 20K x 14, 8 peaks"},
                          {latticePoints(3001, 2, 12, seed + 1), 5, "lattice with ties"},
                          {cytometry(3000, 57, seed + 2), 30, "57 features, 30 peaks"},
                          {uniformPoints(257, 3, seed + 3), 3, "tiny"}};
    for (const Case& c : cases) {
        const DensityPeaksResult r = densityPeaksCpu(c.p.x.data(), c.p.n, c.p.d, cutoff());
        std::vector<std::int32_t> labels = assignFromPeaks(r, peaksTopK(r, c.peaks));
        labels[0] = -1;  // a point already marked noise stays noise
        const std::vector<std::int32_t> cpu = applyHaloCpu(c.p.x.data(), c.p.n, c.p.d, r, labels, r.dc.value);
        const std::vector<std::int32_t> gpu = applyHaloCuda(c.p.x.data(), c.p.n, c.p.d, r, labels, r.dc.value);
        EXPECT_EQ(gpu, cpu) << c.what;
        const auto halo = std::count(cpu.begin(), cpu.end(), -1);
        EXPECT_GE(halo, 1) << c.what << ": no halo at all proves nothing";
        std::cout << "[dpc halo parity] " << c.what << ": " << halo << " halo points, identical\n";
    }
    JobControl control;
    control.cancel();
    const Points p = cytometry(2000, 5, seed);
    const DensityPeaksResult r = densityPeaksCpu(p.x.data(), p.n, p.d, cutoff());
    const std::vector<std::int32_t> labels = assignFromPeaks(r, peaksTopK(r, 3));
    EXPECT_THROW(applyHaloCuda(p.x.data(), p.n, p.d, r, labels, r.dc.value, &control), Cancelled);
    EXPECT_THROW(applyHaloCuda(p.x.data(), p.n, p.d, r, labels, -1.0), InvalidInput);
}

TEST(DensityPeaksParity, GpuChecksInputAndCancel) {
    CL_REQUIRE_GPU();
    const Points p = uniformPoints(1000, 3, 1);
    DensityPeaksOptions o;
    o.dc = -1.0;
    EXPECT_THROW(densityPeaksCuda(p.x.data(), p.n, p.d, o), InvalidInput);
    JobControl control;
    control.cancel();
    EXPECT_THROW(densityPeaksCuda(p.x.data(), p.n, p.d, DensityPeaksOptions{}, &control), Cancelled);
}

#else

TEST(DensityPeaksParity, SkippedWithoutCuda) {
    GTEST_SKIP() << "built without CUDA";
}

#endif
