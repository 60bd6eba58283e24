#pragma once
// Viewport rendering of the VAT / iVAT image (Bezdek & Hathaway 2002; Havens & Bezdek 2012) at screen
// resolution, one thread per pixel, with the pixel rules of viewport.hpp: the sample positions come
// from the same constexpr viewportPosition() as on the CPU, VAT distances are metricDistance's bits
// (vatExactDistance) rounded to float, block means sum in double row sample by row sample, and an
// iVAT pixel is the range maximum of the cuts between its two positions, two lookups in the sparse
// table (Bender & Farach-Colton 2000).

#include <cuda_runtime.h>

#include "clusterlens/vat/viewport.hpp"
#include "cuda/kernels/vat_common.cuh"

namespace clusterlens::cuda {

/// The viewport's window and size as plain values for the kernels.
struct VatWindow {
    double row0, row1, col0, col1;
    int width, height;
    int rowSamples;  ///< 1, or viewportSampleCount of the row step for block means
    int colSamples;
};

template <Metric M>
__global__ void vatRenderVatKernel(const float* __restrict__ ordered, int n, int d, VatWindow w,
                                   float* __restrict__ out) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w.width || y >= w.height) return;
    const std::size_t count = static_cast<std::size_t>(n);
    double sum = 0.0;
    for (int s = 0; s < w.rowSamples; ++s) {
        const std::size_t r = viewportPosition(w.row0, w.row1, w.height, y, s, w.rowSamples, count);
        for (int t = 0; t < w.colSamples; ++t) {
            const std::size_t c = viewportPosition(w.col0, w.col1, w.width, x, t, w.colSamples, count);
            sum = __dadd_rn(sum, vatExactDistance<M>(ordered + r * d, ordered + c * d, d));
        }
    }
    const double samples = __dmul_rn(static_cast<double>(w.rowSamples), static_cast<double>(w.colSamples));
    const double value = w.rowSamples * w.colSamples == 1 ? sum : __ddiv_rn(sum, samples);
    out[static_cast<std::size_t>(y) * w.width + x] = static_cast<float>(value);
}

/// iVAT: 0 on equal positions, else max(cut[min+1 .. max]) from the sparse table (levels x n argmax
/// positions, ties to the earlier position) and the cuts rounded to float.
__global__ void vatRenderIvatKernel(const int* __restrict__ table, const float* __restrict__ cut, int n, VatWindow w,
                                    float* __restrict__ out) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w.width || y >= w.height) return;
    const std::size_t count = static_cast<std::size_t>(n);
    const auto r = static_cast<int>(viewportPosition(w.row0, w.row1, w.height, y, 0, 1, count));
    const auto c = static_cast<int>(viewportPosition(w.col0, w.col1, w.width, x, 0, 1, count));
    float value = 0.0f;
    if (r != c) {
        const int lo = min(r, c) + 1;
        const int hi = max(r, c);
        const int level = 31 - __clz(hi - lo + 1);
        const int* row = table + static_cast<std::size_t>(level) * n;
        value = fmaxf(cut[row[lo]], cut[row[hi + 1 - (1 << level)]]);
    }
    out[static_cast<std::size_t>(y) * w.width + x] = value;
}

}  // namespace clusterlens::cuda
