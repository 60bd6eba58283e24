#pragma once
// The k-nearest-neighbour pass of the GPU minimum spanning tree: one fused tiled pass (pruned by the
// tile balls) that leaves every point a short list of its nearest points, in exact order (exact
// distance, then original index), and a certified radius — every point not on the list is at least
// that far in the exact metric. The Borůvka rounds read a point's nearest point of another component
// off this list while it lasts.
//
// Per thread and row the pass keeps the kVatKnnPerThread smallest LOWER bounds (see vat_common.cuh)
// of its 1/16 share of the columns. The union of the 16 shares' lists holds every point whose lower
// bound is below R = the smallest of the 16 shares' last entries, so "lower < R" is a complete list
// and R bounds the exact value of every other point from below. Columns of skipped tile pairs are
// farther than the row tile's reach, which caps R as well.

#include <cuda_runtime.h>

#include "cuda/kernels/vat_common.cuh"
#include "cuda/kernels/vat_tiles.cuh"

namespace clusterlens::cuda {

/// Reach of each tile: the largest, over its valid points, float screening distance to the
/// kVatKnn-th nearest other point of the same tile (+inf when the tile holds too few points). A point
/// whose list is complete up to its tile's reach needs no column tile farther than that. One block of
/// 128 threads per tile, one thread per slot.
__global__ void vatTileReachKernel(VatSpaceView space, float* __restrict__ reach) {
    __shared__ int s_reach;
    const int tile = static_cast<int>(blockIdx.x);
    const int j = static_cast<int>(threadIdx.x);
    const bool l1 = space.screen.l1();
    if (j == 0) s_reach = 0;
    __syncthreads();
    const float* base = space.tiles + static_cast<size_t>(tile) * space.dPad * kVatTile;
    const int* perm = space.perm + static_cast<size_t>(tile) * kVatTile;
    if (perm[j] >= 0) {
        float top[kVatKnn];
#pragma unroll
        for (int k = 0; k < kVatKnn; ++k) top[k] = INFINITY;
        for (int m = 0; m < kVatTile; ++m) {
            if (m == j || perm[m] < 0) continue;
            float s = 0.0f;
            for (int k = 0; k < space.d; ++k) {
                const float diff = base[k * kVatTile + j] - base[k * kVatTile + m];
                s = l1 ? s + fabsf(diff) : fmaf(diff, diff, s);
            }
#pragma unroll
            for (int k = 0; k < kVatKnn; ++k)
                if (s < top[k]) {
                    const float t = top[k];
                    top[k] = s;
                    s = t;
                }
        }
        const float r = l1 ? top[kVatKnn - 1] : sqrtf(top[kVatKnn - 1]);
        atomicMax(&s_reach, __float_as_int(r * 1.001f));
    }
    __syncthreads();
    if (j == 0) reach[tile] = __int_as_float(s_reach);
}

template <bool kL1>
struct VatKnnEpilogue {
    VatScreen screen;
    const float* norms;
    int rowTile;
    float rowLow[8];
    float topV[8][kVatKnnPerThread];
    int topP[8][kVatKnnPerThread];

    __device__ void insert(float (&values)[kVatKnnPerThread], int (&positions)[kVatKnnPerThread], float v, int p) {
#pragma unroll
        for (int k = 0; k < kVatKnnPerThread; ++k)
            if (v < values[k]) {
                const float tv = values[k];
                const int tp = positions[k];
                values[k] = v;
                positions[k] = p;
                v = tv;
                p = tp;
            }
    }

    __device__ void tile(const float (&f)[8][8], int colTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
        float colLow[8];
        if constexpr (!kL1) {
            vatLoad8(norms, colTile, tx, colLow);
#pragma unroll
            for (int c = 0; c < 8; ++c) colLow[c] = vatLowCoefficient(screen, colLow[c]);
        }
        const bool diagonal = colTile == rowTile && tx == ty;
#pragma unroll
        for (int r = 0; r < 8; ++r)
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                float lower = kL1 ? fmaf(-screen.kappa, f[r][c], f[r][c]) - screen.tiny
                                  : fmaf(-2.0f, f[r][c], rowLow[r] + colLow[c]);
                if (diagonal && r == c) lower = INFINITY;
                if (lower < topV[r][kVatKnnPerThread - 1])
                    insert(topV[r], topP[r], lower, colTile * kVatTile + vatOffset(tx, c));
            }
    }
};

/// The k-NN pass, one block per row tile work.blockUnit[blockIdx.x] against its listed column tiles.
/// Writes per position the list (knnPos: kVatKnn positions, ascending lower bound, -1 past the end)
/// and R (knnReach, screening units). Skipped column tiles lie beyond the row tile's reach (ball
/// units), which caps R. Dynamic shared memory: max(engine, 128 x 16 x kVatKnnPerThread x 8 bytes).
template <bool kL1>
__global__ void __launch_bounds__(kVatThreads, 1)
    vatKnnKernel(VatSpaceView space, VatWork work, const float* __restrict__ reach, int* __restrict__ knnPos,
                 float* __restrict__ knnReach) {
    extern __shared__ float4 s_dynamic[];
    float* s_tiles = reinterpret_cast<float*>(s_dynamic);
    const int t = work.blockUnit[blockIdx.x];
    const int tx = static_cast<int>(threadIdx.x) & 15;
    const int ty = static_cast<int>(threadIdx.x) >> 4;
    VatKnnEpilogue<kL1> epilogue;
    epilogue.screen = space.screen;
    epilogue.norms = space.norms;
    epilogue.rowTile = t;
    if constexpr (!kL1) {
        vatLoad8(space.norms, t, ty, epilogue.rowLow);
#pragma unroll
        for (int r = 0; r < 8; ++r) epilogue.rowLow[r] = vatLowCoefficient(space.screen, epilogue.rowLow[r]);
    }
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
        for (int k = 0; k < kVatKnnPerThread; ++k) {
            epilogue.topV[r][k] = INFINITY;
            epilogue.topP[r][k] = -1;
        }
    const int count = static_cast<int>(work.offsets[t + 1] - work.offsets[t]);
    const int* list = work.list + (work.offsets[t] - work.base);
    vatTiledPairs<kL1>(space.tiles + static_cast<size_t>(t) * space.dPad * kVatTile, space.tiles, space.dPad, list,
                       count, vatListStart(list, count, t), epilogue, s_tiles);
    __syncthreads();

    // Exchange: slot (row) x share (tx) x entry.
    float* s_v = s_tiles;
    int* s_p = reinterpret_cast<int*>(s_tiles + kVatTile * 16 * kVatKnnPerThread);
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
        for (int k = 0; k < kVatKnnPerThread; ++k) {
            const int at = (vatOffset(ty, r) * 16 + tx) * kVatKnnPerThread + k;
            s_v[at] = epilogue.topV[r][k];
            s_p[at] = epilogue.topP[r][k];
        }
    __syncthreads();
    if (threadIdx.x >= kVatTile) return;
    const int slot = static_cast<int>(threadIdx.x);
    const int pos = t * kVatTile + slot;
    if (space.perm[pos] < 0) return;
    // Pairs with a skipped column tile have a screening distance beyond the reach: s > reach^2.
    const float ballReach = reach[t];
    float reachR = (kL1 ? ballReach : ballReach * ballReach) * (1.0f - 0x1.0p-20f);
    for (int share = 0; share < 16; ++share)
        reachR = fminf(reachR, s_v[(slot * 16 + share) * kVatKnnPerThread + kVatKnnPerThread - 1]);
    // The kVatKnn + 1 smallest entries below R, ascending (insertion; runs once per point).
    float v[kVatKnn + 1];
    int p[kVatKnn + 1];
    int found = 0;
    for (int e = 0; e < 16 * kVatKnnPerThread; ++e) {
        const int at = slot * 16 * kVatKnnPerThread + e;
        const float value = s_v[at];
        const int q = s_p[at];
        if (!(value < reachR) || q < 0 || space.perm[q] < 0) continue;
        int k = found < kVatKnn + 1 ? found++ : kVatKnn + 1;
        if (k == kVatKnn + 1) {
            if (!(value < v[kVatKnn])) continue;
            k = kVatKnn;
        }
        while (k > 0 && v[k - 1] > value) {
            v[k] = v[k - 1];
            p[k] = p[k - 1];
            --k;
        }
        v[k] = value;
        p[k] = q;
    }
    if (found > kVatKnn) {
        reachR = fminf(reachR, v[kVatKnn]);
        found = kVatKnn;
    }
    for (int k = 0; k < kVatKnn; ++k) knnPos[static_cast<size_t>(pos) * kVatKnn + k] = k < found ? p[k] : -1;
    knnReach[pos] = reachR;
}

/// Sorts each k-NN list by (exact value, original index) and turns its radius into the metric: every
/// point off the list is at least knnBound[p] away. One thread per position.
template <Metric M>
__global__ void vatKnnExactKernel(VatSpaceView space, int positions, int* __restrict__ knnPos,
                                  const float* __restrict__ knnReach, double* __restrict__ knnBound) {
    const int pos = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (pos >= positions) return;
    const int i = space.perm[pos];
    if (i < 0) return;
    const float* a = space.points + static_cast<size_t>(i) * space.d;
    int* list = knnPos + static_cast<size_t>(pos) * kVatKnn;
    int q[kVatKnn];
    double e[kVatKnn];
    int orig[kVatKnn];
    int found = 0;
    for (int k = 0; k < kVatKnn && list[k] >= 0; ++k) {
        const int pq = list[k];
        const int j = space.perm[pq];
        const double value = vatExactDistance<M>(a, space.points + static_cast<size_t>(j) * space.d, space.d);
        int at = found++;
        while (at > 0 && vatNearerThan(value, j, e[at - 1], orig[at - 1])) {
            e[at] = e[at - 1];
            q[at] = q[at - 1];
            orig[at] = orig[at - 1];
            --at;
        }
        e[at] = value;
        q[at] = pq;
        orig[at] = j;
    }
    for (int k = 0; k < kVatKnn; ++k) list[k] = k < found ? q[k] : -1;
    knnBound[pos] = vatMetricBelow(space.screen, static_cast<double>(knnReach[pos]));
}

}  // namespace clusterlens::cuda
