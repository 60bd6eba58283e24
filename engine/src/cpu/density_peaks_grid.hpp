#pragma once
// A uniform grid over low-dimensional points (d <= 3) for the cutoff density and the nearest-higher
// search of density peaks: the "grid for low D" alternative to GDPC's VP-tree (Ji et al.). Exact: every
// distance it uses has the bits of dpc::exactSquaredDistance, and a search stops only when no point
// outside the cells it has visited can be as close as its best candidate, so rho, delta and the links
// equal the brute-force passes.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/job_control.hpp"
#include "cpu/thread_pool.hpp"

namespace clusterlens::dpc {

/// Largest dimension the grid serves: beyond it the 3^d neighbour cells outnumber the points they prune.
constexpr std::size_t kGridMaxDimension = 3;

/// Cutoff densities |{j != i : d_ij < dc}| for n points x d features (d <= 3). Cells of side >= dc;
/// O(n + cells) memory; time O(n · points in the 3^d neighbouring cells).
std::vector<double> gridCutoffRho(const float* x, std::size_t n, std::size_t d, double dc, cpu::ThreadPool& pool,
                                  JobControl* control);

/// delta and nearest-higher links for result.rho / result.densityOrder (filled in), by a ring search
/// from each point's cell; the densest point gets its largest distance. Time O(n · visited points).
void gridDelta(const float* x, std::size_t n, std::size_t d, double dc, DensityPeaksResult& result,
               cpu::ThreadPool& pool, JobControl* control);

}  // namespace clusterlens::dpc
