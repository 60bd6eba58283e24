#pragma once
// How differently two hierarchical clusterings of the same points place each point: the difference
// of its point-height ranks (point heights: Definition 20 of the MHCA GPU thesis, pointHeights()).
// Two trees that agree on a point's depth relative to all others give it a difference of 0, whatever
// their height scales; the cells two trees disagree about come first in mostDiscordant().

#include <cstddef>
#include <vector>

namespace clusterlens {

/// rank_a(i) − rank_b(i) for every point i, with average ranks (1-based; ties share their mean rank,
/// as in spearmanCorrelation()). Positive: the point sits relatively higher in A. Throws InvalidInput
/// when the lengths differ. O(N log N) time, O(N) memory.
std::vector<double> heightRankDifference(const std::vector<double>& heightsA, const std::vector<double>& heightsB);

/// The indices of the `count` points with the largest |rank difference|, the most discordant first;
/// equal magnitudes keep ascending index order. `count` is clamped to the number of points; points with a
/// difference of 0 are never returned (they are placed alike). O(N log count).
std::vector<std::size_t> mostDiscordant(const std::vector<double>& rankDifference, std::size_t count);

}  // namespace clusterlens
