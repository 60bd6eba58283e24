// PCA: a decomposition built by hand (known components, variances and scores), then random data
// against the definition (orthonormal components that diagonalise the covariance, decreasing
// variance, reconstruction error = the discarded eigenvalues), and scikit-learn's sign convention.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "clusterlens/errors.hpp"
#include "clusterlens/pca.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

/// Three mutually orthogonal zero-mean columns of a Hadamard matrix, n = 8.
const double kH1[8] = {1, 1, 1, 1, -1, -1, -1, -1};
const double kH2[8] = {1, 1, -1, -1, 1, 1, -1, -1};
const double kH3[8] = {1, -1, 1, -1, 1, -1, 1, -1};
/// An orthonormal basis of R^3 whose vectors have no two entries of equal magnitude.
const double kV[3][3] = {{2.0 / 7, 3.0 / 7, 6.0 / 7}, {3.0 / 7, -6.0 / 7, 2.0 / 7}, {6.0 / 7, 2.0 / 7, -3.0 / 7}};

/// x_i = mean + 4 h1_i v1 + 2 h2_i v2 + h3_i v3: covariance V diag(128, 32, 8)/7 V^T.
Dataset handMade() {
    Dataset data;
    data.n = 8;
    data.d = 3;
    data.features = {"a", "b", "c"};
    const double mean[3] = {10, -5, 3};
    for (std::size_t i = 0; i < 8; ++i)
        for (std::size_t j = 0; j < 3; ++j)
            data.exact.push_back(mean[j] + 4 * kH1[i] * kV[0][j] + 2 * kH2[i] * kV[1][j] + kH3[i] * kV[2][j]);
    data.values.assign(data.exact.begin(), data.exact.end());
    return data;
}

Dataset randomCorrelated(std::size_t n, std::size_t d, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    std::vector<double> mix(d * d);
    for (double& m : mix) m = normal(rng);
    Dataset data;
    data.n = n;
    data.d = d;
    for (std::size_t j = 0; j < d; ++j) data.features.push_back("g" + std::to_string(j));
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<double> z(d);
        for (std::size_t j = 0; j < d; ++j) z[j] = normal(rng) * (1.0 + static_cast<double>(j));
        for (std::size_t j = 0; j < d; ++j) {
            double x = 3.0 * static_cast<double>(j);
            for (std::size_t k = 0; k < d; ++k) x += mix[j * d + k] * z[k];
            data.exact.push_back(x);
        }
    }
    data.values.assign(data.exact.begin(), data.exact.end());
    return data;
}

double dot(const double* a, const double* b, std::size_t d) {
    double sum = 0;
    for (std::size_t j = 0; j < d; ++j) sum += a[j] * b[j];
    return sum;
}

}  // namespace

TEST(Pca, RecoversAHandMadeDecompositionWithSklearnSigns) {
    const PcaResult pca = computePca(handMade(), 3);
    ASSERT_EQ(pca.explainedVariance.size(), 3u);
    EXPECT_NEAR(pca.explainedVariance[0], 128.0 / 7, 1e-12);
    EXPECT_NEAR(pca.explainedVariance[1], 32.0 / 7, 1e-12);
    EXPECT_NEAR(pca.explainedVariance[2], 8.0 / 7, 1e-12);
    EXPECT_NEAR(pca.totalVariance, 168.0 / 7, 1e-12);
    EXPECT_NEAR(pca.mean[0], 10.0, 1e-12);
    // svd_flip: the largest entries of v1 (6/7) and v3 (6/7) are positive already; v2's (-6/7) is
    // negative, so the second component comes out negated.
    const double expected[3][3] = {
        {2.0 / 7, 3.0 / 7, 6.0 / 7}, {-3.0 / 7, 6.0 / 7, -2.0 / 7}, {6.0 / 7, 2.0 / 7, -3.0 / 7}};
    for (std::size_t c = 0; c < 3; ++c)
        for (std::size_t j = 0; j < 3; ++j)
            EXPECT_NEAR(pca.components[c * 3 + j], expected[c][j], 1e-12) << c << "," << j;

    const Dataset scores = pcaTransform(handMade(), 2);
    ASSERT_EQ(scores.d, 2u);
    for (std::size_t i = 0; i < 8; ++i) {
        EXPECT_NEAR(scores.exact[i * 2], 4 * kH1[i], 1e-12) << i;
        EXPECT_NEAR(scores.exact[i * 2 + 1], -2 * kH2[i], 1e-12) << i;
    }
    EXPECT_EQ(scores.features, (std::vector<std::string>{"PC1", "PC2"}));
    EXPECT_EQ(scores.provenance.steps.back(), "pca(k=2, 95.2% of variance)");  // 160 / 168
}

TEST(Pca, RandomDataComponentsDiagonaliseTheCovarianceAndReconstructionErrorIsTheRest) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    for (std::size_t d : {12u, 61u}) {
        SCOPED_TRACE(d);
        const Dataset data = randomCorrelated(400, d, seed + d);
        const std::size_t k = d / 3;
        const PcaResult pca = computePca(data, k);
        // The covariance, recomputed here from its definition.
        std::vector<double> cov(d * d, 0.0);
        for (std::size_t i = 0; i < data.n; ++i)
            for (std::size_t a = 0; a < d; ++a)
                for (std::size_t b = 0; b < d; ++b)
                    cov[a * d + b] +=
                        (data.exact[i * d + a] - pca.mean[a]) * (data.exact[i * d + b] - pca.mean[b]) / 399.0;
        const double scale = pca.explainedVariance[0];
        for (std::size_t c = 0; c < k; ++c) {
            const double* v = &pca.components[c * d];
            if (c > 0) {
                EXPECT_GE(pca.explainedVariance[c - 1], pca.explainedVariance[c]);
            }
            for (std::size_t c2 = 0; c2 < k; ++c2)
                EXPECT_NEAR(dot(v, &pca.components[c2 * d], d), c == c2 ? 1.0 : 0.0, 1e-12);
            for (std::size_t a = 0; a < d; ++a)  // cov v = lambda v
                EXPECT_NEAR(dot(&cov[a * d], v, d), pca.explainedVariance[c] * v[a], 1e-9 * scale);
            const double* largest =
                std::max_element(v, v + d, [](double x, double y) { return std::abs(x) < std::abs(y); });
            EXPECT_GT(*largest, 0.0);
        }
        // Mean squared reconstruction error from k components (divisor n - 1) = discarded variance.
        const Dataset scores = pcaTransform(data, k);
        double error = 0.0, kept = 0.0;
        for (std::size_t i = 0; i < data.n; ++i)
            for (std::size_t a = 0; a < d; ++a) {
                double x = pca.mean[a];
                for (std::size_t c = 0; c < k; ++c) x += scores.exact[i * k + c] * pca.components[c * d + a];
                error += (data.exact[i * d + a] - x) * (data.exact[i * d + a] - x) / 399.0;
            }
        for (double v : pca.explainedVariance) kept += v;
        EXPECT_NEAR(error, pca.totalVariance - kept, 1e-9 * pca.totalVariance);
    }
}

TEST(Pca, RefusesWhatItCannotCompute) {
    const Dataset data = handMade();
    EXPECT_THROW(computePca(data, 0), InvalidInput);
    EXPECT_THROW(computePca(data, 4), InvalidInput);
    Dataset one = data;
    one.n = 1;
    one.values.resize(3);
    one.exact.resize(3);
    EXPECT_THROW(computePca(one, 1), InvalidInput);
    Dataset nan = data;
    nan.values[4] = std::nanf("");
    nan.exact[4] = std::nan("");
    EXPECT_THROW(computePca(nan, 1), NonFiniteInput);
    Dataset wide;
    wide.n = 2;
    wide.d = kPcaMaxFeatures + 1;
    wide.values.assign(2 * wide.d, 1.0f);
    wide.features.assign(wide.d, "g");
    try {
        computePca(wide, 2);
        FAIL() << "too many features";
    } catch (const InvalidInput& e) {
        EXPECT_THAT(e.what(), testing::HasSubstr("select features with --columns first"));
    }
}
