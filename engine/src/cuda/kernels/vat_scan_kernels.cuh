#pragma once
// Row scans of the GPU VAT engine: gathered groups of 128 rows against their lists of column tiles.
//  - nearest: each row's exact nearest point of ANOTHER component within the row's limit (Borůvka
//    1926: the lightest edge leaving a component is in the minimum spanning tree);
//  - farthest screen: per row the largest lower and upper bound over all columns (main tiles as rows);
//  - farthest refine: per candidate row the exact farthest point among the columns whose upper bound
//    reaches the screen's best lower bound;
//  - the row data of a Borůvka scan and the application of its results to the forest.
// As in the density-peaks delta pass, the bounds screen the pairs, each thread keeps per row the best
// bound seen so far, and every pair that can still win is re-decided in double from the original
// values; ties go to the smaller original index.

#include <cuda_runtime.h>

#include "cuda/kernels/vat_common.cuh"
#include "cuda/kernels/vat_tiles.cuh"

namespace clusterlens::cuda {

/// Rows of a scan: `groups` gathered tiles and per slot (group*128 + j) the row's data.
struct VatRowGroups {
    const float* tiles;   ///< groups x dPad x 128 screening coordinates
    const int* pos;       ///< position of the row, -1 for padding
    const int* comp;      ///< nearest: component of the row
    const float* high;    ///< nearest: screening upper bound of the limit (no pair above it can qualify)
    const double* limit;  ///< nearest: exact limit, inclusive
};

/// Best (value, original index) per thread and row, in shared memory: 8 rows x 256 threads.
struct VatSlots {
    double* w;
    int* q;

    /// The slots after the engine's tiles in dynamic shared memory, every value set to `value`.
    __device__ static VatSlots inShared(float* s_tiles, int dPad, double value) {
        VatSlots slots;
        slots.w = reinterpret_cast<double*>(s_tiles + vatEngineSharedFloats(dPad));
        slots.q = reinterpret_cast<int*>(slots.w + 8 * kVatThreads);
        slots.init(value);
        return slots;
    }
    __device__ void init(double value) {
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            w[r * kVatThreads + threadIdx.x] = value;
            q[r * kVatThreads + threadIdx.x] = INT_MAX;
        }
    }
    /// Reduces the 16 threads of each row (consecutive lanes) and lets tx == 0 write row results.
    template <bool kFarthest>
    __device__ void finish(int group, double* __restrict__ outW, int* __restrict__ outQ) const {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            double bw = w[r * kVatThreads + threadIdx.x];
            int bq = q[r * kVatThreads + threadIdx.x];
#pragma unroll
            for (int lanes = 1; lanes < 16; lanes <<= 1) {
                const double ow = __shfl_xor_sync(0xffffffffu, bw, lanes);
                const int oq = __shfl_xor_sync(0xffffffffu, bq, lanes);
                const bool better = kFarthest ? vatFartherThan(ow, oq, bw, bq) : vatNearerThan(ow, oq, bw, bq);
                if (better) bw = ow, bq = oq;
            }
            if (tx == 0) {
                const size_t at = static_cast<size_t>(group) * kVatTile + vatOffset(ty, r);
                outW[at] = bw;
                outQ[at] = bq == INT_MAX ? -1 : bq;
            }
        }
    }
};

template <Metric M>
struct VatNearestEpilogue {
    static constexpr bool kL1 = M == Metric::Manhattan;
    VatSpaceView space;
    VatRowGroups rows;
    const int* comp;
    VatSlots slots;
    int group;
    int rowComp[8];
    float rowLow[8];
    float rowHigh[8];
    float bestHigh[8];

    __device__ void examine(unsigned long long mask, int colTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
        while (mask) {
            const int bit = __ffsll(static_cast<long long>(mask)) - 1;
            mask &= mask - 1;
            const int r = bit >> 3;
            const size_t rowAt = static_cast<size_t>(group) * kVatTile + vatOffset(ty, r);
            const int i = space.perm[rows.pos[rowAt]];
            const int j = space.perm[colTile * kVatTile + vatOffset(tx, bit & 7)];
            const double w = vatExactDistance<M>(space.points + static_cast<size_t>(i) * space.d,
                                                 space.points + static_cast<size_t>(j) * space.d, space.d);
            const int slot = r * kVatThreads + static_cast<int>(threadIdx.x);
            if (w <= rows.limit[rowAt] && vatNearerThan(w, j, slots.w[slot], slots.q[slot])) {
                slots.w[slot] = w;
                slots.q[slot] = j;
            }
        }
    }

    __device__ void tile(const float (&f)[8][8], int colTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        int colComp[8];
        vatLoad8(comp, colTile, tx, colComp);
        float colLow[8], colHigh[8];
        if constexpr (!kL1) {
            vatLoad8(space.norms, colTile, tx, colLow);
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                colHigh[c] = vatHighCoefficient(space.screen, colLow[c]);
                colLow[c] = vatLowCoefficient(space.screen, colLow[c]);
            }
        }
        unsigned long long mask = 0;
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            float best = bestHigh[r];
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                const float lower = kL1 ? fmaf(-space.screen.kappa, f[r][c], f[r][c]) - space.screen.tiny
                                        : fmaf(-2.0f, f[r][c], rowLow[r] + colLow[c]);
                if (lower <= bestHigh[r] && colComp[c] != rowComp[r] && colComp[c] >= 0) {
                    const float upper = kL1 ? fmaf(space.screen.kappa, f[r][c], f[r][c]) + space.screen.tiny
                                            : fmaf(-2.0f, f[r][c], rowHigh[r] + colHigh[c]);
                    best = fminf(best, upper);
                    mask |= 1ull << (8 * r + c);
                }
            }
            bestHigh[r] = best;
        }
        if (mask) examine(mask, colTile);
    }
};

/// Nearest point of another component for every row of the groups (outW/outQ per slot: the exact
/// value and original index, -1 when none lies within the row's limit). Dynamic shared memory:
/// engine + 8 x 256 x 12 bytes.
template <Metric M>
__global__ void __launch_bounds__(kVatThreads, 2)
    vatNearestKernel(VatSpaceView space, VatRowGroups rows, const int* __restrict__ comp, VatWork work,
                     double* __restrict__ outW, int* __restrict__ outQ) {
    extern __shared__ float4 s_dynamic[];
    float* s_tiles = reinterpret_cast<float*>(s_dynamic);
    const int ty = static_cast<int>(threadIdx.x) >> 4;
    const int g = work.blockUnit[blockIdx.x];
    VatNearestEpilogue<M> e;
    e.space = space;
    e.rows = rows;
    e.comp = comp;
    e.group = g;
    e.slots = VatSlots::inShared(s_tiles, space.dPad, INFINITY);
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        const size_t at = static_cast<size_t>(g) * kVatTile + vatOffset(ty, r);
        const bool valid = rows.pos[at] >= 0;
        e.rowComp[r] = valid ? rows.comp[at] : -2;
        e.bestHigh[r] = valid ? rows.high[at] : -INFINITY;
        const float norm = valid ? space.norms[rows.pos[at]] : 0.0f;
        e.rowLow[r] = vatLowCoefficient(space.screen, norm);
        e.rowHigh[r] = vatHighCoefficient(space.screen, norm);
    }
    const long long begin = work.offsets[g] - work.base;
    const int count = static_cast<int>(work.offsets[g + 1] - work.offsets[g]);
    // Start at the tile of the group's first row: its kd neighbours come first.
    const int* list = work.list + begin;
    const int first = vatListStart(list, count, rows.pos[static_cast<size_t>(g) * kVatTile] / kVatTile);
    vatTiledPairs<VatNearestEpilogue<M>::kL1>(rows.tiles + static_cast<size_t>(g) * space.dPad * kVatTile, space.tiles,
                                              space.dPad, list, count, first, e, s_tiles);
    e.slots.template finish<false>(g, outW, outQ);
}

template <bool kL1>
struct VatFarScreenEpilogue {
    VatSpaceView space;
    int rowTile;
    float rowLow[8];
    float rowHigh[8];
    float maxLow[8];
    float maxHigh[8];

    __device__ void tile(const float (&f)[8][8], int colTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
        int colPerm[8];
        vatLoad8(space.perm, colTile, tx, colPerm);
        float colLow[8], colHigh[8];
        if constexpr (!kL1) {
            vatLoad8(space.norms, colTile, tx, colLow);
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                colHigh[c] = vatHighCoefficient(space.screen, colLow[c]);
                colLow[c] = vatLowCoefficient(space.screen, colLow[c]);
            }
        }
        const bool diagonal = colTile == rowTile && tx == ty;
#pragma unroll
        for (int r = 0; r < 8; ++r)
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                if (colPerm[c] < 0 || (diagonal && r == c)) continue;
                const float lower = kL1 ? fmaf(-space.screen.kappa, f[r][c], f[r][c]) - space.screen.tiny
                                        : fmaf(-2.0f, f[r][c], rowLow[r] + colLow[c]);
                const float upper = kL1 ? fmaf(space.screen.kappa, f[r][c], f[r][c]) + space.screen.tiny
                                        : fmaf(-2.0f, f[r][c], rowHigh[r] + colHigh[c]);
                maxLow[r] = fmaxf(maxLow[r], lower);
                maxHigh[r] = fmaxf(maxHigh[r], upper);
            }
    }
};

/// Farthest-pair screen, one block per row tile: per position the largest lower and upper bound of s
/// over the listed columns (-inf without any). Dynamic shared memory: engine.
template <bool kL1>
__global__ void __launch_bounds__(kVatThreads, 2)
    vatFarScreenKernel(VatSpaceView space, VatWork work, float* __restrict__ rowLow, float* __restrict__ rowHigh) {
    extern __shared__ float4 s_dynamic[];
    float* s_tiles = reinterpret_cast<float*>(s_dynamic);
    const int tx = static_cast<int>(threadIdx.x) & 15;
    const int ty = static_cast<int>(threadIdx.x) >> 4;
    const int t = work.blockUnit[blockIdx.x];
    VatFarScreenEpilogue<kL1> e;
    e.space = space;
    e.rowTile = t;
    float norms[8];
    vatLoad8(space.norms, t, ty, norms);
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        e.rowLow[r] = vatLowCoefficient(space.screen, norms[r]);
        e.rowHigh[r] = vatHighCoefficient(space.screen, norms[r]);
        e.maxLow[r] = -INFINITY;
        e.maxHigh[r] = -INFINITY;
    }
    const long long begin = work.offsets[t] - work.base;
    const int count = static_cast<int>(work.offsets[t + 1] - work.offsets[t]);
    vatTiledPairs<kL1>(space.tiles + static_cast<size_t>(t) * space.dPad * kVatTile, space.tiles, space.dPad,
                       work.list + begin, count, 0, e, s_tiles);
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        float lo = e.maxLow[r], hi = e.maxHigh[r];
#pragma unroll
        for (int lanes = 1; lanes < 16; lanes <<= 1) {
            lo = fmaxf(lo, __shfl_xor_sync(0xffffffffu, lo, lanes));
            hi = fmaxf(hi, __shfl_xor_sync(0xffffffffu, hi, lanes));
        }
        if (tx == 0) {
            const size_t at = static_cast<size_t>(t) * kVatTile + vatOffset(ty, r);
            rowLow[at] = lo;
            rowHigh[at] = hi;
        }
    }
}

template <Metric M>
struct VatFarRefineEpilogue {
    static constexpr bool kL1 = M == Metric::Manhattan;
    VatSpaceView space;
    VatRowGroups rows;
    VatSlots slots;
    int group;
    float floor;  // screening lower bound of the largest value: only pairs whose upper bound reaches it
    int rowPos[8];
    float rowHigh[8];

    __device__ void tile(const float (&f)[8][8], int colTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        int colPerm[8];
        vatLoad8(space.perm, colTile, tx, colPerm);
        float colHigh[8];
        if constexpr (!kL1) {
            vatLoad8(space.norms, colTile, tx, colHigh);
#pragma unroll
            for (int c = 0; c < 8; ++c) colHigh[c] = vatHighCoefficient(space.screen, colHigh[c]);
        }
#pragma unroll
        for (int r = 0; r < 8; ++r)
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                const int colPos = colTile * kVatTile + vatOffset(tx, c);
                if (rowPos[r] < 0 || colPerm[c] < 0 || colPos == rowPos[r]) continue;
                const float upper = kL1 ? fmaf(space.screen.kappa, f[r][c], f[r][c]) + space.screen.tiny
                                        : fmaf(-2.0f, f[r][c], rowHigh[r] + colHigh[c]);
                if (!(upper >= floor)) continue;
                const int i = space.perm[rowPos[r]];
                const int j = colPerm[c];
                const double w = vatExactDistance<M>(space.points + static_cast<size_t>(i) * space.d,
                                                     space.points + static_cast<size_t>(j) * space.d, space.d);
                const int slot = r * kVatThreads + static_cast<int>(threadIdx.x);
                if (vatFartherThan(w, j, slots.w[slot], slots.q[slot])) {
                    slots.w[slot] = w;
                    slots.q[slot] = j;
                }
            }
    }
};

/// Farthest-pair refinement for the gathered candidate rows: per row the exact farthest point
/// (largest value, then smaller original index) among the pairs whose upper bound reaches `floor`.
/// Dynamic shared memory: engine + 8 x 256 x 12 bytes.
template <Metric M>
__global__ void __launch_bounds__(kVatThreads, 2)
    vatFarRefineKernel(VatSpaceView space, VatRowGroups rows, float floor, VatWork work, double* __restrict__ outW,
                       int* __restrict__ outQ) {
    extern __shared__ float4 s_dynamic[];
    float* s_tiles = reinterpret_cast<float*>(s_dynamic);
    const int ty = static_cast<int>(threadIdx.x) >> 4;
    const int g = work.blockUnit[blockIdx.x];
    VatFarRefineEpilogue<M> e;
    e.space = space;
    e.rows = rows;
    e.group = g;
    e.floor = floor;
    e.slots = VatSlots::inShared(s_tiles, space.dPad, -INFINITY);
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        const size_t at = static_cast<size_t>(g) * kVatTile + vatOffset(ty, r);
        e.rowPos[r] = rows.pos[at];
        e.rowHigh[r] = vatHighCoefficient(space.screen, e.rowPos[r] >= 0 ? space.norms[e.rowPos[r]] : 0.0f);
    }
    const long long begin = work.offsets[g] - work.base;
    const int count = static_cast<int>(work.offsets[g + 1] - work.offsets[g]);
    vatTiledPairs<VatFarRefineEpilogue<M>::kL1>(rows.tiles + static_cast<size_t>(g) * space.dPad * kVatTile,
                                                space.tiles, space.dPad, work.list + begin, count, 0, e, s_tiles);
    e.slots.template finish<true>(g, outW, outQ);
}

/// Row data of a nearest scan of list[0..count) (slots up to `slots` are padding): component, exact
/// limit (the component's upper bound, +inf for probes), its screening bound and the ball reach.
__global__ void vatScanRowsKernel(VatForest f, VatScreen screen, const int* __restrict__ list, int count, int slots,
                                  bool probe, int* __restrict__ rowComp, double* __restrict__ rowLimit,
                                  float* __restrict__ rowHigh, float* __restrict__ rowReach) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= slots) return;
    if (i >= count) {
        rowComp[i] = -2;
        rowLimit[i] = -INFINITY;
        rowHigh[i] = -INFINITY;
        rowReach[i] = 0.0f;
        return;
    }
    const int c = f.comp[list[i]];
    const double limit = probe ? INFINITY : vatFromOrderedBits(f.compUpper[c]);
    const double high = vatScreenAbove(screen, limit);
    rowComp[i] = c;
    rowLimit[i] = limit;
    rowHigh[i] = __double2float_ru(high);
    rowReach[i] = __double2float_ru(screen.l1() ? high : sqrt(high));
}

/// Applies a nearest scan: a found point becomes the row's certified cache and candidate (probes
/// also lower their component's upper bound); otherwise the row is farther than its limit from
/// every other component.
__global__ void vatApplyScanKernel(VatForest f, const int* __restrict__ list, int count, bool probe,
                                   const double* __restrict__ rowLimit, const double* __restrict__ outW,
                                   const int* __restrict__ outQ, const int* __restrict__ invPerm) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= count) return;
    const int p = list[i];
    if (outQ[i] >= 0) {
        const int q = invPerm[outQ[i]];
        f.cachePos[p] = q;
        f.cacheW[p] = outW[i];
        f.candPos[p] = q;
        f.candW[p] = outW[i];
        f.candCert[p] = 1;
        if (probe) atomicMin(f.compUpper + f.comp[p], vatOrderedBits(outW[i]));
    } else {
        if (probe) atomicOr(f.error, 1u);
        f.lb[p] = fmax(f.lb[p], nextafter(rowLimit[i], INFINITY));
    }
}

}  // namespace clusterlens::cuda
