#pragma once
// Principal component analysis of a dataset (count matrices after normalise-total and log1p, as
// scanpy's `sc.pp.pca`): the top K eigenvectors of the sample covariance of the centred data.

#include <cstddef>
#include <vector>

#include "clusterlens/dataset.hpp"

namespace clusterlens {

class JobControl;

/// K principal components of n points in d dimensions.
struct PcaResult {
    std::size_t k = 0;
    std::size_t d = 0;
    std::vector<double> mean;  ///< d column means (the centre)
    /// k x d row-major: orthonormal components, by decreasing variance. Sign convention of
    /// scikit-learn's svd_flip(u_based_decision=False) (sklearn >= 1.5 PCA): the entry of largest
    /// absolute value in each component is positive (the first such entry on ties).
    std::vector<double> components;
    std::vector<double> explainedVariance;  ///< k eigenvalues of the covariance (divisor n - 1)
    double totalVariance = 0.0;             ///< sum of all d eigenvalues (the trace)
};

/// Exact PCA through the eigen-decomposition of the d x d covariance (symmetric QR). Reads
/// Dataset::valuesAsDouble(). Time O(n d^2 + d^3) (the covariance on all CPU threads, the
/// decomposition on one), memory 3 d^2 doubles plus n*d for the values. Throws InvalidInput naming
/// `pca` when k is 0 or above d, n < 2, a value is NaN/Inf, or d exceeds kPcaMaxFeatures.
/// `control` (when given) is checked every few thousand rows and per covariance row of each block of
/// 256 points: a cancel() throws Cancelled (the eigen-decomposition itself, O(d^3), is not cut short).
PcaResult computePca(const Dataset& in, std::size_t k, const JobControl* control = nullptr);

/// The largest d of computePca (3 d^2 doubles = 400 MB at 4096): select genes (--columns) first.
constexpr std::size_t kPcaMaxFeatures = 4096;

/// The data projected on its top K components: n x K scores (x - mean) . component, features
/// "PC1".."PCK", descriptions dropped; names, labels, annotations and embeddings kept; `exact` holds
/// the scores in double when the input had exact values. Records "pca(k=K, V% of variance)".
/// Cancelled like computePca, and between blocks of rows of the projection.
Dataset pcaTransform(const Dataset& in, std::size_t k, const JobControl* control = nullptr);

}  // namespace clusterlens
