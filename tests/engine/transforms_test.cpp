#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "clusterlens/errors.hpp"
#include "clusterlens/transforms.hpp"

using namespace clusterlens;

namespace {

Dataset smallDataset() {
    Dataset data;
    data.n = 4;
    data.d = 3;
    data.features = {"FSC-A", "CD3", "CD19"};
    data.exact = {100, -5, 0, 200, 0, 10, 300, 5, 20, 400, 150, 30};
    data.values.assign(data.exact.begin(), data.exact.end());
    data.labels = {0, 1, 1, 0};
    return data;
}

}  // namespace

TEST(Transforms, AsinhUsesCofactorOnChosenColumnsOnly) {
    Dataset out = asinhTransform(smallDataset(), 150.0, {1, 2});
    EXPECT_EQ(out.exact[0], 100.0);  // FSC-A untouched
    EXPECT_DOUBLE_EQ(out.exact[1], std::asinh(-5.0 / 150.0));
    EXPECT_DOUBLE_EQ(out.exact[10], std::asinh(1.0));
    EXPECT_FLOAT_EQ(out.values[10], static_cast<float>(std::asinh(1.0)));
    EXPECT_EQ(out.provenance.steps.back(), "asinh(cofactor=150)");
    EXPECT_THROW(asinhTransform(smallDataset(), 0.0), InvalidInput);
}

TEST(Transforms, ZscoreGivesZeroMeanUnitSampleSd) {
    Dataset out = zscoreTransform(smallDataset());
    for (std::size_t j = 0; j < 3; ++j) {
        double mean = 0, ss = 0;
        for (std::size_t i = 0; i < 4; ++i) mean += out.exact[i * 3 + j];
        mean /= 4;
        for (std::size_t i = 0; i < 4; ++i) ss += (out.exact[i * 3 + j] - mean) * (out.exact[i * 3 + j] - mean);
        EXPECT_NEAR(mean, 0.0, 1e-12);
        EXPECT_NEAR(ss / 3.0, 1.0, 1e-12);
    }
}

TEST(Transforms, ZscoreMapsConstantColumnToZero) {
    Dataset data = smallDataset();
    for (std::size_t i = 0; i < 4; ++i) data.exact[i * 3] = data.values[i * 3] = 7;
    Dataset out = zscoreTransform(data);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(out.exact[i * 3], 0.0);
}

TEST(Transforms, SelectColumnsByNameCaseInsensitiveOrNumber) {
    Dataset data = smallDataset();
    auto columns = resolveColumns(data, {"cd19", "1"});
    EXPECT_EQ(columns, (std::vector<std::size_t>{2, 0}));
    Dataset out = selectColumns(data, columns);
    EXPECT_EQ(out.d, 2u);
    EXPECT_EQ(out.features, (std::vector<std::string>{"CD19", "FSC-A"}));
    EXPECT_EQ(out.exact[2], 10.0);
    EXPECT_EQ(out.exact[3], 200.0);
    EXPECT_THROW(resolveColumns(data, {"CD8"}), InvalidInput);
    EXPECT_THROW(selectColumns(data, {0, 0}), InvalidInput);
    EXPECT_THROW(selectColumns(data, {5}), InvalidInput);
}

TEST(Transforms, SubsampleIsReproducibleOrderedAndCarriesLabels) {
    Dataset data;
    data.n = 1000;
    data.d = 1;
    data.features = {"x"};
    for (int i = 0; i < 1000; ++i) {
        data.values.push_back(static_cast<float>(i));
        data.labels.push_back(i % 7);
    }
    Dataset a = subsample(data, 100, 42), b = subsample(data, 100, 42), c = subsample(data, 100, 43);
    EXPECT_EQ(a.n, 100u);
    EXPECT_EQ(a.values, b.values);
    EXPECT_NE(a.values, c.values);
    for (std::size_t k = 1; k < a.n; ++k) EXPECT_LT(a.values[k - 1], a.values[k]);
    for (std::size_t k = 0; k < a.n; ++k) EXPECT_EQ(a.labels[k], static_cast<int>(a.values[k]) % 7);
    EXPECT_EQ(subsample(data, 5000, 1).n, 1000u);
    EXPECT_THROW(subsample(data, 0, 1), InvalidInput);
}

TEST(Transforms, TransformSpecParsing) {
    EXPECT_EQ(applyTransformSpec(smallDataset(), "asinh:5").provenance.steps.back(), "asinh(cofactor=5)");
    EXPECT_EQ(applyTransformSpec(smallDataset(), "zscore").provenance.steps.back(), "zscore");
    EXPECT_THROW(applyTransformSpec(smallDataset(), "log"), InvalidInput);
    EXPECT_THROW(applyTransformSpec(smallDataset(), "asinh:abc"), InvalidInput);
}
