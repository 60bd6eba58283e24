// Peak stability across dc (issue "evidence for every peak and every cut"): on data with known
// structure the peaks of well-separated blobs persist over the whole sweep, a spurious peak chosen
// inside a blob does not; the percent grid, the persistence count (peaks matched by their cluster)
// and the option checks.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "clusterlens/cluster/dc_sweep.hpp"
#include "clusterlens/errors.hpp"

using namespace clusterlens;

namespace {

/// Three round Gaussian blobs of `perBlob` points in the plane, 20 standard deviations apart; point
/// 0 of each blob sits at its centre. Row-major (x, y), blob after blob.
std::vector<float> threeBlobs(std::size_t perBlob, unsigned seed) {
    std::mt19937 random(seed);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    const float centres[3][2] = {{0.0f, 0.0f}, {20.0f, 0.0f}, {10.0f, 20.0f}};
    std::vector<float> x;
    for (const auto& c : centres)
        for (std::size_t i = 0; i < perBlob; ++i) {
            x.push_back(c[0] + (i == 0 ? 0.0f : noise(random)));
            x.push_back(c[1] + (i == 0 ? 0.0f : noise(random)));
        }
    return x;
}

}  // namespace

TEST(DcSweep, PeaksOfSeparatedBlobsPersistAndASpuriousPeakInsideABlobDoesNot) {
    const std::size_t perBlob = 200, n = 3 * perBlob;
    const std::vector<float> x = threeBlobs(perBlob, 7);
    DensityPeaksOptions options;
    options.kernel = DensityKernel::Cutoff;
    const DensityPeaksResult base = densityPeaks(x.data(), n, 2, options, Backend::Cpu).result;
    // The three blob peaks, and a fourth "peak" that is only the next largest gamma inside a blob.
    const std::vector<std::int64_t> chosen = peaksTopK(base, 4);
    const std::vector<std::int32_t> labels = assignFromPeaks(base, chosen);
    const Computed<DcSweep> sweep =
        sweepDc(x.data(), n, 2, options, sweepPercents(0.5, 4.0, 8), 4, chosen, labels, Backend::Cpu);
    ASSERT_EQ(sweep.result.steps.size(), 8u);
    ASSERT_EQ(sweep.result.persistence.size(), 4u);
    for (int blob = 0; blob < 3; ++blob)
        EXPECT_EQ(sweep.result.persistence[static_cast<std::size_t>(blob)], 1.0)
            << "the peak of a separated blob left the top 4 at some dc: " << chosen[blob];
    EXPECT_LT(sweep.result.persistence[3], 1.0) << "the spurious peak " << chosen[3] << " persisted";
    // Each blob's peak lies in a different blob.
    std::vector<std::int64_t> blobs;
    for (int k = 0; k < 3; ++k)
        blobs.push_back(chosen[static_cast<std::size_t>(k)] / static_cast<std::int64_t>(perBlob));
    std::sort(blobs.begin(), blobs.end());
    EXPECT_EQ(blobs, (std::vector<std::int64_t>{0, 1, 2}));
    // The steps ran at rising percentiles and dc.
    for (std::size_t s = 1; s < sweep.result.steps.size(); ++s) {
        EXPECT_GT(sweep.result.steps[s].percent, sweep.result.steps[s - 1].percent);
        EXPECT_GE(sweep.result.steps[s].dc, sweep.result.steps[s - 1].dc);
        EXPECT_EQ(sweep.result.steps[s].peaks.size(), 4u);
    }
}

TEST(DcSweep, PercentGridPersistenceAndOptionChecks) {
    const std::vector<double> grid = sweepPercents(0.5, 4.0, 8);
    ASSERT_EQ(grid.size(), 8u);
    EXPECT_EQ(grid.front(), 0.5);
    EXPECT_EQ(grid.back(), 4.0);
    EXPECT_DOUBLE_EQ(grid[1], 1.0);
    EXPECT_THROW(sweepPercents(4.0, 0.5, 8), InvalidInput);
    EXPECT_THROW(sweepPercents(0.0, 4.0, 8), InvalidInput);
    EXPECT_THROW(sweepPercents(0.5, 100.0, 8), InvalidInput);
    EXPECT_THROW(sweepPercents(0.5, 4.0, 1), InvalidInput);

    // Clusters: {0..4} -> 0, {5, 6} -> 1, {7, 8} -> 2, {9} -> 3. Peak 5 is matched by 5 or 6.
    const std::vector<std::int32_t> clusters = {0, 0, 0, 0, 0, 1, 1, 2, 2, 3};
    const std::vector<DcSweepStep> steps = {
        {1.0, 0.1, {3, 5}}, {2.0, 0.2, {6, 9}}, {3.0, 0.3, {6, 3}}, {4.0, 0.4, {9, 2}}};
    EXPECT_EQ(peakPersistence(steps, {5, 3, 8}, clusters), (std::vector<double>{0.75, 0.75, 0.0}));
    EXPECT_THROW(peakPersistence(steps, {10}, clusters), InvalidInput);
    // Step by step: peak 5 is missing at the fourth step, peak 3 at the second, peak 8 everywhere.
    EXPECT_EQ(peakPresence(steps, {5, 3, 8}, clusters),
              (std::vector<std::vector<bool>>{
                  {true, true, true, false}, {true, false, true, true}, {false, false, false, false}}));
    EXPECT_THROW(peakPresence(steps, {10}, clusters), InvalidInput);

    const std::vector<float> x = threeBlobs(20, 1);
    const std::vector<std::int32_t> labels(60, 0);
    const DensityPeaksOptions options;
    DensityPeaksOptions withDc;
    withDc.dc = 1.0;
    EXPECT_THROW(sweepDc(x.data(), 60, 2, withDc, {1.0, 2.0}, 3, {}, labels, Backend::Cpu), InvalidInput);
    EXPECT_THROW(sweepDc(x.data(), 60, 2, options, {1.0, 2.0}, 0, {}, labels, Backend::Cpu), InvalidInput);
    EXPECT_THROW(sweepDc(x.data(), 60, 2, options, {1.0, 2.0}, 3, {60}, labels, Backend::Cpu), InvalidInput);
    EXPECT_THROW(sweepDc(x.data(), 60, 2, options, {1.0, 2.0}, 3, {0}, {0, 1}, Backend::Cpu), InvalidInput);
    JobControl control;
    const Computed<DcSweep> run = sweepDc(x.data(), 60, 2, options, {1.0, 2.0}, 3, {0}, labels, Backend::Cpu, &control);
    EXPECT_EQ(run.backend, Backend::Cpu);
    EXPECT_EQ(run.result.persistence, (std::vector<double>{1.0}));  // one cluster holds every step's peaks
    EXPECT_EQ(run.result.presence, (std::vector<std::vector<bool>>{{true, true}}));
    EXPECT_EQ(control.progress(), 1.0);
    control.cancel();
    EXPECT_THROW(sweepDc(x.data(), 60, 2, options, {1.0, 2.0}, 3, {0}, labels, Backend::Cpu, &control), Cancelled);
}
