#pragma once
// Transforms applied to a dataset before analysis. Each returns a new dataset
// (the input is left untouched so the GUI can undo) and records itself in provenance.steps.

#include <cstdint>
#include <string>
#include <vector>

#include "clusterlens/dataset.hpp"

namespace clusterlens {

/// asinh(x / cofactor) on the given columns (all when empty). Cofactor 5 for mass, 150 for flow
/// cytometry. O(N*D).
Dataset asinhTransform(const Dataset& in, double cofactor, const std::vector<std::size_t>& columns = {});

/// (x - mean) / sd per column (sd with n-1); constant columns become 0. O(N*D), double accumulation.
Dataset zscoreTransform(const Dataset& in);

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

/// Parses "asinh:5", "asinh" (cofactor 5), "zscore"; applies it. Throws InvalidInput naming the
/// option on anything else.
Dataset applyTransformSpec(const Dataset& in, const std::string& spec);

} // namespace clusterlens
