// Count-matrix transforms (scanpy's normalize_total and log1p) and transform chains, against values
// computed by hand.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "clusterlens/errors.hpp"
#include "clusterlens/transforms.hpp"

using namespace clusterlens;

namespace {

/// Cells x genes counts; row totals 4, 0, 10, 10, 2.
Dataset counts() {
    Dataset data;
    data.n = 5;
    data.d = 3;
    data.features = {"CD3E", "MS4A1", "LYZ"};
    data.values = {1, 0, 3, 0, 0, 0, 2, 6, 2, 5, 5, 0, 1, 1, 0};
    data.pointNames = {"c1", "c2", "c3", "c4", "c5"};
    return data;
}

std::vector<float> row(const Dataset& data, std::size_t i) {
    return {data.values.begin() + static_cast<std::ptrdiff_t>(i * data.d),
            data.values.begin() + static_cast<std::ptrdiff_t>((i + 1) * data.d)};
}

}  // namespace

TEST(CountTransforms, NormalizeTotalScalesEveryCellToTheMedianOfTheNonZeroTotals) {
    // Non-zero totals 2, 4, 10, 10: numpy's median (4 + 10) / 2 = 7.
    const Dataset out = normalizeTotal(counts());
    EXPECT_EQ(row(out, 0), (std::vector<float>{1.75f, 0.0f, 5.25f}));
    EXPECT_EQ(row(out, 1), (std::vector<float>{0.0f, 0.0f, 0.0f}));  // an empty cell stays empty
    EXPECT_EQ(row(out, 2), (std::vector<float>{1.4f, 4.2f, 1.4f}));
    EXPECT_EQ(row(out, 4), (std::vector<float>{3.5f, 3.5f, 0.0f}));
    EXPECT_EQ(out.provenance.steps.back(), "normalize_total(target_sum=7)");
    EXPECT_EQ(out.pointNames, counts().pointNames);

    Dataset odd = counts();  // without the last cell: totals 4, 10, 10 -> median 10
    odd.n = 4;
    odd.values.resize(12);
    EXPECT_EQ(row(normalizeTotal(odd), 0), (std::vector<float>{2.5f, 0.0f, 7.5f}));
}

TEST(CountTransforms, NormalizeTotalToATargetSumAndItsRefusals) {
    const Dataset out = normalizeTotal(counts(), 1e4);
    EXPECT_EQ(row(out, 0), (std::vector<float>{2500.0f, 0.0f, 7500.0f}));
    EXPECT_EQ(row(out, 3), (std::vector<float>{5000.0f, 5000.0f, 0.0f}));
    EXPECT_EQ(out.provenance.steps.back(), "normalize_total(target_sum=10000)");
    EXPECT_THROW(normalizeTotal(counts(), 0.0), InvalidInput);
    Dataset empty = counts();
    std::fill(empty.values.begin(), empty.values.end(), 0.0f);
    EXPECT_THROW(normalizeTotal(empty), InvalidInput);
}

TEST(CountTransforms, Log1pIsTheNaturalLogarithmOfOnePlusTheValue) {
    Dataset data = counts();
    data.exact = {0, std::exp(1.0) - 1, 1, 0, 0, 0, 2, 6, 2, 5, 5, 0, 1, 1, 0};
    const Dataset out = log1pTransform(data);
    EXPECT_EQ(out.exact[0], 0.0);
    EXPECT_DOUBLE_EQ(out.exact[1], 1.0);
    EXPECT_DOUBLE_EQ(out.exact[2], std::log(2.0));
    EXPECT_DOUBLE_EQ(out.exact[7], std::log(7.0));
    EXPECT_EQ(out.values[7], static_cast<float>(std::log(7.0)));
    EXPECT_EQ(out.provenance.steps.back(), "log1p");
    data.exact[4] = -1.0;
    EXPECT_THROW(log1pTransform(data), InvalidInput);
}

TEST(CountTransforms, SpecsChainWithCommasInOrder) {
    const Dataset out = applyTransformSpec(counts(), "normalize-total:100,log1p");
    EXPECT_EQ(out.values[0], static_cast<float>(std::log1p(25.0)));  // 1 of 4 -> 25 of 100
    EXPECT_EQ(out.values[2], static_cast<float>(std::log1p(75.0)));
    EXPECT_EQ(out.values[6], static_cast<float>(std::log1p(20.0)));  // 2 of 10
    EXPECT_EQ(out.provenance.steps, (std::vector<std::string>{"normalize_total(target_sum=100)", "log1p"}));
    EXPECT_EQ(applyTransformSpec(counts(), "normalize-total").provenance.steps.back(), "normalize_total(target_sum=7)");
    const Dataset pca = applyTransformSpec(counts(), "normalize-total,log1p,pca:2");
    EXPECT_EQ(pca.d, 2u);
    EXPECT_EQ(pca.features, (std::vector<std::string>{"PC1", "PC2"}));
    EXPECT_EQ(pca.provenance.steps.size(), 3u);
    for (const char* bad : {"pca:0", "pca:2.5", "pca:x", "pca", "normalize-total:-1", ",log1p", "log1p,", "log2"})
        EXPECT_THROW(applyTransformSpec(counts(), bad), InvalidInput) << bad;
}
