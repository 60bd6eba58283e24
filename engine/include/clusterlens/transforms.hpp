#pragma once
// Transforms applied to a dataset before analysis. Each returns a new dataset
// (the input is left untouched so the GUI can undo) and records itself in provenance.steps.
// Those given a JobControl look at it every few thousand rows: a cancel() throws Cancelled within
// milliseconds, and the input is unchanged.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "clusterlens/dataset.hpp"

namespace clusterlens {

class JobControl;

/// asinh(x / cofactor) on the given columns (all when empty). Cofactor 5 for mass, 150 for flow
/// cytometry. O(N*D).
Dataset asinhTransform(const Dataset& in, double cofactor, const std::vector<std::size_t>& columns = {},
                       const JobControl* control = nullptr);

/// (x - mean) / sd per column (sd with n-1); constant columns become 0. O(N*D), double accumulation.
Dataset zscoreTransform(const Dataset& in, const JobControl* control = nullptr);

/// scanpy's normalize_total: every cell (row) scaled so that its values sum to `targetSum`, or
/// without one to the median total of the cells whose total is not 0; rows summing to 0 stay 0.
/// Throws InvalidInput when targetSum is not a positive number or every row sums to 0. O(N*D).
Dataset normalizeTotal(const Dataset& in, std::optional<double> targetSum = std::nullopt,
                       const JobControl* control = nullptr);

/// log(1 + x) of every value (natural logarithm, as scanpy's log1p). Throws InvalidInput on a value
/// <= -1. O(N*D).
Dataset log1pTransform(const Dataset& in, const JobControl* control = nullptr);

/// Keeps the given columns in the given order. Throws InvalidInput on an index out of range or a
/// duplicate.
Dataset selectColumns(const Dataset& in, const std::vector<std::size_t>& columns);

/// Resolves feature names (exact, else case-insensitive) or 1-based numbers to column indices;
/// throws InvalidInput naming the unknown column, or saying that a named text column is an annotation.
std::vector<std::size_t> resolveColumns(const Dataset& in, const std::vector<std::string>& names);

/// The indices `subsample` keeps: m of 0..n-1, ascending, reproducible for a given seed (all n when
/// m >= n). O(n).
std::vector<std::size_t> subsampleIndices(std::size_t n, std::size_t m, std::uint64_t seed);

/// Uniform random subsample of m points without replacement, kept in input order, reproducible
/// for a given seed. m >= n returns a copy. O(N).
Dataset subsample(const Dataset& in, std::size_t m, std::uint64_t seed);

/// Parses and applies a transform spec: steps joined by commas, applied in order, each one of
/// "asinh:COFACTOR" ("asinh" = cofactor 5), "zscore", "normalize-total[:TARGET]", "log1p", "pca:K"
/// (pca.hpp), e.g. "normalize-total,log1p,pca:30". Throws InvalidInput naming --transform on
/// anything else.
Dataset applyTransformSpec(const Dataset& in, const std::string& spec, const JobControl* control = nullptr);

}  // namespace clusterlens
