#pragma once
// The cluster halo of Rodriguez & Laio 2014 on the GPU: the border density of cluster c is the largest
// (rho_i + rho_j) / 2 over pairs at distance < dc that join c to another cluster. One pass of the tiled
// all-pairs engine over the pairs i <= j, its epilogue screening d_ij < dc in the dot-product form and
// deciding the pairs inside the error band exactly in double, as the cutoff density does, so the pairs
// taken are those of the CPU reference. Border pairs are rare, so they go straight to global atomics.

#include <cuda_runtime.h>

#include "cuda/kernels/density_peaks_tiles.cuh"

namespace clusterlens::cuda {

struct DpcHaloParams {
    DpcTiles centred;            ///< engine input: mean-centred points
    const float* points;         ///< original values, row-major (exact decisions)
    DpcGuard guard;              ///< norms of the centred points and the error bound
    const int* labels;           ///< n labels, -1 = none
    const double* rho;           ///< n densities
    float insideF;               ///< upper bound < insideF  =>  e < threshold
    float outsideF;              ///< lower bound >= outsideF  =>  e >= threshold
    double threshold;            ///< d < dc  <=>  e < threshold (dpc::cutoffSquaredThreshold)
    unsigned long long* border;  ///< per cluster: the bits of a non-negative double, ordered as integers
};

struct DpcHaloEpilogue {
    DpcHaloParams p;
    float rowNorm[8];
    int rowLabel[8];

    __device__ void take(int i, int j, int li, int lj) const {
        // Non-negative doubles order like their bit patterns, so an integer maximum is the maximum.
        const double average = 0.5 * (p.rho[i] + p.rho[j]);
        const unsigned long long bits = static_cast<unsigned long long>(__double_as_longlong(average));
        atomicMax(p.border + li, bits);
        atomicMax(p.border + lj, bits);
    }

    __device__ void tile(const float (&f)[8][8], int rowTile, int colTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
        int colLabel[8];
        bool any = false;
#pragma unroll
        for (int c = 0; c < 8; ++c) {
            const int j = colTile * kDpcTile + dpcOffset(tx, c);
            colLabel[c] = j < p.centred.n ? p.labels[j] : -1;
        }
#pragma unroll
        for (int r = 0; r < 8; ++r)
#pragma unroll
            for (int c = 0; c < 8; ++c) any |= rowLabel[r] >= 0 && colLabel[c] >= 0 && rowLabel[r] != colLabel[c];
        if (!any) return;  // one cluster (or noise) on both sides: most tiles end here
        float colNorm[8];
        p.guard.load(colTile, tx, colNorm);
#pragma unroll
        for (int r = 0; r < 8; ++r)
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                const int li = rowLabel[r], lj = colLabel[c];
                if (li < 0 || lj < 0 || li == lj) continue;
                float e, lower, upper;
                p.guard.bounds(f[r][c], rowNorm[r], colNorm[c], e, lower, upper);
                if (!(lower < p.outsideF)) continue;
                const int i = rowTile * kDpcTile + dpcOffset(ty, r);
                const int j = colTile * kDpcTile + dpcOffset(tx, c);
                if (upper < p.insideF || dpcExactRowDistance(p.points, p.centred.d, i, j) < p.threshold)
                    take(i, j, li, lj);
            }
    }
};

__global__ void __launch_bounds__(kDpcThreads, 2)
    dpcHaloKernel(const DpcHaloParams params, const DpcUnit* __restrict__ d_units, int unitOffset) {
    extern __shared__ float4 s_dynamic[];
    float* s_tiles = reinterpret_cast<float*>(s_dynamic);
    DpcHaloEpilogue epilogue;
    epilogue.p = params;
    const DpcUnit unit = d_units[unitOffset + static_cast<int>(blockIdx.x)];
    const int ty = static_cast<int>(threadIdx.x) >> 4;
    params.guard.load(unit.tile, ty, epilogue.rowNorm);
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        const int i = unit.tile * kDpcTile + dpcOffset(ty, r);
        epilogue.rowLabel[r] = i < params.centred.n ? params.labels[i] : -1;
    }
    dpcTiledPairs<true>(params.centred, unit, epilogue, s_tiles);
}

}  // namespace clusterlens::cuda
