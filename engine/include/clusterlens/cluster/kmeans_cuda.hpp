#pragma once
// k-means on the GPU with the semantics of kmeansCpu: same seed, same centres, same labels.

#include <cstddef>

#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

/// How the GPU assigns the points to their nearest centroids. Kernel: one thread per point scans every
/// centroid. MatrixProduct: the distances' cross terms of a chunk of points come from one cuBLAS DGEMM,
/// a proven bound screens the centroids, and the few it leaves open are recomputed as the kernel does,
/// so both give the same labels and distances bit for bit. TensorTiles: the cross terms are formed in
/// FP64 tensor-core tiles in registers and screened there with the same bound, no matrix written (devices
/// of compute capability 8.0, 9.0 or 10.0, at most 64 features; same labels and distances bit for bit).
/// Auto takes the tiles from k = 64 (1000 x 39 at 1M points: 3.9 ms per iteration on an H200, cuBLAS
/// 7.6 ms, the kernel 83 ms), else the cuBLAS product from k x d = 4096, else the kernel.
enum class KMeansAssignment { Auto, Kernel, MatrixProduct, TensorTiles };

/// Greedy k-means++ seeding (Arthur & Vassilvitskii 2007) and Lloyd iterations (Lloyd 1982) on the
/// current CUDA device, or spread over options.cudaDevices, for n points x d features (row-major, float).
/// Spread, each device assigns a contiguous range of the points (whole blocks of 256), the first also
/// sums every cluster for the update; the block totals are summed in order on the host, so every
/// device count gives the same bits. Equal to kmeansCpu: the draws
/// use the same std::mt19937_64 sequence and are decided on the host from squared distances the GPU
/// computes in the same double arithmetic, so the same seed gives the same centres; assignment
/// distances are bit-identical to the CPU's for the same centroids (ties: lower label); an empty
/// cluster is refilled as kmeansCpu does. Centroid sums follow the points sorted by label: chunks of
/// 256 of a cluster's points summed in point order, then the chunk sums in order, so results are the
/// same run to run and on every device; they differ from the CPU's sequential sums only by rounding
/// (inertia to ~1e-12 relative). Device memory O(N·D + K·D) (the update's sort and chunk sums about
/// 5 N ints and (N / 256 + K)·D doubles), and with the cuBLAS product N·(D + 5) doubles more, at most
/// 4M doubles of cross terms and 32 MiB of cuBLAS workspace, with the tiles N·(D' + 1) doubles and 2 N
/// ints more (D' = D rounded up to a multiple of 8); time O(N K D) per iteration, the update
/// O(N D). Spread over G devices, each other device holds O((N / G)·D) of it. Throws what kmeansCpu
/// throws, InvalidInput for n >= 2^31 or k·d >= 2^31 and naming --gpus for a device that does not exist,
/// OutOfDeviceMemory and CudaError; Cancelled is checked after every step.
KMeansResult kmeansCuda(const float* x, std::size_t n, std::size_t d, const KMeansOptions& options,
                        JobControl* control = nullptr, KMeansAssignment assignment = KMeansAssignment::Auto);

}  // namespace clusterlens
