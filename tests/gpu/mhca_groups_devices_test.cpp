// MHCA's a-priori groups spread over several devices (MhcaOptions::cudaDevices) against one device:
// the same merges, bit for bit. On a one-GPU machine the shares run side by side on that device (an
// engine and a host thread each, as on several devices); with two or more devices they also run on
// distinct devices. Random tests print their seed.

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "require_gpu.hpp"
#include "test_support.hpp"
#include "unknown_device.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "mhca_gpu_support.hpp"

using namespace clusterlens;
using namespace clusterlens::test::mhcagpu;

namespace {

/// Groups of unequal sizes: populations 1-3 as one group, the others alone; some points ungrouped,
/// some groups of 2, one group of one point.
MhcaOptions unequalGroups(const Points& p) {
    MhcaOptions o = makeOptions(MhcaVariant::Centroid, SubthresholdMode::Mahal, false);
    o.apriori = p.population;
    for (std::size_t i = 0; i < p.n; ++i) {
        if (o.apriori[i] <= 3) o.apriori[i] = 1;
        if (i % 41 == 0) o.apriori[i] = 0;
        if (i % 97 == 0) o.apriori[i] = 500 + static_cast<int>(i);
        if (i % 97 == 1) o.apriori[i] = 500 + static_cast<int>(i - 1);
    }
    o.apriori[7] = 9999;
    return o;
}

void expectSameAsOneDevice(const Points& p, MhcaOptions o, const std::vector<int>& devices, const std::string& what) {
    const Linkage one = mhcaCuda(p.x.data(), p.n, p.d, o);
    o.cudaDevices = devices;
    const Linkage spread = mhcaCuda(p.x.data(), p.n, p.d, o);
    expectIdentical(spread, one, what);
    for (std::size_t m = 0; m < one.merges.size(); ++m) ASSERT_EQ(spread.merges[m].size, one.merges[m].size) << what;
    std::cout << "[ mhca gpu ] " << what << ": " << one.merges.size() << " merges on " << devices.size()
              << " shares, identical\n";
}

}  // namespace

TEST(MhcaGroupsOnDevices, SharesOnOneDeviceGiveItsMerges) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 41;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    for (std::size_t d : {5u, 20u}) {
        const Points p = gaussianMixture(3000, d, 12, 14.0, seed + d);
        const std::string what = "d " + std::to_string(d) + " seed " + std::to_string(seed + d);
        expectSameAsOneDevice(p, unequalGroups(p), {0, 0}, what + ", 2 shares");
        expectSameAsOneDevice(p, unequalGroups(p), {0, 0, 0}, what + ", 3 shares");
    }
    // More shares than groups: some run none. FMD clusters its groups in the merge loop, on the first.
    const Points q = gaussianMixture(500, 4, 2, 14.0, seed + 1);
    MhcaOptions two = makeOptions(MhcaVariant::Centroid, SubthresholdMode::Mahal, false);
    two.apriori = q.population;
    expectSameAsOneDevice(q, two, {0, 0, 0, 0}, "2 groups on 4 shares");
    two.variant = MhcaVariant::Full;
    expectSameAsOneDevice(q, two, {0, 0}, "FMD, 2 groups");
}

TEST(MhcaGroupsOnDevices, SeveralDevicesGiveOneDevicesMerges) {
    CL_REQUIRE_GPU();
    const int devices = cudaDeviceCount();
    if (devices < 2) GTEST_SKIP() << "one CUDA device on this machine; needs two or more";
    const std::uint64_t seed = test::testSeed() + 43;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    const Points p = gaussianMixture(6000, 14, 24, 14.0, seed);
    expectSameAsOneDevice(p, unequalGroups(p), parseGpus("all"), "every device");
    expectSameAsOneDevice(p, unequalGroups(p), {1, 0}, "second device first");
}

TEST(MhcaGroupsOnDevices, UnknownDeviceIsRefusedByName) {
    CL_REQUIRE_GPU();
    const Points p = gaussianMixture(200, 3, 4, 14.0, 7);
    MhcaOptions o = unequalGroups(p);
    o.cudaDevices = test::withUnknownDevice();
    test::expectUnknownDeviceRefused([&] { (void)mhcaCuda(p.x.data(), p.n, p.d, o); });
}

#else

TEST(MhcaGroupsOnDevices, SkippedWithoutCuda) {
    GTEST_SKIP() << "built without CUDA";
}

#endif
