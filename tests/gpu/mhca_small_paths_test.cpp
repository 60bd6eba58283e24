// Every mechanism of the CUDA MHCA on one small input, each against mhcaCpu: the sizes are chosen so
// that compute-sanitizer (memcheck, initcheck, synccheck, racecheck) finishes over both paths — the
// persistent CMD kernel with its growth kernel, speculation and elided barrier, the per-stage kernels,
// FMD with one and with many rows per pass, and a-priori groups — in seconds (scripts/gpu-check.sh).

#include <gtest/gtest.h>

#include <string>

#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/hca/mhca_cuda_policy.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "mhca_gpu_support.hpp"

using namespace clusterlens;
using namespace clusterlens::test::mhcagpu;

namespace {

/// 96 points in 6 groups of dimension 4: the pure Mahalanobis phase starts at threshold 0.2.
Points smallMixture() {
    return gaussianMixture(96, 4, 6, 12.0, test::testSeed() + 31);
}

}  // namespace

TEST(MhcaCudaSmallPaths, PersistentAndPerStageCmdEqualCpu) {
    CL_REQUIRE_GPU();
    const Points p = smallMixture();
    for (SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::EuclidMahal}) {
        const MhcaOptions o = makeOptions(MhcaVariant::Centroid, mode, false, 0.2);
        expectParity(p, o, "persistent " + describe(o));
        expectParity(p, withPolicy(o, p, [](MhcaCudaPolicy& policy) { policy.persistentCmd = false; }),
                     "per-stage " + describe(o));
        expectParity(p,
                     withPolicy(o, p,
                                [](MhcaCudaPolicy& policy) {
                                    policy.elideBarrierS3 = false;
                                    policy.growthKernel = false;
                                    policy.speculate = false;
                                }),
                     "persistent with barrier S3 " + describe(o));
        expectParity(p, withPolicy(o, p, [](MhcaCudaPolicy& policy) { policy.tiledStart = false; }),
                     "rescan start " + describe(o));
    }
}

TEST(MhcaCudaSmallPaths, FmdWithOneAndManyRowsPerPassEqualsCpu) {
    CL_REQUIRE_GPU();
    const Points p = smallMixture();
    const MhcaOptions o = makeOptions(MhcaVariant::Full, SubthresholdMode::Mahal, false, 0.2);
    expectParity(p, o, describe(o));
    expectParity(p, withPolicy(o, p, [](MhcaCudaPolicy& policy) { policy.fmdRowsPerPass = 1; }),
                 "one row per pass " + describe(o));
}

TEST(MhcaCudaSmallPaths, AprioriGroupsEqualCpu) {
    CL_REQUIRE_GPU();
    const Points p = smallMixture();
    for (MhcaVariant variant : kVariants) {
        MhcaOptions o = makeOptions(variant, SubthresholdMode::Mahal, false);
        o.apriori = p.population;
        o.apriori[3] = 0;   // an ungrouped point
        o.apriori[5] = 99;  // a group of one point
        expectParity(p, o, "apriori " + describe(o));
    }
}

#endif
