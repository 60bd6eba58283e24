#pragma once

#include <vector>

namespace clusterlens {

/// Pearson correlation of two equally long vectors (two-pass, double). NaN when a vector is
/// constant. Throws InvalidInput on a length mismatch or fewer than 2 values. O(N).
double pearsonCorrelation(const std::vector<double>& x, const std::vector<double>& y);

/// Spearman rank correlation: Pearson of the average ranks (ties get the mean rank). O(N log N).
double spearmanCorrelation(const std::vector<double>& x, const std::vector<double>& y);

/// Average ranks (1-based), ties share their mean rank.
std::vector<double> averageRanks(const std::vector<double>& values);

}  // namespace clusterlens
