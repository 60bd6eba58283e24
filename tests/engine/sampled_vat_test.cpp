// Sampled VAT (sVAT, Hathaway, Bezdek & Huband 2006): maximin picks the farthest point each time,
// every group of the maximin partition is represented in proportion to its size, the sample's VAT is
// the exact VAT of the sampled rows, a seed fixes the sample, and bad sizes are refused.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/vat/sampled_vat.hpp"

using namespace clusterlens;

namespace {

/// Blobs of `sizes` points in the plane (sd 0.5), centred 30 apart along x; row-major (x, y).
std::vector<float> blobs(const std::vector<std::size_t>& sizes, unsigned seed) {
    std::mt19937 random(seed);
    std::normal_distribution<float> noise(0.0f, 0.5f);
    std::vector<float> x;
    for (std::size_t b = 0; b < sizes.size(); ++b)
        for (std::size_t i = 0; i < sizes[b]; ++i) {
            x.push_back(30.0f * static_cast<float>(b) + noise(random));
            x.push_back(noise(random));
        }
    return x;
}

std::size_t blobOf(std::int64_t index, const std::vector<std::size_t>& sizes) {
    std::size_t b = 0;
    for (std::size_t end = sizes[0]; static_cast<std::size_t>(index) >= end; end += sizes[++b]) {
    }
    return b;
}

}  // namespace

TEST(SampledVat, MaximinPicksThePointFarthestFromEveryObjectSoFar) {
    const std::vector<float> x = blobs({40, 40, 40, 40}, 3);
    const std::size_t n = 160;
    std::vector<std::uint32_t> nearest;
    const std::vector<std::int64_t> objects =
        maximinObjects(x.data(), n, 2, Metric::Euclidean, 6, 9, nullptr, &nearest);
    ASSERT_EQ(objects.size(), 6u);
    // Brute force from the same first object.
    std::vector<std::int64_t> expected{objects[0]};
    while (expected.size() < 6) {
        double best = -1.0;
        std::int64_t pick = -1;
        for (std::size_t i = 0; i < n; ++i) {
            double closest = std::numeric_limits<double>::infinity();
            for (std::int64_t o : expected)
                closest = std::min(
                    closest, metricDistance(&x[2 * i], &x[2 * static_cast<std::size_t>(o)], 2, Metric::Euclidean));
            if (closest > best) best = closest, pick = static_cast<std::int64_t>(i);
        }
        expected.push_back(pick);
    }
    EXPECT_EQ(objects, expected);
    // The first four objects lie in four different blobs.
    std::set<std::size_t> seen;
    for (int k = 0; k < 4; ++k) seen.insert(blobOf(objects[static_cast<std::size_t>(k)], {40, 40, 40, 40}));
    EXPECT_EQ(seen.size(), 4u);
    // Each point's nearest object is the closest one.
    for (std::size_t i = 0; i < n; ++i) {
        const auto distance = [&](std::int64_t o) {
            return metricDistance(&x[2 * i], &x[2 * static_cast<std::size_t>(o)], 2, Metric::Euclidean);
        };
        for (std::int64_t o : objects) EXPECT_LE(distance(objects[nearest[i]]), distance(o)) << "point " << i;
    }
}

TEST(SampledVat, EveryGroupIsRepresentedInProportionToItsSize) {
    const std::vector<std::size_t> sizes = {1000, 300, 50};
    const std::vector<float> x = blobs(sizes, 5);
    SampledVatOptions options;
    options.sampleSize = 200;
    options.groups = 3;
    const std::vector<std::int64_t> sample = sVatSample(x.data(), 1350, 2, Metric::Euclidean, options);
    ASSERT_EQ(sample.size(), 200u);
    EXPECT_TRUE(std::is_sorted(sample.begin(), sample.end()));
    EXPECT_EQ(std::set<std::int64_t>(sample.begin(), sample.end()).size(), 200u) << "a point drawn twice";
    std::vector<std::size_t> perBlob(3, 0);
    for (std::int64_t i : sample) ++perBlob[blobOf(i, sizes)];
    // ceil(200·1000/1350) = 149, ceil(44.4) = 45, ceil(7.4) = 8: 202, the two largest give one back each.
    EXPECT_EQ(perBlob, (std::vector<std::size_t>{148, 44, 8}));
}

TEST(SampledVat, TheSamplesVatIsTheExactVatOfTheSampledRowsAndTheSeedFixesIt) {
    const std::vector<std::size_t> sizes = {300, 200, 100};
    const std::vector<float> x = blobs(sizes, 8);
    VatOptions vat;
    vat.backend = Backend::Cpu;
    SampledVatOptions options;
    options.sampleSize = 120;
    options.seed = 4;
    const SampledVat sampled = sampledVat(x.data(), 600, 2, vat, options);
    EXPECT_EQ(sampled.of, 600u);
    ASSERT_EQ(sampled.sample.size(), 120u);
    EXPECT_EQ(sampled.distinguished.size(), 50u);  // min(50, n_s)
    std::vector<float> rows;
    for (std::int64_t i : sampled.sample) rows.insert(rows.end(), &x[2 * i], &x[2 * i] + 2);
    const VatResult exact = computeVat(rows.data(), 120, 2, vat);
    EXPECT_EQ(sampled.vat.order, exact.order);
    EXPECT_EQ(sampled.vat.cut, exact.cut);
    EXPECT_EQ(sampledVat(x.data(), 600, 2, vat, options).sample, sampled.sample);
    options.seed = 5;
    EXPECT_NE(sampledVat(x.data(), 600, 2, vat, options).sample, sampled.sample);
}

TEST(SampledVat, BadSizesAndValuesAreRefusedNamingTheOption) {
    std::vector<float> x = blobs({20, 20}, 1);
    SampledVatOptions options;
    for (std::size_t bad : {std::size_t{1}, std::size_t{41}}) {
        options.sampleSize = bad;
        try {
            sVatSample(x.data(), 40, 2, Metric::Euclidean, options);
            ADD_FAILURE() << "sample " << bad << " accepted";
        } catch (const InvalidInput& error) {
            EXPECT_NE(std::string(error.what()).find("--sample"), std::string::npos) << error.what();
        }
    }
    options.sampleSize = 10;
    options.groups = 11;
    EXPECT_THROW(sVatSample(x.data(), 40, 2, Metric::Euclidean, options), InvalidInput);
    options.groups = 0;
    x[7] = std::nanf("");
    EXPECT_THROW(sVatSample(x.data(), 40, 2, Metric::Euclidean, options), NonFiniteInput);
}
