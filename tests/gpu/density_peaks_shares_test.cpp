// Density peaks spread over several devices (DensityPeaksOptions::cudaDevices) against one device:
// the same dc, rho, delta, links and order, bit for bit, for both kernels, the exact and the sampled
// dc. On a one-GPU machine the shares run side by side on that device (each on its own thread and
// stream, as on several devices); with two or more devices they also run on distinct devices.
// Random tests print their seed.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/synthetic.hpp"
#include "test_points.hpp"
#include "require_gpu.hpp"
#include "test_support.hpp"
#include "unknown_device.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/density_peaks_cuda.hpp"
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA

namespace {

using Points = test::TestPoints;

Points cytometry(std::size_t n, std::size_t d, std::uint64_t seed) {
    return test::cytometryPoints(n, d, seed);
}

Points lattice(std::size_t n, std::size_t d, int side, std::uint64_t seed) {
    return test::latticePoints(n, d, side, seed);
}

bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

/// The shares' result on `devices` equals the current device's alone, bit for bit.
void expectSameAsOneDevice(const Points& p, DensityPeaksOptions options, const std::vector<int>& devices,
                           const std::string& what) {
    const DensityPeaksResult one = densityPeaksCuda(p.x.data(), p.n, p.d, options);
    options.cudaDevices = devices;
    const DensityPeaksResult shared = densityPeaksCuda(p.x.data(), p.n, p.d, options);
    ASSERT_TRUE(sameBits(shared.dc.value, one.dc.value))
        << what << ": dc " << shared.dc.value << " vs " << one.dc.value;
    ASSERT_EQ(shared.rho.size(), p.n);
    std::size_t differences = 0;
    for (std::size_t i = 0; i < p.n; ++i)
        if (!sameBits(shared.rho[i], one.rho[i]) || !sameBits(shared.delta[i], one.delta[i]) ||
            !sameBits(shared.gamma[i], one.gamma[i]) || shared.nearestHigher[i] != one.nearestHigher[i] ||
            shared.densityOrder[i] != one.densityOrder[i]) {
            if (++differences <= 5)
                ADD_FAILURE() << what << ": point " << i << " rho " << shared.rho[i] << " vs " << one.rho[i]
                              << ", delta " << shared.delta[i] << " vs " << one.delta[i] << ", link "
                              << shared.nearestHigher[i] << " vs " << one.nearestHigher[i];
        }
    EXPECT_EQ(differences, 0u) << what;
    std::cout << "[dpc shares] " << what << ": n=" << p.n << " d=" << p.d << " on " << devices.size()
              << " shares, dc=" << one.dc.value << ": identical\n";
}

DensityPeaksOptions withKernel(DensityKernel kernel) {
    DensityPeaksOptions o;
    o.kernel = kernel;
    return o;
}

}  // namespace

TEST(DensityPeaksShares, SharesOnOneDeviceGiveItsResult) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    const std::vector<int> three{0, 0, 0};
    expectSameAsOneDevice(cytometry(20000, 14, seed), withKernel(DensityKernel::Cutoff), three, "cutoff, exact dc");
    expectSameAsOneDevice(cytometry(20000, 14, seed), withKernel(DensityKernel::Gaussian), three, "gaussian, exact dc");
    DensityPeaksOptions sampled = withKernel(DensityKernel::Gaussian);
    sampled.exactPercentile = false;
    expectSameAsOneDevice(cytometry(9000, 5, seed + 1), sampled, {0, 0}, "gaussian, sampled dc");
    DensityPeaksOptions given = withKernel(DensityKernel::Cutoff);
    given.dc = 2.0;
    expectSameAsOneDevice(lattice(5000, 3, 7, seed + 2), given, {0, 0, 0, 0}, "cutoff, lattice ties, dc given");
    // Most densities below 1: the shares split the list of rows recounted from exact distances.
    DensityPeaksOptions sparse = withKernel(DensityKernel::Gaussian);
    sparse.dc = 0.5;
    expectSameAsOneDevice(test::uniformPoints(4001, 3, seed + 5), sparse, three, "gaussian, sparse rows recounted");
    // Fewer row tiles than shares: some shares have no work at all.
    expectSameAsOneDevice(cytometry(200, 6, seed + 3), withKernel(DensityKernel::Cutoff), {0, 0, 0, 0, 0},
                          "200 points");
    expectSameAsOneDevice(cytometry(3, 2, seed + 4), withKernel(DensityKernel::Gaussian), {0, 0, 0}, "3 points");
}

TEST(DensityPeaksShares, SeveralDevicesGiveOneDevicesResult) {
    CL_REQUIRE_GPU();
    const int devices = cudaDeviceCount();
    if (devices < 2) GTEST_SKIP() << "one CUDA device on this machine; needs two or more";
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    const std::vector<int> all = parseGpus("all");
    expectSameAsOneDevice(cytometry(40000, 14, seed), withKernel(DensityKernel::Cutoff), all, "cutoff, every device");
    expectSameAsOneDevice(cytometry(40000, 14, seed), withKernel(DensityKernel::Gaussian), all,
                          "gaussian, every device");
    expectSameAsOneDevice(cytometry(30000, 5, seed + 1), withKernel(DensityKernel::Cutoff), {1, 0},
                          "second device first");
    DensityPeaksOptions sparse = withKernel(DensityKernel::Gaussian);
    sparse.dc = 0.5;
    expectSameAsOneDevice(test::uniformPoints(4001, 3, seed + 2), sparse, all, "gaussian, sparse rows recounted");
}

TEST(DensityPeaksShares, HaloOnSharesMarksTheSamePoints) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    std::ptrdiff_t halo = 0;
    for (const std::size_t peaks : {30u, 60u}) {
        const Points p = cytometry(20000, 14, seed + peaks);
        const DensityPeaksResult r = densityPeaksCuda(p.x.data(), p.n, p.d, withKernel(DensityKernel::Cutoff));
        const std::vector<std::int32_t> labels = assignFromPeaks(r, peaksTopK(r, peaks));
        const std::vector<std::int32_t> one = applyHaloCuda(p.x.data(), p.n, p.d, r, labels, r.dc.value);
        const std::vector<std::int32_t> shared =
            applyHaloCuda(p.x.data(), p.n, p.d, r, labels, r.dc.value, nullptr, {0, 0, 0});
        EXPECT_EQ(shared, one) << peaks << " peaks";
        const auto marked = std::count(one.begin(), one.end(), -1);
        halo += marked;
        std::cout << "[dpc shares] halo of " << peaks << " peaks on 3 shares: " << marked
                  << " halo points, identical\n";
    }
    EXPECT_GE(halo, 1) << "no halo at all proves nothing";
}

TEST(DensityPeaksShares, CancelStopsEveryShare) {
    CL_REQUIRE_GPU();
    const Points p = cytometry(60000, 14, 7);
    DensityPeaksOptions options;
    options.cudaDevices = {0, 0, 0};
    JobControl control;
    control.cancel();
    EXPECT_THROW(densityPeaksCuda(p.x.data(), p.n, p.d, options, &control), Cancelled);
    // The shares left nothing behind: a run after the cancel gives the one device's result.
    expectSameAsOneDevice(cytometry(5000, 4, 8), withKernel(DensityKernel::Cutoff), {0, 0}, "after a cancel");
}

TEST(DensityPeaksShares, UnknownDeviceIsRefusedByName) {
    CL_REQUIRE_GPU();
    const Points p = cytometry(500, 3, 9);
    DensityPeaksOptions options;
    options.cudaDevices = test::withUnknownDevice();
    test::expectUnknownDeviceRefused([&] { densityPeaksCuda(p.x.data(), p.n, p.d, options); });
}

#endif  // CLUSTERLENS_HAVE_CUDA

TEST(DensityPeaksShares, GpusOptionIsParsedAndChecked) {
    EXPECT_THROW(parseGpus("0"), InvalidInput);
    EXPECT_THROW(parseGpus("two"), InvalidInput);
    EXPECT_THROW(parseGpus("2x"), InvalidInput);
    EXPECT_THROW(parseGpus("-1"), InvalidInput);
    const int present = cudaDeviceCount();
    EXPECT_THROW(parseGpus(std::to_string(present + 1)), InvalidInput);
    if (present == 0) {
        EXPECT_THROW(parseGpus("all"), InvalidInput);
        return;
    }
    EXPECT_EQ(parseGpus("all").size(), static_cast<std::size_t>(present));
    EXPECT_EQ(parseGpus("1"), std::vector<int>{0});
}
