#pragma once
// The exact recount of the sparse Gaussian rows of density peaks (rows whose tiled float sum is below
// 1; kernels/density_peaks_rows_kernels.cuh), launched in whole waves of blocks between which a cancel
// and another share's failure are honoured.

#include "clusterlens/job_control.hpp"
#include "cuda/kernels/density_peaks_layout.cuh"
#include "share_group.hpp"

namespace clusterlens::cuda {

/// out[b] = the Gaussian rho of point rows[b] from exact distances to all n points, for b < count
/// (device arrays; d_x: the n x d points row-major, `tiles` the same points in tile layout). A row's
/// value does not depend on the other rows listed, so shares may split the list. O(count·n·d)
/// double-precision work on the calling thread's per-thread stream, about 50 ms per launch; device
/// memory: the listed rows' coordinates as doubles, at most 64 MB at a time. Returns when the work
/// is done; throws Cancelled, or TeamAborted when another share of `team` failed.
void recountGaussianRows(const DpcTiles& tiles, const float* d_x, const int* d_rows, int count, double inverseDc2,
                         double* d_out, JobControl* control, const detail::ShareGroup* team);

}  // namespace clusterlens::cuda
