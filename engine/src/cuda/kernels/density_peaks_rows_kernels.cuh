#pragma once
// The exact recount of Gaussian densities for the rows whose tiled float sum is below 1 (see
// density_peaks_kernels.cuh): rho_i = sum_{j != i} exp(-e_ij / dc²) with e_ij the exact squared
// distance (dpc::exactSquaredDistance), over all n points for each listed row.
//
// The recount is O(rows · n · d) double-precision work. One block per row read all n points for
// every row (memory-bound: at 10M×14 each row is a 560 MB sweep); here a block takes
// kDpcRecountRows rows and every point it reads serves all of them, and each thread computes
// kDpcRecountPoints points at a time, so a loaded value is used by several pairs and the recount
// runs at the rate of its double-precision arithmetic.

#include <cuda_runtime.h>

#include "cuda/kernels/density_peaks_layout.cuh"

namespace clusterlens::cuda {

constexpr int kDpcRecountRows = 8;    ///< listed rows per block
constexpr int kDpcRecountPoints = 4;  ///< points per thread and step

/// The listed rows' values as doubles, kDpcRecountRows-padded: values[b·d + k] = x[rows[b]][k] for
/// b < count, 0 for the padding up to `padded` rows. x is row-major n x d.
__global__ void dpcRecountValuesKernel(const float* __restrict__ d_x, int d, const int* __restrict__ d_rows, int count,
                                       int padded, double* __restrict__ d_values) {
    const long long item = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (item >= static_cast<long long>(padded) * d) return;
    const int b = static_cast<int>(item / d);
    const int k = static_cast<int>(item % d);
    d_values[item] = b < count ? static_cast<double>(d_x[static_cast<long long>(d_rows[b]) * d + k]) : 0.0;
}

/// Gaussian rho of the listed rows in double, the terms taken relative to the row's smallest
/// exponent (as a running maximum in a softmax) so that rows far from every point keep their
/// relative precision. Block b takes rows b·kDpcRecountRows.. of the list (values: their coordinates
/// from dpcRecountValuesKernel); thread t takes the points j = t, t + kDpcThreads, ... in ascending
/// order for each of them, and the threads' partial sums combine in thread order, so a row's value
/// does not depend on the rows listed with it or on the launch. out[b] is row b's rho.
__global__ void __launch_bounds__(kDpcThreads)
    dpcRecountRowsKernel(const DpcTiles tiles, const int* __restrict__ d_rows, const double* __restrict__ d_values,
                         int count, double inverseDc2, double* __restrict__ d_out) {
    constexpr int R = kDpcRecountRows;
    constexpr int J = kDpcRecountPoints;
    __shared__ double s_min[R][kDpcThreads];
    __shared__ double s_sum[R][kDpcThreads];
    const int first = static_cast<int>(blockIdx.x) * R;
    const double* values = d_values + static_cast<long long>(first) * tiles.d;
    int row[R];
    double lowest[R];
    double sum[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
        row[r] = first + r < count ? d_rows[first + r] : -1;
        lowest[r] = __longlong_as_double(0x7ff0000000000000LL);
        sum[r] = 0.0;
    }
    for (int base = static_cast<int>(threadIdx.x); base < tiles.n; base += kDpcThreads * J) {
        double e[R][J];
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int q = 0; q < J; ++q) e[r][q] = 0.0;
        // Squared distances with the bits of dpc::exactSquaredDistance(row, point): features in order,
        // differences and squares in double, multiply and add rounded separately.
        for (int k = 0; k < tiles.d; ++k) {
            double point[J];
#pragma unroll
            for (int q = 0; q < J; ++q) {
                const int j = base + q * kDpcThreads;
                point[q] = j < tiles.n ? static_cast<double>(tiles.at(j, k)) : 0.0;
            }
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const double a = values[r * tiles.d + k];
#pragma unroll
                for (int q = 0; q < J; ++q) {
                    const double diff = a - point[q];
                    e[r][q] = __dadd_rn(e[r][q], __dmul_rn(diff, diff));
                }
            }
        }
#pragma unroll
        for (int q = 0; q < J; ++q) {
            const int j = base + q * kDpcThreads;
            if (j >= tiles.n) break;
#pragma unroll
            for (int r = 0; r < R; ++r) {
                if (j == row[r]) continue;
                const double x = __dmul_rn(e[r][q], inverseDc2);
                if (x < lowest[r]) {
                    sum[r] *= exp(x - lowest[r]);
                    lowest[r] = x;
                }
                sum[r] += static_cast<double>(dpcExp2(static_cast<float>(__dmul_rn(lowest[r] - x, kDpcLog2E))));
            }
        }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
        s_min[r][threadIdx.x] = lowest[r];
        s_sum[r][threadIdx.x] = sum[r];
    }
    __syncthreads();
    const int r = static_cast<int>(threadIdx.x);
    if (r >= R || first + r >= count) return;
    double m = s_min[r][0];
    for (int t = 1; t < kDpcThreads; ++t) m = fmin(m, s_min[r][t]);
    double total = 0.0;
    for (int t = 0; t < kDpcThreads; ++t)
        if (s_sum[r][t] > 0.0) total += s_sum[r][t] * exp(m - s_min[r][t]);
    d_out[first + r] = total * exp(-m);
}

}  // namespace clusterlens::cuda
