#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/synthetic.hpp"

using namespace clusterlens;

namespace {

SyntheticOptions smallOptions(std::uint64_t seed) {
    SyntheticOptions o;
    o.n = 5000;
    o.d = 6;
    o.clusters = 5;
    o.seed = seed;
    return o;
}

}  // namespace

TEST(Synthetic, SameSeedGivesIdenticalData) {
    const Dataset a = makeCytometryLike(smallOptions(7));
    const Dataset b = makeCytometryLike(smallOptions(7));
    EXPECT_EQ(a.values, b.values);
    EXPECT_EQ(a.labels, b.labels);
    const Dataset c = makeCytometryLike(smallOptions(8));
    EXPECT_NE(a.values, c.values);
}

TEST(Synthetic, ShapeLabelsAndNoiseShare) {
    const SyntheticOptions o = smallOptions(3);
    const Dataset data = makeCytometryLike(o);
    EXPECT_NO_THROW(data.validateShape());
    EXPECT_EQ(data.n, o.n);
    EXPECT_EQ(data.d, o.d);
    EXPECT_EQ(data.countNonFinite(), 0u);
    std::vector<std::size_t> counts(o.clusters, 0);
    std::size_t noise = 0;
    for (std::int32_t label : data.labels) {
        ASSERT_GE(label, -1);
        ASSERT_LT(label, static_cast<std::int32_t>(o.clusters));
        if (label < 0)
            ++noise;
        else
            ++counts[static_cast<std::size_t>(label)];
    }
    EXPECT_EQ(noise, 150u);  // 3 % of 5000
    for (std::size_t c : counts) EXPECT_GT(c, 0u);
    // Sizes are random, not equal.
    EXPECT_NE(*std::min_element(counts.begin(), counts.end()), *std::max_element(counts.begin(), counts.end()));
}

TEST(Synthetic, NoisePointsLieInsideTheBoundingBoxOfThePopulations) {
    const Dataset data = makeCytometryLike(smallOptions(11));
    std::vector<float> lo(data.d, 1e30f), hi(data.d, -1e30f);
    for (std::size_t i = 0; i < data.n; ++i)
        if (data.labels[i] >= 0)
            for (std::size_t j = 0; j < data.d; ++j) {
                lo[j] = std::min(lo[j], data.at(i, j));
                hi[j] = std::max(hi[j], data.at(i, j));
            }
    for (std::size_t i = 0; i < data.n; ++i)
        if (data.labels[i] < 0)
            for (std::size_t j = 0; j < data.d; ++j) {
                EXPECT_GE(data.at(i, j), lo[j]);
                EXPECT_LE(data.at(i, j), hi[j]);
            }
}

TEST(Synthetic, PopulationsAreAnisotropicAndRotated) {
    SyntheticOptions o = smallOptions(5);
    o.n = 20000;
    o.d = 3;
    o.clusters = 1;
    o.noiseFraction = 0.0;
    const Dataset data = makeCytometryLike(o);
    double mean[3] = {0, 0, 0};
    for (std::size_t i = 0; i < data.n; ++i)
        for (std::size_t j = 0; j < 3; ++j) mean[j] += data.at(i, j) / static_cast<double>(data.n);
    double cov[3][3] = {};
    for (std::size_t i = 0; i < data.n; ++i)
        for (std::size_t a = 0; a < 3; ++a)
            for (std::size_t b = 0; b < 3; ++b)
                cov[a][b] += (data.at(i, a) - mean[a]) * (data.at(i, b) - mean[b]) / static_cast<double>(data.n);
    // A random rotation makes the covariance non-diagonal: some correlation is clearly non-zero.
    double maxCorrelation = 0.0;
    for (std::size_t a = 0; a < 3; ++a)
        for (std::size_t b = a + 1; b < 3; ++b)
            maxCorrelation = std::max(maxCorrelation, std::abs(cov[a][b]) / std::sqrt(cov[a][a] * cov[b][b]));
    EXPECT_GT(maxCorrelation, 0.05);
    for (std::size_t a = 0; a < 3; ++a) {
        EXPECT_GT(cov[a][a], o.minScale * o.minScale * 0.8);
        EXPECT_LT(cov[a][a], o.maxScale * o.maxScale * 1.2);
    }
}

TEST(Synthetic, RejectsBadOptions) {
    SyntheticOptions o;
    o.n = 1;
    EXPECT_THROW(makeCytometryLike(o), InvalidInput);
    o = SyntheticOptions{};
    o.d = 0;
    EXPECT_THROW(makeCytometryLike(o), InvalidInput);
    o = SyntheticOptions{};
    o.noiseFraction = 1.0;
    EXPECT_THROW(makeCytometryLike(o), InvalidInput);
}
