// The GPU MHCA engine's speed mechanisms change no merge: each switched off or forced through an
// injected tuning policy (hca/mhca_cuda_policy.hpp: the per-stage kernels instead of the persistent
// one, the prologues, the streaming's forms, speculated and growth shapes, the rows updated without
// barrier S3, FMD's steps finished by the host) gives the same linkage, bit for bit or as the CPU
// reference.

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <string>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/hca/mhca_cuda_policy.hpp"
#include "clusterlens/hca/mhca_probe.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "mhca_gpu_support.hpp"

using namespace clusterlens;
using namespace clusterlens::test::mhcagpu;

TEST(MhcaCudaParity, PerStageKernelsEqualCpuToo) {
    CL_REQUIRE_GPU();
    // CMD runs as one persistent kernel where the device allows it; the per-stage kernels stay the
    // fallback (d > 16, no cooperative launch) and are forced here.
    const std::uint64_t seed = test::testSeed() + 29;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    const Points p = gaussianMixture(2500, 5, 8, 20.0, seed);
    for (SubthresholdMode mode : kModes)
        expectParity(p,
                     withPolicy(makeOptions(MhcaVariant::Centroid, mode, false, 0.2), p,
                                [](MhcaCudaPolicy& policy) { policy.persistentCmd = false; }),
                     "per-stage seed " + std::to_string(seed));
}

TEST(MhcaCudaParity, PrologueByRescansEqualsCpuToo) {
    CL_REQUIRE_GPU();
    // The rows' first state comes from one tiled pass over the single points; the rescans of every
    // row (which CMD's persistent kernel still uses after a switch step, and FMD above d = 16) are
    // forced here. Ties (duplicate points) check that both orders of equal keys match the CPU's.
    const auto rescanStart = [](MhcaCudaPolicy& policy) { policy.tiledStart = false; };
    const std::uint64_t seed = test::testSeed() + 37;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    Points p = gaussianMixture(1500, 6, 8, 20.0, seed);
    for (std::size_t k = 0; k < p.d; ++k) p.x[10 * p.d + k] = p.x[700 * p.d + k];
    for (SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::Euclid})
        expectParity(p, withPolicy(makeOptions(MhcaVariant::Centroid, mode, false), p, rescanStart),
                     "kernel prologue seed " + std::to_string(seed));
    const Points small = gaussianMixture(500, 5, 6, 15.0, seed + 1);
    expectParity(small, withPolicy(makeOptions(MhcaVariant::Full, SubthresholdMode::Mahal, false), small, rescanStart),
                 "rescan prologue seed " + std::to_string(seed + 1));
}

TEST(MhcaCudaParity, PairsPrologueEqualsTwoPasses) {
    CL_REQUIRE_GPU();
    // CMD's start takes maxDistX and every row's first state from one pass over the pairs, keeping
    // each row's nearest by q (mhca_singleton_pairs_kernels.cuh). MhcaSingletonStart::TwoPasses runs
    // the pass for maxDistX and the tiled pass by keys instead; PairsPassRedoAll does every row again
    // with the tiled kernel (the path of rows whose keys tie). Duplicate points tie. The three runs must agree
    // bit for bit (maxDistX is in every height), and at d = 5 equal the CPU. d = 5 and 14: both kernel
    // instances; 2970 points: an odd number of row tiles (the middle one is a block's only tile), the
    // last one partial. (At d = 14, 3000 points of this mixture gave a merge with a cluster of 257
    // points, beyond the member-list cap of 256, whose height was 3e-7 off the CPU's with either start,
    // the same pairs: the scatter of such a cluster is updated pairwise, which rounds otherwise than
    // the CPU's member sums. EqualsCpuAtCytometryDimensionWithCompaction checks d = 14 against the CPU.)
    const std::uint64_t seed = test::testSeed() + 59;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    for (const std::size_t d : {std::size_t{5}, std::size_t{14}}) {
        Points p = gaussianMixture(2970, d, 8, 20.0, seed + d);
        using Copy = std::pair<std::size_t, std::size_t>;
        for (const auto& [to, from] : {Copy{10, 700}, Copy{11, 12}, Copy{2969, 0}})
            for (std::size_t k = 0; k < d; ++k) p.x[to * d + k] = p.x[from * d + k];
        const MhcaOptions options = makeOptions(MhcaVariant::Centroid, SubthresholdMode::Mahal, false);
        const std::string what = "pairs prologue d " + std::to_string(d) + " seed " + std::to_string(seed + d);
        auto start = [&](MhcaSingletonStart how) {
            const MhcaOptions o = withPolicy(options, p, [how](MhcaCudaPolicy& policy) { policy.cmdStart = how; });
            return mhcaCuda(p.x.data(), p.n, p.d, o);
        };
        const Linkage byPairs = start(MhcaSingletonStart::PairsPass);
        const Linkage twoPasses = start(MhcaSingletonStart::TwoPasses);
        const Linkage redone = start(MhcaSingletonStart::PairsPassRedoAll);
        expectIdentical(byPairs, twoPasses, what);
        expectIdentical(redone, twoPasses, what + " (every row done again)");
        if (d == 5) expectParity(p, options, what);
    }
}

TEST(MhcaCudaParity, ExactDimensionStreamingEqualsPadded) {
    CL_REQUIRE_GPU();
    // While the metrics fit in L2 the persistent CMD kernel streams the other side with a function for
    // the exact d (streamedSideFormExact); MhcaStreamedLoads::EvictFirst forces the padded form of the
    // kernel instance (MAXD 16 here, and 8 at d = 7), whose extra rows add exact zeros. Both runs must
    // agree bit for bit.
    const std::uint64_t seed = test::testSeed() + 53;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    for (const std::size_t d : {std::size_t{7}, std::size_t{11}, std::size_t{14}}) {
        const Points p = gaussianMixture(4000, d, 12, 25.0, seed + d);
        for (const SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::Mahal0}) {
            const MhcaOptions options = makeOptions(MhcaVariant::Centroid, mode, false);
            auto loads = [&](MhcaStreamedLoads how) {
                const MhcaOptions o =
                    withPolicy(options, p, [how](MhcaCudaPolicy& policy) { policy.streamedLoads = how; });
                return mhcaCuda(p.x.data(), p.n, p.d, o);
            };
            const Linkage exact = loads(MhcaStreamedLoads::Plain);
            const Linkage padded = loads(MhcaStreamedLoads::EvictFirst);
            EXPECT_NO_THROW(exact.validate("exact-dimension run"));
            expectIdentical(exact, padded, "d " + std::to_string(d) + " " + describe(options));
        }
    }
}

TEST(MhcaCudaParity, SpeculatedShapesChangeNoMerge) {
    CL_REQUIRE_GPU();
    // The persistent CMD kernel's last block shapes the pair likely to merge next, and the others take
    // that shape when the plan names exactly that pair (mhca_persistent_speculation.cuh); 4000 points
    // make 15 blocks, so it runs. With it off every block shapes every merge itself. Both runs must
    // agree bit for bit, in the kernel's instances for d <= 8 and d <= 16. (Not against the CPU here:
    // clusters beyond the member-list cap take the pairwise scatter update, whose heights may differ
    // from the CPU's in the 8th digit; at d = 14 this data reaches one.)
    const std::uint64_t seed = test::testSeed() + 43;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    for (const std::size_t d : {std::size_t{7}, std::size_t{14}}) {
        const Points p = gaussianMixture(4000, d, 12, 25.0, seed + d);
        const MhcaOptions options = makeOptions(MhcaVariant::Centroid, SubthresholdMode::Mahal, false);
        const Linkage speculated = mhcaCuda(
            p.x.data(), p.n, p.d, withPolicy(options, p, [](MhcaCudaPolicy& policy) { policy.speculate = true; }));
        const Linkage plain = mhcaCuda(
            p.x.data(), p.n, p.d, withPolicy(options, p, [](MhcaCudaPolicy& policy) { policy.speculate = false; }));
        EXPECT_NO_THROW(speculated.validate("speculated run"));
        expectIdentical(speculated, plain, "d " + std::to_string(d));
    }
}

TEST(MhcaCudaParity, GrowthRecordsChangeNoMerge) {
    CL_REQUIRE_GPU();
    // The growth kernel beside the persistent CMD kernel shapes the merged cluster with its nearest
    // partner, and the blocks take that shape when the plan names exactly that pair
    // (mhca_growth_kernel.cuh). With it off they shape those merges themselves. The runs must agree bit
    // for bit (d <= 8 and d <= 16 instances, the profiled instance too), and the profiled run must have
    // taken growth records.
    const std::uint64_t seed = test::testSeed() + 47;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    // The growth kernel runs only beside the version without barrier S3 (whose mechanisms the
    // production policy has on).
    for (const std::size_t d : {std::size_t{7}, std::size_t{14}}) {
        const Points p = gaussianMixture(4000, d, 12, 25.0, seed + d);
        for (const SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::Mahal0}) {
            const MhcaOptions options = makeOptions(MhcaVariant::Centroid, mode, false);
            const std::string what = "d " + std::to_string(d) + " " + describe(options);
            const MhcaOptions withGrowth =
                withPolicy(options, p, [](MhcaCudaPolicy& policy) { policy.growthKernel = true; });
            const Linkage plain =
                mhcaCuda(p.x.data(), p.n, p.d,
                         withPolicy(options, p, [](MhcaCudaPolicy& policy) { policy.growthKernel = false; }));
            const Linkage grown = mhcaCuda(p.x.data(), p.n, p.d, withGrowth);
            MhcaProbe probe;
            MhcaOptions probed = withGrowth;
            probed.probe = &probe;
            const Linkage profiled = mhcaCuda(p.x.data(), p.n, p.d, probed);
            EXPECT_NO_THROW(grown.validate("growth run"));
            expectIdentical(grown, plain, what);
            expectIdentical(profiled, plain, what + " (profiled)");
            EXPECT_EQ(probe.merges, p.n - 1) << what;
            EXPECT_NE(probe.report.find("[mhca profile] persistent kernel"), std::string::npos) << what;
            EXPECT_GT(probe.growthShapesTaken, 0u) << what << ": no growth record taken";
        }
    }
}

TEST(MhcaCudaParity, RowsUpdatedWithoutBarrierS3EqualCpu) {
    CL_REQUIRE_GPU();
    // The persistent CMD kernel updates the rows without waiting for every block's new distances, as
    // if no key shifted, and puts them back from its journal and updates them again when one did
    // (mhca_row_journal.cuh). This data shifts the keys 10 times (mahal) and 48 times (mahal0 at
    // threshold 0.05) on the CPU: the runs must equal the CPU's, the runs with barrier S3 bit for bit,
    // and the second update must have run (an untimed probe counts it).
    const std::uint64_t seed = 20261200;  // fixed: the shifts depend on the data
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    const Points p = gaussianMixture(3000, 5, 8, 20.0, seed);
    for (const auto& [mode, threshold] :
         {std::pair{SubthresholdMode::Mahal, 0.5}, std::pair{SubthresholdMode::Mahal0, 0.05}}) {
        const MhcaOptions options = makeOptions(MhcaVariant::Centroid, mode, false, threshold);
        const std::string what = "without S3 " + describe(options);
        MhcaProbe probe;
        probe.timeStages = false;  // the production kernel instance
        MhcaOptions counted = withPolicy(options, p, [](MhcaCudaPolicy& policy) { policy.elideBarrierS3 = true; });
        counted.probe = &probe;
        const Linkage elided = mhcaCuda(p.x.data(), p.n, p.d, counted);
        std::cout << "[ mhca gpu ] " << what << ": " << probe.mergesUpdatedAgain
                  << " merges updated again for a shift\n";
        EXPECT_GT(probe.mergesUpdatedAgain, 0u) << what;
        const Linkage barrier =
            mhcaCuda(p.x.data(), p.n, p.d,
                     withPolicy(options, p, [](MhcaCudaPolicy& policy) { policy.elideBarrierS3 = false; }));
        expectIdentical(elided, barrier, what);
        expectSameMerges(elided, mhcaCpu(p.x.data(), p.n, p.d, options), what);
    }
}

TEST(MhcaCudaParity, FmdStepsFinishedByTheHostEqualCpu) {
    CL_REQUIRE_GPU();
    // FMD rescans the marked rows in a pass the device sizes (up to a row cap); a step with more rows,
    // or the switch to pure Mahalanobis distances, halts the queued merges until the host finishes it.
    // A cap of one row makes most steps halt.
    const auto oneRow = [](MhcaCudaPolicy& policy) { policy.fmdRowsPerPass = 1; };
    const std::uint64_t seed = test::testSeed() + 31;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    const Points p = gaussianMixture(600, 4, 6, 15.0, seed);
    for (SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::EuclidMahal})
        expectParity(p, withPolicy(makeOptions(MhcaVariant::Full, mode, false, 0.2), p, oneRow),
                     "one row seed " + std::to_string(seed));
    const Points wide = gaussianMixture(500, 14, 6, 30.0, seed + 1);
    expectParity(wide, withPolicy(makeOptions(MhcaVariant::Full, SubthresholdMode::Mahal, false), wide, oneRow),
                 "one row d 14 seed " + std::to_string(seed + 1));
}

#endif  // CLUSTERLENS_HAVE_CUDA
