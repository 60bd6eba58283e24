// Density-peaks clustering on the CPU against a naive O(n²) recomputation of the definitions
// (Rodriguez & Laio 2014), the exact dc percentile against sorting all pairwise distances, and the
// peak choice / assignment / halo functions. Random tests print their seed.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/errors.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

struct Points {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<float> x;
};

double uniform01(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

Points uniformPoints(std::size_t n, std::size_t d, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Points p{n, d, std::vector<float>(n * d)};
    for (float& v : p.x) v = static_cast<float>(uniform01(rng) * 10.0);
    return p;
}

// Points on a small integer lattice, many of them repeated: ties in distances and densities everywhere.
Points latticePoints(std::size_t n, std::size_t d, int side, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Points p{n, d, std::vector<float>(n * d)};
    for (float& v : p.x) v = static_cast<float>(rng() % static_cast<std::uint64_t>(side));
    return p;
}

// Every point of a random cloud repeated `copies` times (exact duplicates), shuffled.
Points duplicatedPoints(std::size_t distinct, std::size_t copies, std::size_t d, std::uint64_t seed) {
    const Points base = uniformPoints(distinct, d, seed);
    std::vector<std::size_t> source(distinct * copies);
    for (std::size_t i = 0; i < source.size(); ++i) source[i] = i % distinct;
    std::mt19937_64 rng(seed + 1);
    std::shuffle(source.begin(), source.end(), rng);
    Points p{source.size(), d, {}};
    for (const std::size_t s : source)
        p.x.insert(p.x.end(), base.x.begin() + static_cast<std::ptrdiff_t>(s * d),
                   base.x.begin() + static_cast<std::ptrdiff_t>((s + 1) * d));
    return p;
}

// k blobs of unit spread, centres 60 apart: well separated for any dc near the 2 % percentile.
Points separatedBlobs(std::size_t n, std::size_t k, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Points p{n, 2, {}};
    for (std::size_t i = 0; i < n; ++i) {
        const double c = static_cast<double>(i % k);
        p.x.push_back(static_cast<float>(60.0 * c + uniform01(rng) * 2.0));
        p.x.push_back(static_cast<float>(uniform01(rng) * 2.0));
    }
    return p;
}

double squared(const Points& p, std::size_t i, std::size_t j) {
    double s = 0.0;
    for (std::size_t k = 0; k < p.d; ++k) {
        const double diff = static_cast<double>(p.x[i * p.d + k]) - static_cast<double>(p.x[j * p.d + k]);
        s += diff * diff;
    }
    return s;
}

std::vector<double> sortedPairDistances(const Points& p) {
    std::vector<double> all;
    for (std::size_t i = 0; i < p.n; ++i)
        for (std::size_t j = i + 1; j < p.n; ++j) all.push_back(std::sqrt(squared(p, i, j)));
    std::sort(all.begin(), all.end());
    return all;
}

// The definitions, literally: O(n²) time and memory.
DensityPeaksResult naiveDensityPeaks(const Points& p, DensityKernel kernel, double dc) {
    const std::size_t n = p.n;
    DensityPeaksResult r;
    r.rho.assign(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            if (j == i) continue;
            const double e = squared(p, i, j);
            r.rho[i] += kernel == DensityKernel::Cutoff ? (std::sqrt(e) < dc ? 1.0 : 0.0) : std::exp(-e / (dc * dc));
        }
    const auto higher = [&](std::size_t j, std::size_t i) {
        return r.rho[j] > r.rho[i] || (r.rho[j] == r.rho[i] && j < i);
    };
    r.delta.assign(n, 0.0);
    r.nearestHigher.assign(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        double best = std::numeric_limits<double>::infinity();
        double farthest = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            const double e = squared(p, i, j);
            farthest = std::max(farthest, e);
            if (j != i && higher(j, i) && e < best) {  // ascending j: ties keep the smaller index
                best = e;
                r.nearestHigher[i] = static_cast<std::int64_t>(j);
            }
        }
        r.delta[i] = std::sqrt(r.nearestHigher[i] < 0 ? farthest : best);
    }
    r.densityOrder.resize(n);
    std::iota(r.densityOrder.begin(), r.densityOrder.end(), std::int64_t{0});
    std::sort(r.densityOrder.begin(), r.densityOrder.end(), [&](std::int64_t a, std::int64_t b) {
        return higher(static_cast<std::size_t>(a), static_cast<std::size_t>(b));
    });
    return r;
}

void expectEqualsNaive(const Points& p, DensityKernel kernel, const DensityPeaksOptions& options) {
    const DensityPeaksResult got = densityPeaksCpu(p.x.data(), p.n, p.d, options);
    const DensityPeaksResult want = naiveDensityPeaks(p, kernel, got.dc.value);
    ASSERT_EQ(got.rho.size(), p.n);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < p.n && mismatches < 10; ++i) {
        const bool same = got.rho[i] == want.rho[i] && got.delta[i] == want.delta[i] &&
                          got.nearestHigher[i] == want.nearestHigher[i] && got.densityOrder[i] == want.densityOrder[i];
        if (!same) ++mismatches;
        EXPECT_EQ(got.rho[i], want.rho[i]) << "rho of point " << i;
        EXPECT_EQ(got.delta[i], want.delta[i]) << "delta of point " << i;
        EXPECT_EQ(got.nearestHigher[i], want.nearestHigher[i]) << "nearest higher of point " << i;
        EXPECT_EQ(got.densityOrder[i], want.densityOrder[i]) << "density order position " << i;
        EXPECT_EQ(got.gamma[i], got.rho[i] * got.delta[i]);
    }
}

DensityPeaksOptions withKernel(DensityKernel kernel) {
    DensityPeaksOptions o;
    o.kernel = kernel;
    return o;
}

// The 1-D example of the assignment tests: two groups of three, densest points 1 and 4.
Points twoGroups() {
    return Points{6, 1, {0.0f, 0.5f, 1.0f, 10.0f, 10.5f, 11.0f}};
}

DensityPeaksResult twoGroupsResult() {
    DensityPeaksOptions o;
    o.kernel = DensityKernel::Cutoff;
    o.dc = 0.8;
    const Points p = twoGroups();
    return densityPeaksCpu(p.x.data(), p.n, p.d, o);
}

template <class F>
void expectInvalidInputNaming(F&& call, const std::string& option) {
    try {
        call();
        ADD_FAILURE() << "expected InvalidInput naming " << option;
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find(option), std::string::npos) << e.what();
    }
}

}  // namespace

TEST(DensityPeaks, EqualsNaiveDefinitionsOnRandomDataForBothKernels) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    for (const DensityKernel kernel : {DensityKernel::Gaussian, DensityKernel::Cutoff}) {
        expectEqualsNaive(uniformPoints(700, 3, seed), kernel, withKernel(kernel));
        expectEqualsNaive(uniformPoints(300, 14, seed + 1), kernel, withKernel(kernel));
        DensityPeaksOptions user = withKernel(kernel);
        user.dc = 1.5;
        expectEqualsNaive(uniformPoints(257, 2, seed + 2), kernel, user);
    }
}

TEST(DensityPeaks, EqualsNaiveDefinitionsWithDuplicatesAndLatticeTies) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    for (const DensityKernel kernel : {DensityKernel::Gaussian, DensityKernel::Cutoff}) {
        expectEqualsNaive(duplicatedPoints(150, 3, 2, seed), kernel, withKernel(kernel));
        DensityPeaksOptions o = withKernel(kernel);
        o.dcPercent = 10.0;
        expectEqualsNaive(latticePoints(600, 2, 9, seed + 1), kernel, o);
        o.dc = 2.0;  // exactly a lattice distance: d < dc must exclude it
        expectEqualsNaive(latticePoints(400, 3, 5, seed + 2), kernel, o);
    }
}

// The grid index gives the all-pairs results bit for bit: random data in 1 to 3 features, lattices
// with pairs exactly at dc, duplicates, a tiny dc (many cells, long ring searches) and a huge one.
TEST(DensityPeaks, GridIndexEqualsTheNaiveDefinitions) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    DensityPeaksOptions grid = withKernel(DensityKernel::Cutoff);
    grid.index = SpatialIndex::Grid;
    for (std::size_t d = 1; d <= 3; ++d)
        expectEqualsNaive(uniformPoints(900, d, seed + d), DensityKernel::Cutoff, grid);
    expectEqualsNaive(duplicatedPoints(150, 3, 2, seed), DensityKernel::Cutoff, grid);
    DensityPeaksOptions lattice = grid;
    lattice.dc = 2.0;  // exactly a lattice distance
    expectEqualsNaive(latticePoints(600, 2, 9, seed + 4), DensityKernel::Cutoff, lattice);
    expectEqualsNaive(latticePoints(400, 3, 5, seed + 5), DensityKernel::Cutoff, lattice);
    DensityPeaksOptions tiny = grid;
    tiny.dc = 1e-3;
    expectEqualsNaive(uniformPoints(800, 2, seed + 6), DensityKernel::Cutoff, tiny);
    DensityPeaksOptions huge = grid;
    huge.dc = 1e3;
    expectEqualsNaive(uniformPoints(300, 3, seed + 7), DensityKernel::Cutoff, huge);
    const Points p = uniformPoints(5000, 2, seed + 8);
    DensityPeaksOptions automatic = withKernel(DensityKernel::Cutoff);
    EXPECT_EQ(densityPeaksCpu(p.x.data(), p.n, p.d, automatic).index, "grid");
    automatic.index = SpatialIndex::None;
    EXPECT_EQ(densityPeaksCpu(p.x.data(), p.n, p.d, automatic).index, "none");
}

TEST(DensityPeaks, GridIndexRefusesWhatItCannotServe) {
    const Points p = uniformPoints(100, 4, 1);
    DensityPeaksOptions o = withKernel(DensityKernel::Cutoff);
    o.index = SpatialIndex::Grid;
    expectInvalidInputNaming([&] { densityPeaksCpu(p.x.data(), p.n, p.d, o); }, "--index");
    const Points q = uniformPoints(100, 2, 1);
    o.kernel = DensityKernel::Gaussian;
    expectInvalidInputNaming([&] { densityPeaksCpu(q.x.data(), q.n, q.d, o); }, "--index");
    expectInvalidInputNaming([] { parseSpatialIndex("kd"); }, "--index");
    EXPECT_EQ(parseSpatialIndex("grid"), SpatialIndex::Grid);
}

TEST(DensityPeaks, ExactPercentileEqualsSortingAllPairwiseDistances) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    int largestPasses = 0;
    const std::vector<Points> sets = {uniformPoints(2, 3, seed),           uniformPoints(3, 1, seed + 1),
                                      uniformPoints(17, 2, seed + 2),      uniformPoints(1500, 4, seed + 3),
                                      latticePoints(1200, 2, 6, seed + 4), duplicatedPoints(700, 2, 3, seed + 5)};
    for (const Points& p : sets) {
        const std::vector<double> sorted = sortedPairDistances(p);
        for (const double percent : {0.01, 2.0, 37.5, 99.99}) {
            for (const std::size_t sampleSize : {std::size_t{0}, std::size_t{5}, std::size_t{1000000}}) {
                DensityPeaksOptions o;
                o.dcPercent = percent;
                o.sampleSize = sampleSize;
                const auto m = static_cast<double>(sorted.size());
                const auto k = std::clamp<double>(std::round(percent / 100.0 * m), 1.0, m);
                const double want = sorted[static_cast<std::size_t>(k) - 1];
                if (want == 0.0) {
                    EXPECT_THROW(densityPeaksCpu(p.x.data(), p.n, p.d, o), InvalidInput);
                    continue;
                }
                const DensityPeaksResult r = densityPeaksCpu(p.x.data(), p.n, p.d, o);
                EXPECT_EQ(r.dc.value, want) << "n=" << p.n << " percent=" << percent << " sample=" << sampleSize;
                EXPECT_EQ(r.dc.method, "exact");
                EXPECT_TRUE(r.dc.exact);
                largestPasses = std::max(largestPasses, r.dc.passes);
            }
        }
    }
    EXPECT_GE(largestPasses, 3) << "the multi-pass selection was not exercised";
}

TEST(DensityPeaks, SampledPercentileIsCloseAndSaysSo) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    const Points p = uniformPoints(3000, 5, seed);
    DensityPeaksOptions exact;
    DensityPeaksOptions sampled;
    sampled.exactPercentile = false;
    sampled.sampleSize = 200000;
    const DensityPeaksResult a = densityPeaksCpu(p.x.data(), p.n, p.d, exact);
    const DensityPeaksResult b = densityPeaksCpu(p.x.data(), p.n, p.d, sampled);
    EXPECT_EQ(b.dc.method, "sampled");
    EXPECT_FALSE(b.dc.exact);
    EXPECT_EQ(b.dc.samplePairs, 200000u);
    EXPECT_NEAR(b.dc.value, a.dc.value, 0.02 * a.dc.value);
    // The same seed draws the same pairs.
    EXPECT_EQ(densityPeaksCpu(p.x.data(), p.n, p.d, sampled).dc.value, b.dc.value);
    // With fewer pairs than the sample size the sampled percentile is the exact one.
    const Points small = uniformPoints(40, 2, seed + 1);
    const DensityPeaksResult c = densityPeaksCpu(small.x.data(), small.n, small.d, sampled);
    EXPECT_EQ(c.dc.method, "exact");
    EXPECT_EQ(c.dc.value, densityPeaksCpu(small.x.data(), small.n, small.d, exact).dc.value);
}

TEST(DensityPeaks, TwoGroupsHaveTheHandComputedDecisionGraph) {
    const DensityPeaksResult r = twoGroupsResult();
    EXPECT_EQ(r.dc.method, "user");
    EXPECT_EQ(r.rho, (std::vector<double>{1, 2, 1, 1, 2, 1}));
    EXPECT_EQ(r.densityOrder, (std::vector<std::int64_t>{1, 4, 0, 2, 3, 5}));
    EXPECT_EQ(r.nearestHigher, (std::vector<std::int64_t>{1, -1, 1, 4, 1, 4}));
    EXPECT_DOUBLE_EQ(r.delta[1], 10.5);  // the densest point: its largest distance
    EXPECT_DOUBLE_EQ(r.delta[4], 10.0);
    EXPECT_DOUBLE_EQ(r.delta[3], 0.5);
    EXPECT_EQ(peaksTopK(r, 2), (std::vector<std::int64_t>{1, 4}));
    EXPECT_EQ(peaksByThreshold(r, 1.5, 5.0), (std::vector<std::int64_t>{1, 4}));
    EXPECT_TRUE(peaksByThreshold(r, 5.0, 0.0).empty());
}

TEST(DensityPeaks, AssignmentFollowsNearestHigherLinksWithPeaksNumberedByDensity) {
    const DensityPeaksResult r = twoGroupsResult();
    const std::vector<std::int32_t> expected = {0, 0, 0, 1, 1, 1};
    EXPECT_EQ(assignFromPeaks(r, {1, 4}), expected);
    EXPECT_EQ(assignFromPeaks(r, {4, 1}), expected);  // labels follow density, not the list order
    // The densest point is not a peak: it joins cluster 0, the densest peak.
    EXPECT_EQ(assignFromPeaks(r, {4}), (std::vector<std::int32_t>{0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(assignFromPeaks(r, {0, 4}), (std::vector<std::int32_t>{1, 0, 0, 0, 0, 0}));
}

TEST(DensityPeaks, PeakChoiceErrorsNameTheOption) {
    const DensityPeaksResult r = twoGroupsResult();
    expectInvalidInputNaming([&] { assignFromPeaks(r, {}); }, "--peaks");
    expectInvalidInputNaming([&] { assignFromPeaks(r, {6}); }, "--peaks");
    expectInvalidInputNaming([&] { assignFromPeaks(r, {-1}); }, "--peaks");
    expectInvalidInputNaming([&] { assignFromPeaks(r, {1, 4, 1}); }, "--peaks");
    expectInvalidInputNaming([&] { peaksTopK(r, 0); }, "--peaks-top");
    expectInvalidInputNaming([&] { peaksTopK(r, 7); }, "--peaks-top");
}

TEST(DensityPeaks, TopKBreaksGammaTiesBySmallerIndex) {
    DensityPeaksResult r;
    r.rho = {1, 1, 1, 1, 1};
    r.delta = {2, 3, 3, 1, 3};
    r.gamma = {2, 3, 3, 1, 3};
    r.nearestHigher = {-1, 0, 0, 0, 0};
    r.densityOrder = {0, 1, 2, 3, 4};
    EXPECT_EQ(peaksTopK(r, 4), (std::vector<std::int64_t>{1, 2, 4, 0}));
}

TEST(DensityPeaks, InputErrorsAreClear) {
    const Points p = uniformPoints(10, 2, 1);
    DensityPeaksOptions o;
    EXPECT_THROW(densityPeaksCpu(p.x.data(), 1, 2, o), InvalidInput);
    EXPECT_THROW(densityPeaksCpu(p.x.data(), 10, 0, o), InvalidInput);
    Points bad = p;
    bad.x[7] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_THROW(densityPeaksCpu(bad.x.data(), bad.n, bad.d, o), NonFiniteInput);
    bad.x[7] = std::numeric_limits<float>::infinity();
    EXPECT_THROW(densityPeaksCpu(bad.x.data(), bad.n, bad.d, o), NonFiniteInput);
    for (const double dc : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
        o.dc = dc;
        expectInvalidInputNaming([&] { densityPeaksCpu(p.x.data(), p.n, p.d, o); }, "--dc");
    }
    o.dc.reset();
    for (const double percent : {0.0, 100.0, -2.0, 150.0}) {
        o.dcPercent = percent;
        expectInvalidInputNaming([&] { densityPeaksCpu(p.x.data(), p.n, p.d, o); }, "--dc-percent");
    }
    o.dcPercent = 2.0;
    const Points same = duplicatedPoints(1, 50, 2, 3);  // every distance is 0
    expectInvalidInputNaming([&] { densityPeaksCpu(same.x.data(), same.n, same.d, o); }, "--dc-percent");
    expectInvalidInputNaming([] { parseDensityKernel("epanechnikov"); }, "--kernel");
    EXPECT_EQ(parseDensityKernel("cutoff"), DensityKernel::Cutoff);
    EXPECT_EQ(parseDensityKernel("gaussian"), DensityKernel::Gaussian);
}

TEST(DensityPeaks, CancelledJobStops) {
    const Points p = uniformPoints(2000, 3, 5);
    JobControl control;
    control.cancel();
    EXPECT_THROW(densityPeaksCpu(p.x.data(), p.n, p.d, DensityPeaksOptions{}, &control), Cancelled);
}

TEST(DensityPeaks, SeparatedBlobsGiveTheirCountAndClusters) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    const Points p = separatedBlobs(1000, 5, seed);
    const DensityPeaksResult r = densityPeaksCpu(p.x.data(), p.n, p.d, DensityPeaksOptions{});
    EXPECT_EQ(suggestPeakCount(r), 5u);
    const std::vector<std::int32_t> labels = assignFromPeaks(r, peaksTopK(r, 5));
    // Points of one blob share a label, and the five labels differ.
    std::vector<std::int32_t> ofBlob(5, -1);
    for (std::size_t i = 0; i < p.n; ++i) {
        std::int32_t& l = ofBlob[i % 5];
        if (l < 0) l = labels[i];
        EXPECT_EQ(labels[i], l) << "point " << i;
    }
    std::sort(ofBlob.begin(), ofBlob.end());
    EXPECT_EQ(ofBlob, (std::vector<std::int32_t>{0, 1, 2, 3, 4}));
    // No pair of different blobs is within dc: nothing is in a halo.
    EXPECT_EQ(applyHaloCpu(p.x.data(), p.n, p.d, r, labels, r.dc.value), labels);
}

TEST(DensityPeaks, HaloMarksPointsBelowTheBorderDensity) {
    // Two dense groups joined by a sparse bridge; the bridge points are in the halo.
    Points p{0, 1, {}};
    for (int i = 0; i < 20; ++i) p.x.push_back(static_cast<float>(0.1 * i));
    for (int i = 0; i < 20; ++i) p.x.push_back(static_cast<float>(10.0 + 0.1 * i));
    for (int i = 0; i < 9; ++i) p.x.push_back(static_cast<float>(2.9 + 0.8 * i));
    p.n = p.x.size();
    DensityPeaksOptions o;
    o.kernel = DensityKernel::Cutoff;
    o.dc = 0.85;
    const DensityPeaksResult r = densityPeaksCpu(p.x.data(), p.n, p.d, o);
    const std::vector<std::int32_t> labels = assignFromPeaks(r, peaksTopK(r, 2));
    std::vector<std::int32_t> withNoise = labels;
    withNoise[0] = -1;
    const std::vector<std::int32_t> halo = applyHaloCpu(p.x.data(), p.n, p.d, r, withNoise, o.dc.value());
    EXPECT_EQ(halo[0], -1);  // stays noise
    std::size_t bridgeInHalo = 0;
    for (std::size_t i = 1; i < p.n; ++i) {
        if (halo[i] != -1) {
            EXPECT_EQ(halo[i], labels[i]);
        }
        if (i >= 40 && halo[i] == -1) ++bridgeInHalo;
        if (i >= 5 && i < 15) {
            EXPECT_NE(halo[i], -1) << "core point " << i;
        }
    }
    EXPECT_GT(bridgeInHalo, 0u);
    expectInvalidInputNaming([&] { applyHaloCpu(p.x.data(), p.n, p.d, r, labels, 0.0); }, "--dc");
}
