// GPU MHCA (mhcaCuda) against the CPU reference mhcaCpu and the outputs of R's mhca: the same merges
// (a, b, size) and heights within 1e-9 relative on tie-free data, for FMD and CMD and every
// sub-threshold mode; point-height correlation on harder data; the same input errors. The engine's
// speed mechanisms, each against the run without it: mhca_mechanisms_test.cpp.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/hca/point_heights.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "mhca_gpu_support.hpp"
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA
using namespace clusterlens::test::mhcagpu;

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

TEST(MhcaCudaParity, EqualsCpuAtCytometryDimensionWithCompaction) {
    CL_REQUIRE_GPU();
    const std::uint64_t seed = test::testSeed() + 23;
    std::cout << "[ mhca gpu ] seed " << seed << "\n";
    const Points p = gaussianMixture(3000, 14, 10, 30.0, seed);
    for (SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::EuclidMahal})
        expectParity(p, makeOptions(MhcaVariant::Centroid, mode, false), "d 14 seed " + std::to_string(seed));
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
            if (o.apriori[i] <= 3) o.apriori[i] = 1;                     // one group of ~450 points
            if (i % 53 == 0) o.apriori[i] = 0;                           // ungrouped
            if (i % 101 == 0) o.apriori[i] = 200 + static_cast<int>(i);  // groups of 2 (with i + 1)
            if (i % 101 == 1) o.apriori[i] = 200 + static_cast<int>(i - 1);
        }
        o.apriori[7] = 999;                     // a group of one
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
        const double r = test::pearson(pointHeights(gpu), pointHeights(cpu));
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
        const double r = test::pearson(pointHeights(mhcaCuda(p.x.data(), p.n, p.d, o)),
                                       pointHeights(mhcaCpu(p.x.data(), p.n, p.d, o)));
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
                const double r = test::pearson(pointHeights(gpu), pointHeights(cpu));
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
