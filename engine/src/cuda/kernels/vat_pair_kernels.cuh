#pragma once
// Tile balls and the pruned lists of tile pairs of the GPU VAT passes. Every tile (a kd-tree leaf of
// 128 positions, or a gathered group of rows) gets a ball in screening space: the float centre of its
// members and a radius that also covers the rounding of the screening coordinates. A pair of tiles is
// skipped when the balls prove that none of its point pairs can matter: for a nearest search, when
// the balls are farther apart than the row tile's reach; for the farthest pair, when they are closer
// than a known lower bound of the largest distance (the triangle inequality of the screening space,
// Euclidean or L1, with float rounding bounded by (d + 8) 2^-23 relative).

#include <cuda_runtime.h>
#include <cub/block/block_scan.cuh>

#include "cuda/kernels/vat_common.cuh"

namespace clusterlens::cuda {

/// One block (128 threads) per tile: the ball of the valid slots (slotValid[slot] >= 0) of tile
/// blockIdx.x of `tiles`. Optional per-slot inputs give the tile's reach (their maximum) and its common
/// component (-1 when the slots differ). Dynamic shared memory: vatCentreSharedFloats(d) floats.
__global__ void vatBallsKernel(const float* __restrict__ tiles, const int* __restrict__ slotValid, int dPad, int d,
                               bool l1, const float* __restrict__ slotReach, const int* __restrict__ slotComp,
                               float* __restrict__ centre, float* __restrict__ radius, float* __restrict__ reach,
                               int* __restrict__ tileComp) {
    extern __shared__ float s_centre[];
    __shared__ int s_count, s_radius, s_norm, s_reach, s_compMin, s_compMax;
    const int tile = static_cast<int>(blockIdx.x);
    const int count = static_cast<int>(gridDim.x);
    const int j = static_cast<int>(threadIdx.x);
    const size_t slot = static_cast<size_t>(tile) * kVatTile + j;
    const bool valid = slotValid[slot] >= 0;
    if (j == 0) {
        s_count = 0, s_radius = 0, s_norm = 0, s_reach = 0;
        s_compMin = INT_MAX, s_compMax = INT_MIN;
    }
    __syncthreads();
    if (valid) atomicAdd(&s_count, 1);
    if (valid && slotComp) {
        atomicMin(&s_compMin, slotComp[slot]);
        atomicMax(&s_compMax, slotComp[slot]);
    }
    if (valid && slotReach) atomicMax(&s_reach, __float_as_int(fmaxf(slotReach[slot], 0.0f)));
    __syncthreads();
    const float* base = tiles + static_cast<size_t>(tile) * dPad * kVatTile;
    for (int k = d + j; k < vatCentreSharedFloats(d); k += kVatTile) s_centre[k] = 0.0f;
    for (int k = j; k < d; k += kVatTile) {
        double sum = 0.0;
        for (int m = 0; m < kVatTile; ++m)
            if (slotValid[static_cast<size_t>(tile) * kVatTile + m] >= 0)
                sum += static_cast<double>(base[static_cast<size_t>(k) * kVatTile + m]);
        s_centre[k] = s_count > 0 ? static_cast<float>(sum / s_count) : 0.0f;
    }
    __syncthreads();
    if (valid) {
        double dist = 0.0, norm = 0.0;
        for (int k = 0; k < d; ++k) {
            const double v = static_cast<double>(base[static_cast<size_t>(k) * kVatTile + j]);
            const double diff = v - static_cast<double>(s_centre[k]);
            dist += l1 ? fabs(diff) : diff * diff;
            norm += l1 ? fabs(v) : v * v;
        }
        if (!l1) dist = sqrt(dist), norm = sqrt(norm);
        atomicMax(&s_radius, __float_as_int(static_cast<float>(dist)));
        atomicMax(&s_norm, __float_as_int(static_cast<float>(norm)));
    }
    __syncthreads();
    for (int k = j; k < d; k += kVatTile) centre[static_cast<size_t>(k) * count + tile] = s_centre[k];
    if (j == 0) {
        // Margins: the float rounding of the radius, and (dot forms) the rounding of the centred
        // screening coordinates themselves, 2^-24 of each member's norm on each side.
        const float r =
            __int_as_float(s_radius) * (1.0f + 0x1.0p-20f) + (l1 ? 0.0f : 0x1.0p-22f * __int_as_float(s_norm));
        radius[tile] = s_count > 0 ? r + 0x1.0p-126f : 0.0f;
        if (reach) reach[tile] = __int_as_float(s_reach);
        if (tileComp) tileComp[tile] = s_count > 0 && s_compMin == s_compMax ? s_compMin : -1;
    }
}

/// Pair lists, one block (256 threads) per row ball r = rowBegin + blockIdx.x. Column tile b is
/// listed unless the balls prove it useless: nearest searches (kFarthest false) skip b when
/// dist(centres) - radii > reach[r] or when b lies wholly in the row ball's component
/// (colComp[b] == rowComp[r] >= 0); the farthest search skips b when dist + radii < reach[r].
/// Without `list`: counts[r] = number of listed tiles; with it: list[offsets[r] - base + i], in
/// ascending b. Dynamic shared memory: vatCentreSharedFloats(d) floats.
template <bool kFarthest>
__global__ void vatPairListKernel(VatBallsView rows, const float* __restrict__ reach, const int* __restrict__ rowComp,
                                  VatBallsView cols, const int* __restrict__ colComp, int d, bool l1, int rowBegin,
                                  int* __restrict__ counts, const long long* __restrict__ offsets, long long base,
                                  int* __restrict__ list) {
    using Scan = cub::BlockScan<int, kVatThreads>;
    __shared__ typename Scan::TempStorage s_scan;
    extern __shared__ float s_rowCentre[];
    const int r = rowBegin + static_cast<int>(blockIdx.x);
    const int tid = static_cast<int>(threadIdx.x);
    for (int k = tid; k < vatCentreSharedFloats(d); k += kVatThreads)
        s_rowCentre[k] = k < d ? rows.centre[static_cast<size_t>(k) * rows.count + r] : 0.0f;
    __syncthreads();
    const float rowRadius = rows.radius[r];
    const float rowReach = reach[r];
    const int comp = rowComp ? rowComp[r] : -1;
    const float rounding = (d + 8) * 0x1.0p-23f;
    int total = 0;
    for (int b0 = 0; b0 < cols.count; b0 += kVatThreads) {
        const int b = b0 + tid;
        bool keep = false;
        if (b < cols.count) {
            float s = 0.0f;
            for (int k = 0; k < d; ++k) {
                const float diff = s_rowCentre[k] - cols.centre[static_cast<size_t>(k) * cols.count + b];
                s = l1 ? s + fabsf(diff) : fmaf(diff, diff, s);
            }
            const float dist = l1 ? s : sqrtf(s);
            const float radii = rowRadius + cols.radius[b];
            if constexpr (kFarthest) {
                keep = fmaf(dist, rounding, dist) + radii >= rowReach;
            } else {
                keep = fmaf(-dist, rounding, dist) - radii <= rowReach && !(comp >= 0 && colComp[b] == comp);
            }
        }
        int prefix = 0, sum = 0;
        Scan(s_scan).ExclusiveSum(keep ? 1 : 0, prefix, sum);
        if (list && keep) list[offsets[r] - base + total + prefix] = b;
        total += sum;
        __syncthreads();
    }
    if (!list && tid == 0) counts[r] = total;
}

/// Gathers rows of the screening tiles into groups of 128 (group g, slot j = list[g*128 + j], or
/// padding past `count`): one thread per (group, feature, slot). Also writes the slot's position.
__global__ void vatGatherRowsKernel(VatSpaceView space, const int* __restrict__ list, int count, int groups,
                                    float* __restrict__ groupTiles, int* __restrict__ groupPos) {
    const size_t e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t total = static_cast<size_t>(groups) * space.dPad * kVatTile;
    if (e >= total) return;
    const int j = static_cast<int>(e % kVatTile);
    const int k = static_cast<int>((e / kVatTile) % space.dPad);
    const int g = static_cast<int>(e / (static_cast<size_t>(kVatTile) * space.dPad));
    const int at = g * kVatTile + j;
    const int pos = at < count ? list[at] : -1;
    float v = k < space.d ? kVatPadCoordinate : 0.0f;
    if (pos >= 0) v = space.tiles[(static_cast<size_t>(pos / kVatTile) * space.dPad + k) * kVatTile + pos % kVatTile];
    groupTiles[e] = v;
    if (k == 0) groupPos[at] = pos;
}

}  // namespace clusterlens::cuda
