#pragma once
// Making decreasing merge heights monotonic for display, as mhca's fixNonMonotHca (tsieger/mhca,
// R/fixNonMonotHca.R). MHCA (and centroid/median linkage) heights can decrease; the fixed heights no
// longer describe the data, they only let a dendrogram be drawn without inversions.

#include <optional>
#include <string>
#include <vector>

#include "clusterlens/hca/linkage.hpp"

namespace clusterlens {

enum class MonotonicFix {
    /// Each height below the last monotonic one becomes that one plus eps (mhca's default).
    Eps,
    /// Each run of heights below the last monotonic one is spread evenly between its neighbours.
    Halfway
};

/// Fixed copy of `heights` (merge order). eps (Eps only): default half of the smallest positive
/// increase between consecutive heights, or 1 when there is none. Heights already monotonic are
/// returned unchanged. O(n) time and memory.
std::vector<double> fixNonMonotonicHeights(const std::vector<double>& heights, MonotonicFix method = MonotonicFix::Eps,
                                           std::optional<double> eps = std::nullopt);

/// The linkage with its heights fixed; merges, ids and sizes unchanged.
Linkage fixNonMonotonic(const Linkage& linkage, MonotonicFix method = MonotonicFix::Eps,
                        std::optional<double> eps = std::nullopt);

/// "eps" | "halfway". Throws InvalidInput naming `option` otherwise.
MonotonicFix parseMonotonicFix(const std::string& text, const std::string& option = "--fix-monotonic");

}  // namespace clusterlens
