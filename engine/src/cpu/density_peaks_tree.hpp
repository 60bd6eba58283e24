#pragma once
// Density peaks over a kd-tree: the "tree" index (GDPC, Ji et al., uses a vantage-point tree for the
// same searches). Exact: every distance it compares has the bits of dpc::exactSquaredDistance, and a
// node is skipped or counted whole only where its conservative box bounds decide every point inside
// it (kd_tree.hpp), so dc, rho, delta and the nearest-higher links equal the all-pairs passes, ties
// included. Leaf scans screen each pair by its float squared distance first (cpu::screenLeaf) and
// compute the exact value only where the float value leaves the decision open. Pays off where the
// data have structure at the scale of dc and d is low or moderate.

#include <cstddef>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/job_control.hpp"
#include "cpu/density_peaks_select.hpp"
#include "cpu/kd_tree.hpp"
#include "cpu/thread_pool.hpp"

namespace clusterlens::dpc {

/// Largest d for which Auto takes the tree (beyond it box bounds prune too little).
constexpr std::size_t kTreeMaxDimension = 32;

/// Points per kd-tree leaf for d features. Leaf scans are float-screened (cpu::screenLeaf), 16 lanes
/// at a time, so a large leaf costs little more than a small one, while deep trees spend their time
/// on bounds that prune little beyond a few dimensions: on 200K x 14 cytometry-like data leaves of
/// 384 points took the exact-dc cutoff run from 35.6 s (24 points) to 15.7 s on 2 cores, 768 about
/// the same, 1536 slower (docs/benchmarks.md). In 1 to 3 dimensions small leaves still prune best.
inline std::size_t treeLeafSize(std::size_t d) {
    return d <= 3 ? 24 : 384;
}

/// Cutoff densities |{j != i : d_ij < dc}| by one range count per point over the points after it in
/// the tree's order, each pair counted for both ends. Time O(n · points near the sphere of radius
/// dc) / 2, memory 4 bytes per point and per node for each thread.
std::vector<double> treeCutoffRho(const cpu::KdTree& tree, double dc, cpu::ThreadPool& pool, JobControl* control);

/// delta and nearest-higher links for result.rho / result.densityOrder (filled in): a depth-first
/// nearest search per point, nearer child first, skipping nodes farther than the best candidate or
/// without a point of density >= rho_i. The densest point scans all points for its largest distance.
void treeDelta(const cpu::KdTree& tree, DensityPeaksResult& result, cpu::ThreadPool& pool, JobControl* control);

/// One window pass of the exact dc selection (density_peaks_select.hpp) over the pairs i < j, by a
/// range search per point: nodes entirely below lo are counted whole, nodes entirely at or above hi
/// skipped. Counts and histogram equal the all-pairs pass. Progress from `from` to `to`.
PairWindowCounts treeWindowPass(const cpu::KdTree& tree, const PairWindow& window, cpu::ThreadPool& pool,
                                JobControl* control, double from, double to);

}  // namespace clusterlens::dpc
