#pragma once
// Classic agglomerative linkages on the Euclidean distance, equal to scipy.cluster.hierarchy.linkage
// (scipy 1.10) on the same points: same merge sequence, same labels, same heights (the same double
// arithmetic, so ties are broken as scipy breaks them).
//
//   single                         minimum spanning tree (dense Prim, O(N^2 D) time, O(N D) memory)
//   complete, average, weighted,   nearest-neighbour chain on a stored distance matrix
//   ward                           (Müllner 2011, fastcluster; scipy's nn_chain)
//   centroid, median               generic algorithm with a priority queue of nearest-neighbour
//                                  candidates (Müllner 2011 "generic_linkage"; scipy's fast_linkage)
//
// Heights are Euclidean: ward, centroid and median square the distances inside the Lance–Williams
// update and take the square root of the result, as scipy does (ward height of A and B is
// sqrt(2|A||B|/(|A|+|B|)) * ||mean(A) - mean(B)||). Rows of single, complete, average, weighted and
// ward are sorted by height (stable), centroid and median rows are in merge order and may decrease.

#include <cstddef>
#include <cstdint>
#include <string>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

enum class LinkageMethod { Single, Complete, Average, Weighted, Centroid, Median, Ward };

/// "single", "complete", "average", "weighted", "centroid", "median" or "ward" (lower case).
/// Throws InvalidInput naming --linkage otherwise.
LinkageMethod parseLinkageMethod(const std::string& name);
/// The lower-case name parseLinkageMethod() accepts.
std::string linkageMethodName(LinkageMethod method);

/// Largest distance matrix the stored-matrix methods allocate: N(N-1)/2 doubles <= 16 GiB
/// (N <= 65 536). Single linkage needs no matrix and has no such limit.
constexpr std::uint64_t kMaxDistanceMatrixBytes = std::uint64_t{16} << 30;

/// Hierarchical clustering of n points x d features (row-major) with the Euclidean distance.
/// Distances are accumulated in double precision from the given values.
/// Memory: single O(N D); all other methods store N(N-1)/2 doubles (7.2 GiB at N = 44 000) and
/// refuse with InvalidInput above kMaxDistanceMatrixBytes. Time: single, complete, average,
/// weighted and ward O(N^2 D + N^2); centroid and median O(N^2) typically, O(N^3) worst case.
/// Multithreaded (distance matrix, Prim's step, the scans of each merge).
/// Throws InvalidInput (n < 2, d = 0, matrix too large), NonFiniteInput (NaN/Inf), Cancelled.
Linkage classicLinkageCpu(const float* x, std::size_t n, std::size_t d, LinkageMethod method,
                          JobControl* control = nullptr);
Linkage classicLinkageCpu(const double* x, std::size_t n, std::size_t d, LinkageMethod method,
                          JobControl* control = nullptr);

}  // namespace clusterlens
