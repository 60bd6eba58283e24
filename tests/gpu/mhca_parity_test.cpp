// GPU MHCA (mhcaCuda) against the CPU reference mhcaCpu and the outputs of R's mhca: the same merges
// (a, b, size) and heights within 1e-9 relative on tie-free data, for FMD and CMD and every
// sub-threshold mode; point-height correlation on harder data; the same input errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/hca/point_heights.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/hca/mhca_cuda.hpp"
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA
namespace {

#define CL_REQUIRE_GPU()                                                        \
    do {                                                                        \
        if (!cudaAvailable()) GTEST_SKIP() << "no CUDA device on this machine"; \
    } while (0)

constexpr double kHeightTolerance = 1e-9;

struct Points {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<double> x;
    std::vector<std::int32_t> population;
};

/// Standard normal by Box–Muller from 53-bit uniforms (the same numbers on every platform).
double normal(std::mt19937_64& rng) {
    const double u1 = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

/// k elongated Gaussian populations with centres `spread` apart on average, scales per axis in
/// [0.2, 1] and a random shear, so clusters are elliptic; the points are shuffled.
Points gaussianMixture(std::size_t n, std::size_t d, std::size_t k, double spread, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::vector<double>> centre(k, std::vector<double>(d)), scale(k, std::vector<double>(d));
    std::vector<double> shear(k);
    for (std::size_t c = 0; c < k; ++c) {
        for (std::size_t j = 0; j < d; ++j) {
            centre[c][j] = spread * normal(rng);
            scale[c][j] = 0.2 + 0.8 * static_cast<double>(rng() >> 11) * 0x1.0p-53;
        }
        shear[c] = normal(rng);
    }
    Points p;
    p.n = n;
    p.d = d;
    p.x.resize(n * d);
    p.population.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t c = i % k;
        p.population[i] = static_cast<std::int32_t>(c + 1);
        double previous = 0.0;
        for (std::size_t j = 0; j < d; ++j) {
            const double z = scale[c][j] * normal(rng);
            p.x[i * d + j] = centre[c][j] + z + shear[c] * previous;
            previous = z;
        }
    }
    for (std::size_t i = n; i-- > 1;) {
        const std::size_t j = static_cast<std::size_t>(rng() % (i + 1));
        for (std::size_t f = 0; f < d; ++f) std::swap(p.x[i * d + f], p.x[j * d + f]);
        std::swap(p.population[i], p.population[j]);
    }
    return p;
}

/// Index of the first differing merge (merges.size() when identical) and the largest relative
/// height difference before it.
std::size_t firstDifference(const Linkage& actual, const Linkage& expected, double& worst) {
    worst = 0.0;
    const std::size_t m = std::min(actual.merges.size(), expected.merges.size());
    for (std::size_t i = 0; i < m; ++i) {
        const Merge& a = actual.merges[i];
        const Merge& e = expected.merges[i];
        const double rel = std::abs(a.height - e.height) / std::max(std::abs(e.height), 1e-300);
        if (a.a != e.a || a.b != e.b || a.size != e.size || !(rel <= kHeightTolerance)) return i;
        worst = std::max(worst, rel);
    }
    return actual.merges.size() == expected.merges.size() ? actual.merges.size() : m;
}

void expectSameMerges(const Linkage& gpu, const Linkage& reference, const std::string& what) {
    ASSERT_EQ(gpu.leafCount, reference.leafCount) << what;
    ASSERT_EQ(gpu.merges.size(), reference.merges.size()) << what;
    EXPECT_NO_THROW(gpu.validate(what));
    double worst = 0.0;
    const std::size_t first = firstDifference(gpu, reference, worst);
    if (first < gpu.merges.size()) {
        const Merge& g = gpu.merges[first];
        const Merge& r = reference.merges[first];
        ADD_FAILURE() << what << ": merge " << first << " differs: gpu (" << g.a << ", " << g.b << ", " << g.height
                      << ", " << g.size << ") reference (" << r.a << ", " << r.b << ", " << r.height << ", " << r.size
                      << ")";
    }
    std::cout << "[ mhca gpu ] " << what << ": " << gpu.merges.size() << " merges identical up to " << first
              << ", max relative height difference " << worst << "\n";
}

/// Two runs' merges equal bit for bit: pairs and heights.
void expectIdentical(const Linkage& first, const Linkage& second, const std::string& what) {
    ASSERT_EQ(first.merges.size(), second.merges.size()) << what;
    for (std::size_t i = 0; i < first.merges.size(); ++i) {
        ASSERT_EQ(first.merges[i].a, second.merges[i].a) << what << ", merge " << i;
        ASSERT_EQ(first.merges[i].b, second.merges[i].b) << what << ", merge " << i;
        ASSERT_EQ(first.merges[i].height, second.merges[i].height) << what << ", merge " << i;
    }
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= static_cast<double>(x.size());
    my /= static_cast<double>(y.size());
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / std::sqrt(sxx * syy);
}

MhcaOptions makeOptions(MhcaVariant variant, SubthresholdMode mode, bool normalize, double threshold = 0.5) {
    MhcaOptions o;
    o.variant = variant;
    o.subthreshold = mode;
    o.normalize = normalize;
    o.threshold = threshold;
    return o;
}

std::string describe(const MhcaOptions& o) {
    std::ostringstream s;
    s << mhcaVariantName(o.variant) << "/" << subthresholdModeName(o.subthreshold) << (o.normalize ? "/normalize" : "")
      << "/thr" << o.threshold << (o.apriori.empty() ? "" : "/apriori");
    return s.str();
}

void expectParity(const Points& p, const MhcaOptions& options, const std::string& what) {
    const Linkage cpu = mhcaCpu(p.x.data(), p.n, p.d, options);
    const Linkage gpu = mhcaCuda(p.x.data(), p.n, p.d, options);
    expectSameMerges(gpu, cpu, what + " " + describe(options));
}

const MhcaVariant kVariants[] = {MhcaVariant::Centroid, MhcaVariant::Full};
const SubthresholdMode kModes[] = {SubthresholdMode::Mahal, SubthresholdMode::Mahal0, SubthresholdMode::Euclid,
                                   SubthresholdMode::EuclidMahal};

}  // namespace

TEST(MhcaCudaParity, EqualsCpuOnSeparatedDataInEveryMode) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed();
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    for (std::uint64_t s = 0; s < 2; ++s) {
        const Points p = gaussianMixture(240, 3 + s, 5, 12.0, seed + s);
        for (MhcaVariant variant : kVariants)
            for (SubthresholdMode mode : kModes)
                for (bool normalize : {false, true})
                    expectParity(p, makeOptions(variant, mode, normalize), "seed " + std::to_string(seed + s));
    }
}

TEST(MhcaCudaParity, EqualsCpuAtLowThresholdsWithPureMahalanobisPhase) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 7;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    const Points p = gaussianMixture(400, 4, 6, 15.0, seed);
    for (MhcaVariant variant : kVariants)
        for (SubthresholdMode mode : kModes)
            for (double threshold : {0.05, 0.2})
                expectParity(p, makeOptions(variant, mode, mode == SubthresholdMode::Mahal0, threshold),
                             "seed " + std::to_string(seed));
}

TEST(MhcaCudaParity, EqualsCpuOnLargerSetsWithListCompaction) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 11;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    expectParity(gaussianMixture(5000, 4, 12, 20.0, seed),
                 makeOptions(MhcaVariant::Centroid, SubthresholdMode::Mahal, false), "seed " + std::to_string(seed));
    expectParity(gaussianMixture(2600, 3, 8, 20.0, seed + 1),
                 makeOptions(MhcaVariant::Full, SubthresholdMode::Mahal, false), "seed " + std::to_string(seed + 1));
}

/// Sets an environment variable for the lifetime of a scope (the engine reads it when it starts).
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : m_name(name) {
        const char* old = std::getenv(name);
        if (old) m_old = old;
        m_had = old != nullptr;
        ::setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (m_had) {
            ::setenv(m_name, m_old.c_str(), 1);
        } else {
            ::unsetenv(m_name);
        }
    }

private:
    const char* m_name;
    std::string m_old;
    bool m_had = false;
};

TEST(MhcaCudaParity, EqualsCpuAtCytometryDimensionWithCompaction) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 23;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    const Points p = gaussianMixture(3000, 14, 10, 30.0, seed);
    for (SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::EuclidMahal})
        expectParity(p, makeOptions(MhcaVariant::Centroid, mode, false), "d 14 seed " + std::to_string(seed));
}

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

/// The version of the persistent CMD kernel without barrier S3 needs speculation, lazy rescans and a
/// list that is its slots in order (slot compaction); a test of it or of the growth kernel beside it
/// sets them on for its scope, so that it checks the mechanism in any environment.
struct ElidedS3Mechanisms {
    ScopedEnv elide{"CLUSTERLENS_MHCA_ELIDE_S3", "1"};
    ScopedEnv speculate{"CLUSTERLENS_MHCA_SPECULATE", "1"};
    ScopedEnv lazy{"CLUSTERLENS_MHCA_LAZY_RESCANS", "1"};
    ScopedEnv slots{"CLUSTERLENS_MHCA_SLOT_COMPACTION", "1"};
};

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

TEST(MhcaCudaParity, EqualsCpuInEveryDimensionPath) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 13;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    for (std::size_t d : {1u, 2u, 7u, 16u, 21u, 33u, 80u}) {
        const Points p = gaussianMixture(150, d, 4, 10.0 + static_cast<double>(d), seed + d);
        for (MhcaVariant variant : kVariants)
            expectParity(p, makeOptions(variant, SubthresholdMode::Mahal, false),
                         "d " + std::to_string(d) + " seed " + std::to_string(seed + d));
    }
}

TEST(MhcaCudaParity, EqualsCpuWithAprioriGroups) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 17;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    Points p = gaussianMixture(600, 3, 6, 14.0, seed);
    for (MhcaVariant variant : kVariants) {
        for (bool normalize : {false, true}) {
            MhcaOptions o =
                makeOptions(variant, normalize ? SubthresholdMode::Euclid : SubthresholdMode::Mahal, normalize);
            o.apriori = p.population;
            for (std::size_t i = 0; i < p.n; i += 37) o.apriori[i] = 0;  // some ungrouped points
            o.apriori[5] = 99;                                           // a group of one point
            expectParity(p, o, "seed " + std::to_string(seed));
        }
    }
}

TEST(MhcaCudaParity, AprioriGroupsOfEveryShapeEqualCpu) {
    // CMD groups below the threshold run a block per group; one group above it sends the whole group
    // phase through the merge loop. Both on permuted slots, in the register instances (7, 24, 40),
    // with groups of 2 points, exact duplicates inside a group, a group of one and ungrouped points.
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 29;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    for (std::size_t d : {7u, 20u, 33u}) {
        Points p = gaussianMixture(1500, d, 10, 14.0, seed + d);
        MhcaOptions o = makeOptions(MhcaVariant::Centroid, SubthresholdMode::Mahal, false);
        o.apriori = p.population;
        for (std::size_t i = 0; i < p.n; ++i) {
            if (o.apriori[i] <= 3) o.apriori[i] = 1;                      // one group of ~450 points
            if (i % 53 == 0) o.apriori[i] = 0;                            // ungrouped
            if (i % 101 == 0) o.apriori[i] = 200 + static_cast<int>(i);  // groups of 2 (with i + 1)
            if (i % 101 == 1) o.apriori[i] = 200 + static_cast<int>(i - 1);
        }
        o.apriori[7] = 999;  // a group of one
        std::vector<std::size_t> large, other;  // duplicates inside two groups: tied distances
        for (std::size_t i = 0; i < p.n; ++i) {
            if (o.apriori[i] == 1) large.push_back(i);
            if (o.apriori[i] == 5) other.push_back(i);
        }
        for (const std::vector<std::size_t>* members : {&large, &other})
            for (std::size_t k = 0; k + 1 < 6; k += 2)
                std::copy_n(p.x.begin() + static_cast<std::ptrdiff_t>((*members)[k] * d), d,
                            p.x.begin() + static_cast<std::ptrdiff_t>((*members)[k + 1] * d));
        for (std::size_t k = 0; k < 4; ++k) {
            o.subthreshold = kModes[k];
            o.normalize = k % 2 == 1;
            o.threshold = 0.5;  // every group below it: the group kernel
            expectParity(p, o, "d " + std::to_string(d) + " seed " + std::to_string(seed + d));
        }
        o.subthreshold = SubthresholdMode::Mahal;
        o.normalize = false;
        o.threshold = 0.2;  // the large group reaches it: the merge loop over all groups
        expectParity(p, o, "d " + std::to_string(d) + " seed " + std::to_string(seed + d));
    }
}

TEST(MhcaCudaParity, PointHeightsCorrelateOnOverlappingData) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 19;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    const Points p = gaussianMixture(1500, 6, 10, 2.0, seed);
    for (MhcaVariant variant : kVariants) {
        const MhcaOptions o = makeOptions(variant, SubthresholdMode::Mahal, false);
        const Linkage cpu = mhcaCpu(p.x.data(), p.n, p.d, o);
        const Linkage gpu = mhcaCuda(p.x.data(), p.n, p.d, o);
        double worst = 0.0;
        const std::size_t first = firstDifference(gpu, cpu, worst);
        const double r = pearson(pointHeights(gpu), pointHeights(cpu));
        std::cout << "[ mhca gpu ] overlapping " << describe(o) << ": identical up to merge " << first
                  << ", point-height Pearson " << r << "\n";
        EXPECT_GE(r, 0.999);
    }
}

TEST(MhcaCudaParity, IsDeterministic) {
    CL_REQUIRE_GPU();
    const Points p = gaussianMixture(800, 5, 8, 1.5, test::testSeed() + 23);
    for (MhcaVariant variant : kVariants) {
        const MhcaOptions o = makeOptions(variant, SubthresholdMode::Mahal, false);
        expectIdentical(mhcaCuda(p.x.data(), p.n, p.d, o), mhcaCuda(p.x.data(), p.n, p.d, o), describe(o));
    }
}

TEST(MhcaCudaParity, TiesGoToTheFirstPairLikeTheCpu) {
    CL_REQUIRE_GPU();
    // A lattice: many exactly equal distances, and duplicate points (distance 0). CMD distances are
    // bit for bit those of the CPU (d = 2: the shape powers are rounded as the host's), so ties must
    // be broken identically. FMD sums members in another order, so exact FMD ties may break the other
    // way and only the point-height correlation is reported.
    Points p;
    p.d = 2;
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 10; ++j) {
            p.x.push_back(i);
            p.x.push_back(j);
        }
    for (int k = 0; k < 6; ++k) {
        p.x.push_back(3);
        p.x.push_back(4);
    }
    p.n = p.x.size() / 2;
    for (SubthresholdMode mode : kModes) {
        expectParity(p, makeOptions(MhcaVariant::Centroid, mode, false), "lattice");
        const MhcaOptions o = makeOptions(MhcaVariant::Full, mode, false);
        const double r =
            pearson(pointHeights(mhcaCuda(p.x.data(), p.n, p.d, o)), pointHeights(mhcaCpu(p.x.data(), p.n, p.d, o)));
        std::cout << "[ mhca gpu ] lattice " << describe(o) << ": point-height Pearson " << r << "\n";
    }
}

namespace {

struct Table {
    std::size_t n = 0, d = 0;
    std::vector<double> values;
};

Table readTable(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    Table t;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::vector<double> row;
        double v = 0;
        while (fields >> v) row.push_back(v);
        if (row.empty()) continue;
        if (t.d == 0) t.d = row.size();
        t.values.insert(t.values.end(), row.begin(), row.end());
        ++t.n;
    }
    return t;
}

void expectReference(const std::string& input, const std::string& file, MhcaVariant variant, bool apriori) {
    const Table t = readTable(test::dataPath("reference/mhca/" + input + ".txt"));
    MhcaOptions o = makeOptions(variant, SubthresholdMode::Mahal, false);
    if (apriori) {
        const Table g = readTable(test::dataPath("reference/mhca/" + input + ".apriori.txt"));
        for (double v : g.values) o.apriori.push_back(static_cast<std::int32_t>(v));
    }
    const Linkage expected = readLinkageCsv(test::dataPath("reference/mhca/" + file));
    const Linkage gpu = mhcaCuda(t.values.data(), t.n, t.d, o);
    expectSameMerges(gpu, expected, file);
}

}  // namespace

TEST(MhcaCudaReference, MatchesMhclustOnTieFreeInputs) {
    CL_REQUIRE_GPU();
    for (const std::string input : {"engytime1000", "aggregation", "mix2000"}) {
        expectReference(input, input + ".cmd.mahal.thr0.5.csv", MhcaVariant::Centroid, false);
        expectReference(input, input + ".fmd.mahal.thr0.5.csv", MhcaVariant::Full, false);
    }
    expectReference("mix2000", "mix2000.apriori.cmd.mahal.thr0.5.csv", MhcaVariant::Centroid, true);
    expectReference("mix2000", "mix2000.apriori.fmd.mahal.thr0.5.csv", MhcaVariant::Full, true);
}

TEST(MhcaCudaReference, FollowsTheCpuOnIrisInEveryMode) {
    CL_REQUIRE_GPU();
    // iris has duplicate points: among exact ties the order may differ where a distance is not bit for
    // bit the CPU's, so the point heights must correlate as the CPU's do with R's (>= 0.9999).
    const Table t = readTable(test::dataPath("reference/mhca/iris.txt"));
    for (MhcaVariant variant : kVariants)
        for (SubthresholdMode mode : kModes)
            for (bool normalize : {false, true}) {
                const MhcaOptions o = makeOptions(variant, mode, normalize);
                const Linkage cpu = mhcaCpu(t.values.data(), t.n, t.d, o);
                const Linkage gpu = mhcaCuda(t.values.data(), t.n, t.d, o);
                double worst = 0.0;
                const std::size_t first = firstDifference(gpu, cpu, worst);
                const double r = pearson(pointHeights(gpu), pointHeights(cpu));
                std::cout << "[ mhca gpu ] iris " << describe(o) << ": identical up to merge " << first << " of "
                          << cpu.merges.size() << ", point-height Pearson " << r << "\n";
                EXPECT_GE(r, 0.9999);
            }
}

TEST(MhcaCudaInput, RejectsWhatTheCpuRejects) {
    CL_REQUIRE_GPU();
    const std::vector<double> x = {0, 1, 2, 3, 4, 5};
    const MhcaOptions good = makeOptions(MhcaVariant::Centroid, SubthresholdMode::Mahal, false);
    EXPECT_THROW(mhcaCuda(x.data(), 1, 2, good), InvalidInput);
    EXPECT_THROW(mhcaCuda(x.data(), 3, 0, good), InvalidInput);
    std::vector<double> nan = x;
    nan[3] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(mhcaCuda(nan.data(), 3, 2, good), NonFiniteInput);
    MhcaOptions bad = good;
    bad.threshold = 0.0;
    EXPECT_THROW(mhcaCuda(x.data(), 3, 2, bad), InvalidInput);
    bad.threshold = 1.5;
    EXPECT_THROW(mhcaCuda(x.data(), 3, 2, bad), InvalidInput);
    bad = good;
    bad.apriori = {1, 1};
    EXPECT_THROW(mhcaCuda(x.data(), 3, 2, bad), InvalidInput);
    const Linkage two = mhcaCuda(x.data(), 2, 2, good);
    ASSERT_EQ(two.merges.size(), 1u);
    EXPECT_DOUBLE_EQ(two.merges[0].height, std::sqrt(8.0));
}

TEST(MhcaCudaInput, CancelledBeforeStartThrowsCancelled) {
    CL_REQUIRE_GPU();
    const Points p = gaussianMixture(300, 3, 3, 5.0, 5);
    JobControl control;
    control.cancel();
    EXPECT_THROW(
        mhcaCuda(p.x.data(), p.n, p.d, makeOptions(MhcaVariant::Centroid, SubthresholdMode::Mahal, false), &control),
        Cancelled);
}


#endif  // CLUSTERLENS_HAVE_CUDA
