#pragma once
// Density-peaks clustering on the GPU with the semantics of densityPeaksCpu.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

/// rho, delta, gamma, the nearest-higher links and the density order of n points x d features
/// (row-major, float) on the current CUDA device; the same definitions as densityPeaksCpu.
///
/// Method: tiled all-pairs kernels (tiles of 128 x 128 pairs in shared memory, 8 x 8 register
/// micro-tiles per thread) with the reduction fused into the tile, no pairwise matrix: the rho pass
/// visits each pair i < j once and adds its term to both points; the points are then sorted by
/// density (stable radix sort) and the delta pass searches, for each point, the points before it in
/// that order, half of the pairs; the exact dc percentile counts, histograms and finally collects
/// the distances of a shrinking window (one or two passes for typical data).
/// Arithmetic: the Gaussian terms use float squared differences (2 operations per feature); the
/// passes that only compare distances (cutoff count, delta, dc) use float dot products of
/// mean-centred points (1 fused multiply-add per feature) with a rigorous error bound, and every
/// pair inside that bound is decided again in double from the original values, with the bits of
/// the CPU reference.
///
/// Agreement with densityPeaksCpu: dc is identical (exact, or sampled from the same pairs); cutoff
/// rho is identical; Gaussian rho agrees to ~1e-6 relative (float terms summed in double and in
/// 64-bit fixed point, the same bits run to run; rows with rho < 1, where the fixed-point quantum
/// would dominate, are recomputed from exact distances); delta and nearestHigher are identical for
/// every point whose density order agrees, which for the cutoff kernel is every point.
///
/// Device memory O(n·d): the points row-major, as tiles and as centred tiles (and the centred
/// tiles and rows again in density order during delta), plus O(n) (rho, order, at most a few
/// partial delta results per point, the collect buffer of the dc selection: 8n + 4096 doubles).
/// Time O(n²·d). Work is launched in batches of about 50 ms and `control` is checked between them.
/// Throws what densityPeaksCpu throws, InvalidInput for n >= 2^31 - 128, d > 65536 or coordinates
/// whose squared distances overflow float, OutOfDeviceMemory and CudaError.
DensityPeaksResult densityPeaksCuda(const float* x, std::size_t n, std::size_t d, const DensityPeaksOptions& options,
                                    JobControl* control = nullptr);

/// applyHaloCpu on the GPU, with the same result: one pass of the same tiled engine over the pairs
/// i <= j whose epilogue skips pairs within one cluster, screens d_ij < dc in the dot-product form and
/// decides the pairs inside the error band exactly in double, so the border pairs are the CPU's; the
/// border densities are maxima of the same doubles. Device memory O(n·d) as densityPeaksCuda plus
/// 12 bytes per point and 8 per cluster; time O(n²·d), checked for cancel between ~50 ms batches.
/// `cudaDevices` spreads the pass over several GPUs as DensityPeaksOptions::cudaDevices does (the
/// border densities are maxima: the same labels). Throws what applyHaloCpu throws, InvalidInput for a
/// device that does not exist, OutOfDeviceMemory, CudaError, Cancelled.
std::vector<std::int32_t> applyHaloCuda(const float* x, std::size_t n, std::size_t d, const DensityPeaksResult& result,
                                        const std::vector<std::int32_t>& labels, double dc,
                                        JobControl* control = nullptr, const std::vector<int>& cudaDevices = {});

}  // namespace clusterlens
