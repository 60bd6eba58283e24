// GPU k-means spread over several devices (KMeansOptions::cudaDevices) against one device: the same
// labels, centroids, inertia and inertia history, bit for bit, for every assignment path. On a one-GPU
// machine the parts lie side by side on that device (each with its own buffers, as on several); with
// two or more devices they also run on distinct devices. Random tests print their seed.

#include <gtest/gtest.h>

#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/errors.hpp"
#include "require_gpu.hpp"
#include "test_points.hpp"
#include "test_support.hpp"
#include "unknown_device.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/kmeans_cuda.hpp"
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA

namespace {

using Points = test::TestPoints;

/// n points on `distinct` spots only, so that k above `distinct` leaves clusters empty for the refill.
Points fewSpots(std::size_t n, std::size_t d, std::size_t distinct, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<float> spots(distinct * d);
    for (float& v : spots) v = static_cast<float>(rng() % 1000) / 10.0f;
    Points p{n, d, std::vector<float>(n * d)};
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t s = rng() % distinct;
        for (std::size_t j = 0; j < d; ++j) p.x[i * d + j] = spots[s * d + j];
    }
    return p;
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

KMeansOptions withK(std::size_t k, std::uint64_t seed) {
    KMeansOptions o;
    o.k = k;
    o.seed = seed;
    return o;
}

/// The run on `devices` equals the current device's alone, bit for bit; prints what it compared.
void expectSameAsOneDevice(const Points& p, KMeansOptions options, const std::vector<int>& devices,
                           KMeansAssignment path, const std::string& what) {
    const KMeansResult one = kmeansCuda(p.x.data(), p.n, p.d, options, nullptr, path);
    options.cudaDevices = devices;
    const KMeansResult spread = kmeansCuda(p.x.data(), p.n, p.d, options, nullptr, path);
    EXPECT_EQ(spread.labels, one.labels) << what;
    EXPECT_TRUE(sameBits(spread.centroids, one.centroids)) << what << ": centroids differ";
    EXPECT_TRUE(sameBits(spread.inertiaHistory, one.inertiaHistory)) << what << ": inertia history differs";
    EXPECT_EQ(spread.iterations, one.iterations) << what;
    EXPECT_EQ(spread.converged, one.converged) << what;
    EXPECT_EQ(spread.emptyClusters, one.emptyClusters) << what;
    std::cout << "[kmeans devices] " << what << ": n=" << p.n << " d=" << p.d << " k=" << options.k << " on "
              << devices.size() << " parts, " << one.iterations << " iterations, inertia " << one.inertia
              << ": identical\n";
}

/// The assignment paths this device can run, with their names.
std::vector<std::pair<KMeansAssignment, std::string>> paths() {
    std::vector<std::pair<KMeansAssignment, std::string>> out{{KMeansAssignment::Kernel, "kernel"},
                                                              {KMeansAssignment::MatrixProduct, "matrix product"}};
    const Points probe = test::cytometryPoints(300, 4, 1);
    try {
        (void)kmeansCuda(probe.x.data(), probe.n, probe.d, withK(2, 1), nullptr, KMeansAssignment::TensorTiles);
        out.emplace_back(KMeansAssignment::TensorTiles, "tensor tiles");
    } catch (const InvalidInput&) {
        std::cout << "[kmeans devices] no FP64 tensor cores: the tiles are not compared\n";
    }
    return out;
}

}  // namespace

TEST(KMeansDevices, PartsOnOneDeviceGiveItsResult) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    for (const auto& [path, name] : paths()) {
        // 20,000 points: 79 blocks of 256 (the last one short) over 2 and 3 parts.
        expectSameAsOneDevice(test::cytometryPoints(20000, 14, seed), withK(64, seed), {0, 0}, path,
                              name + ", 2 parts");
        expectSameAsOneDevice(test::cytometryPoints(20000, 14, seed), withK(64, seed), {0, 0, 0}, path,
                              name + ", 3 parts");
        expectSameAsOneDevice(test::cytometryPoints(9000, 39, seed + 1), withK(130, seed), {0, 0, 0}, path,
                              name + ", 39 features");
        // 600 points are 3 blocks: of 5 devices named, 3 get points.
        expectSameAsOneDevice(test::cytometryPoints(600, 5, seed + 2), withK(7, seed), {0, 0, 0, 0, 0}, path,
                              name + ", more parts than blocks");
        // Clusters left empty are refilled from the labels and distances every part holds.
        expectSameAsOneDevice(fewSpots(3000, 3, 10, seed + 3), withK(16, seed), {0, 0, 0}, path,
                              name + ", empty clusters refilled");
    }
}

TEST(KMeansDevices, SeveralDevicesGiveOneDevicesResult) {
    CL_REQUIRE_GPU();
    if (cudaDeviceCount() < 2) GTEST_SKIP() << "one CUDA device on this machine; needs two or more";
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    const std::vector<int> all = parseGpus("all");
    for (const auto& [path, name] : paths()) {
        expectSameAsOneDevice(test::cytometryPoints(50000, 14, seed), withK(100, seed), all, path,
                              name + ", every device");
        expectSameAsOneDevice(fewSpots(5000, 4, 12, seed + 1), withK(20, seed), all, path,
                              name + ", every device, empty clusters refilled");
    }
    expectSameAsOneDevice(test::cytometryPoints(30000, 5, seed + 2), withK(20, seed), {1, 0}, KMeansAssignment::Auto,
                          "second device first");
}

TEST(KMeansDevices, UnknownDeviceIsRefusedByName) {
    CL_REQUIRE_GPU();
    const Points p = test::cytometryPoints(500, 3, 9);
    KMeansOptions options = withK(3, 1);
    options.cudaDevices = test::withUnknownDevice();
    test::expectUnknownDeviceRefused([&] { kmeansCuda(p.x.data(), p.n, p.d, options); });
}

#endif  // CLUSTERLENS_HAVE_CUDA
