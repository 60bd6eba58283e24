#pragma once
// Linear assignment problem (minimum-cost matching of rows to columns).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace clusterlens {

/// rows x cols cost matrix, row-major. Rectangular matrices are padded to square with dummy
/// entries valued above the largest cost (as in the seed blog "A Greedy Approximation Algorithm for
/// the Linear Assignment Problem"); rows matched to a dummy column get -1.
/// Returns, for each row, its column or -1.
///
/// Exact Hungarian method (Kuhn 1955, Munkres 1957) in the shortest-augmenting-path form with
/// potentials: O(k^3) time, O(k^2) memory for k = max(rows, cols).
std::vector<std::int64_t> hungarianAssignment(const std::vector<double>& cost, std::size_t rows, std::size_t cols);

/// Greedy approximation of the seed blog: repeatedly take the smallest uncovered entry and cover
/// its row and column. O(k^2 log k) (one sort of all entries); ties by (row, col). Not optimal.
std::vector<std::int64_t> greedyAssignment(const std::vector<double>& cost, std::size_t rows, std::size_t cols);

/// Sum of cost over matched (row, col) pairs.
double assignmentCost(const std::vector<double>& cost, std::size_t cols, const std::vector<std::int64_t>& assignment);

}  // namespace clusterlens
