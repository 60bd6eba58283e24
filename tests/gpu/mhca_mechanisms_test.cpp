// The GPU MHCA engine's speed mechanisms change no merge: each switched off or forced through its
// environment variable (the per-stage kernels instead of the persistent one, the prologues, eager
// rescans, the streaming's forms, speculated and growth shapes, the rows updated without barrier S3,
// FMD's steps finished by the host) gives the same linkage, bit for bit or as the CPU reference.

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <string>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "mhca_gpu_support.hpp"

using namespace clusterlens;
using namespace clusterlens::test::mhcagpu;

TEST(MhcaCudaParity, PerStageKernelsEqualCpuToo) {
    CL_REQUIRE_GPU();
    // CMD runs as one persistent kernel where the device allows it; the per-stage kernels stay the
    // fallback (d > 16, no cooperative launch) and are forced here.
    const ScopedEnv perStage("CLUSTERLENS_MHCA_PERSISTENT", "0");
    const std::uint64_t seed = test::testSeed() + 29;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    const Points p = gaussianMixture(2500, 5, 8, 20.0, seed);
    for (SubthresholdMode mode : kModes)
        expectParity(p, makeOptions(MhcaVariant::Centroid, mode, false, 0.2), "per-stage seed " + std::to_string(seed));
}

TEST(MhcaCudaParity, PrologueByRescansEqualsCpuToo) {
    CL_REQUIRE_GPU();
    // The rows' first state comes from one tiled pass over the single points; the rescans of every
    // row (which CMD's persistent kernel still uses after a switch step, and FMD above d = 16) are
    // forced here. Ties (duplicate points) check that both orders of equal keys match the CPU's.
    const ScopedEnv kernelPrologue("CLUSTERLENS_MHCA_TILED_PROLOGUE", "0");
    const std::uint64_t seed = test::testSeed() + 37;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    Points p = gaussianMixture(1500, 6, 8, 20.0, seed);
    for (std::size_t k = 0; k < p.d; ++k) p.x[10 * p.d + k] = p.x[700 * p.d + k];
    for (SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::Euclid})
        expectParity(p, makeOptions(MhcaVariant::Centroid, mode, false), "kernel prologue seed " + std::to_string(seed));
    const Points small = gaussianMixture(500, 5, 6, 15.0, seed + 1);
    expectParity(small, makeOptions(MhcaVariant::Full, SubthresholdMode::Mahal, false),
                 "rescan prologue seed " + std::to_string(seed + 1));
}

TEST(MhcaCudaParity, PairsPrologueEqualsTwoPasses) {
    CL_REQUIRE_GPU();
    // CMD's start takes maxDistX and every row's first state from one pass over the pairs, keeping
    // each row's nearest by q (mhca_singleton_pairs_kernels.cuh). CLUSTERLENS_MHCA_PAIRS_PROLOGUE=0
    // runs the pass for maxDistX and the tiled pass by keys instead; =2 does every row again with the
    // tiled kernel (the path of rows whose keys tie). Duplicate points tie. The three runs must agree
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
        Linkage byPairs, twoPasses, redone;
        {
            const ScopedEnv on("CLUSTERLENS_MHCA_PAIRS_PROLOGUE", "1");
            byPairs = mhcaCuda(p.x.data(), p.n, p.d, options);
        }
        {
            const ScopedEnv off("CLUSTERLENS_MHCA_PAIRS_PROLOGUE", "0");
            twoPasses = mhcaCuda(p.x.data(), p.n, p.d, options);
        }
        {
            const ScopedEnv redo("CLUSTERLENS_MHCA_PAIRS_PROLOGUE", "2");
            redone = mhcaCuda(p.x.data(), p.n, p.d, options);
        }
        expectIdentical(byPairs, twoPasses, what);
        expectIdentical(redone, twoPasses, what + " (every row done again)");
        if (d == 5) expectParity(p, options, what);
    }
}

TEST(MhcaCudaParity, EagerRescansEqualCpuToo) {
    CL_REQUIRE_GPU();
    // The persistent CMD kernel leaves a stale row that its runners-up cannot answer lazy until its
    // bound could reach the closest pair (every other test takes that path); here such rows are
    // rescanned at the end of their merge instead. 3000 points: two launches and a compaction.
    const ScopedEnv eager("CLUSTERLENS_MHCA_LAZY_RESCANS", "0");
    const std::uint64_t seed = test::testSeed() + 41;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    Points p = gaussianMixture(3000, 5, 8, 20.0, seed);
    for (std::size_t k = 0; k < p.d; ++k) p.x[20 * p.d + k] = p.x[1900 * p.d + k];
    for (SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::Mahal0})
        expectParity(p, makeOptions(MhcaVariant::Centroid, mode, false), "eager rescans seed " + std::to_string(seed));
}

TEST(MhcaCudaParity, ExactDimensionStreamingEqualsPadded) {
    CL_REQUIRE_GPU();
    // While the metrics fit in L2 the persistent CMD kernel streams the other side with a function for
    // the exact d (streamedSideFormExact); CLUSTERLENS_MHCA_EVICT_FIRST=1 forces the padded form of the
    // kernel instance (MAXD 16 here, and 8 at d = 7), whose extra rows add exact zeros. Both runs must
    // agree bit for bit.
    const std::uint64_t seed = test::testSeed() + 53;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    for (const std::size_t d : {std::size_t{7}, std::size_t{11}, std::size_t{14}}) {
        const Points p = gaussianMixture(4000, d, 12, 25.0, seed + d);
        for (const SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::Mahal0}) {
            const MhcaOptions options = makeOptions(MhcaVariant::Centroid, mode, false);
            Linkage exact, padded;
            {
                const ScopedEnv plain("CLUSTERLENS_MHCA_EVICT_FIRST", "0");
                exact = mhcaCuda(p.x.data(), p.n, p.d, options);
            }
            {
                const ScopedEnv evict("CLUSTERLENS_MHCA_EVICT_FIRST", "1");
                padded = mhcaCuda(p.x.data(), p.n, p.d, options);
            }
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
        const Linkage speculated = mhcaCuda(p.x.data(), p.n, p.d, options);
        Linkage plain;
        {
            const ScopedEnv off("CLUSTERLENS_MHCA_SPECULATE", "0");
            plain = mhcaCuda(p.x.data(), p.n, p.d, options);
        }
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
    // The growth kernel runs only beside the version without barrier S3 (whatever the environment says).
    const ElidedS3Mechanisms mechanisms;
    for (const std::size_t d : {std::size_t{7}, std::size_t{14}}) {
        const Points p = gaussianMixture(4000, d, 12, 25.0, seed + d);
        for (const SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::Mahal0}) {
            const MhcaOptions options = makeOptions(MhcaVariant::Centroid, mode, false);
            const std::string what = "d " + std::to_string(d) + " " + describe(options);
            Linkage plain, grown, profiled;
            std::string log;
            {
                const ScopedEnv off("CLUSTERLENS_MHCA_GROWTH", "0");
                plain = mhcaCuda(p.x.data(), p.n, p.d, options);
            }
            {
                const ScopedEnv on("CLUSTERLENS_MHCA_GROWTH", "1");
                grown = mhcaCuda(p.x.data(), p.n, p.d, options);
                const ScopedEnv profile("CLUSTERLENS_MHCA_PROFILE", "1");
                testing::internal::CaptureStderr();
                profiled = mhcaCuda(p.x.data(), p.n, p.d, options);
                log = testing::internal::GetCapturedStderr();
            }
            EXPECT_NO_THROW(grown.validate("growth run"));
            expectIdentical(grown, plain, what);
            expectIdentical(profiled, plain, what + " (profiled)");
            const std::size_t at = log.find(" from the growth kernel");
            ASSERT_NE(at, std::string::npos) << what << ": no profile line";
            const std::size_t start = log.rfind(' ', at - 1) + 1;
            EXPECT_GT(std::stoull(log.substr(start, at - start)), 0ull) << what << ": no growth record taken";
        }
    }
}

TEST(MhcaCudaParity, RowsUpdatedWithoutBarrierS3EqualCpu) {
    CL_REQUIRE_GPU();
    // The persistent CMD kernel updates the rows without waiting for every block's new distances, as
    // if no key shifted, and puts them back from its journal and updates them again when one did
    // (mhca_row_journal.cuh). This data shifts the keys 10 times (mahal) and 48 times (mahal0 at
    // threshold 0.05) on the CPU: the runs must equal the CPU's, the runs with barrier S3 bit for bit,
    // and the second update must have run (CLUSTERLENS_MHCA_STATS counts it).
    const std::uint64_t seed = 20261200;  // fixed: the shifts depend on the data
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    const Points p = gaussianMixture(3000, 5, 8, 20.0, seed);
    const ScopedEnv stats("CLUSTERLENS_MHCA_STATS", "1");
    for (const auto& [mode, threshold] : {std::pair{SubthresholdMode::Mahal, 0.5}, std::pair{SubthresholdMode::Mahal0, 0.05}}) {
        const MhcaOptions options = makeOptions(MhcaVariant::Centroid, mode, false, threshold);
        const std::string what = "without S3 " + describe(options);
        std::string log;
        Linkage elided;
        {  // whatever the environment says
            const ElidedS3Mechanisms mechanisms;
            testing::internal::CaptureStderr();
            elided = mhcaCuda(p.x.data(), p.n, p.d, options);
            log = testing::internal::GetCapturedStderr();
        }
        const std::size_t at = log.find(" updated again for a shift");
        ASSERT_NE(at, std::string::npos) << what << ": no statistics line in\n" << log;
        const std::size_t from = log.rfind(", ", at);
        const long redone = std::atol(log.c_str() + from + 2);
        std::cout << "[ mhca gpu ] " << what << ": " << redone << " merges updated again for a shift\n";
        EXPECT_GT(redone, 0) << what;
        Linkage barrier;
        {
            const ScopedEnv off("CLUSTERLENS_MHCA_ELIDE_S3", "0");
            barrier = mhcaCuda(p.x.data(), p.n, p.d, options);
        }
        expectIdentical(elided, barrier, what);
        expectSameMerges(elided, mhcaCpu(p.x.data(), p.n, p.d, options), what);
    }
}

TEST(MhcaCudaParity, FmdStepsFinishedByTheHostEqualCpu) {
    CL_REQUIRE_GPU();
    // FMD rescans the marked rows in a pass the device sizes (up to a row cap); a step with more rows,
    // or the switch to pure Mahalanobis distances, halts the queued merges until the host finishes it.
    // A cap of one row makes most steps halt.
    const ScopedEnv oneRow("CLUSTERLENS_MHCA_FMD_ROWS", "1");
    const std::uint64_t seed = test::testSeed() + 31;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    const Points p = gaussianMixture(600, 4, 6, 15.0, seed);
    for (SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::EuclidMahal})
        expectParity(p, makeOptions(MhcaVariant::Full, mode, false, 0.2), "one row seed " + std::to_string(seed));
    const Points wide = gaussianMixture(500, 14, 6, 30.0, seed + 1);
    expectParity(wide, makeOptions(MhcaVariant::Full, SubthresholdMode::Mahal, false),
                 "one row d 14 seed " + std::to_string(seed + 1));
}

#endif  // CLUSTERLENS_HAVE_CUDA
