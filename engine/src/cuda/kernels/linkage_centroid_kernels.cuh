#pragma once
// Kernels of the GPU centroid linkage: the initial nearest-neighbour array and the persistent
// merge kernel of the generic algorithm.

#include "cuda/kernels/linkage_common.cuh"

namespace clusterlens::cuda {

/// Initial nearest-neighbour array of n singleton slots: for each slot i the slot j != i with the
/// smallest (squared centroid distance, pairTie(i, j)). One thread per slot; candidate rows stream
/// through shared memory in tiles of `tileRows` (dynamic shared memory: tileRows·d doubles).
/// O(n² d) double operations.
__global__ void initialNearestKernel(const double* __restrict__ d_centroid, int n, int d, int tileRows,
                                     int* __restrict__ d_nn, double* __restrict__ d_nnDist) {
    extern __shared__ double s_tile[];
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const bool active = i < n;
    const double* own = d_centroid + static_cast<size_t>(active ? i : 0) * d;
    LinkageKey best = emptyLinkageKey();
    for (int t0 = 0; t0 < n; t0 += tileRows) {
        const int rows = min(tileRows, n - t0);
        for (int e = threadIdx.x; e < rows * d; e += blockDim.x)
            s_tile[e] = d_centroid[static_cast<size_t>(t0) * d + e];
        __syncthreads();
        if (active) {
            for (int r = 0; r < rows; ++r) {
                const int j = t0 + r;
                if (j == i) continue;
                const LinkageKey key{centroidDistance2(own, s_tile + static_cast<size_t>(r) * d, d), pairTie(i, j), j};
                if (keyBefore(key, best)) best = key;
            }
        }
        __syncthreads();
    }
    if (active) {
        d_nn[i] = best.slot;
        d_nnDist[i] = best.dist;
    }
}

/// The thread that owns list position p in the grid-strided loops of the merge kernel.
__device__ inline int ownerRank(int p, int threadCount) {
    return p % threadCount;
}

/// Key of slot s in the nearest-neighbour array; a stale entry (lower bound) carries ~s as payload.
__device__ inline LinkageKey nearestKey(const LinkageDeviceData& a, int s) {
    return LinkageKey{a.nnDist[s], pairTie(s, a.nn[s]), a.stale[s] ? ~s : s};
}

/// Minimum of the nearest-neighbour keys of the active slots this thread owns.
__device__ inline LinkageKey ownedMinimum(const LinkageDeviceData& a, int threadRank, int threadCount) {
    LinkageKey running = emptyLinkageKey();
    for (int p = threadRank; p < a.listLength; p += threadCount) {
        const int s = a.list[p];
        if (a.size[s] == 0) continue;
        const LinkageKey key = nearestKey(a, s);
        if (keyBefore(key, running)) running = key;
    }
    return running;
}

/// Block minimum to partial[blockIdx.x], grid-wide barrier, then the minimum over all blocks.
__device__ inline LinkageKey gridMinimum(LinkageKey key, LinkageKey* partial, LinkageKey* s_warp) {
    key = blockMinKey(key, s_warp);
    if (threadIdx.x == 0) partial[blockIdx.x] = key;
    cooperative_groups::this_grid().sync();
    return reducePartials(partial, gridDim.x, s_warp);
}

/// Centroid linkage by the generic algorithm (Müllner 2011, section 3.1, "Generic_linkage"; scipy's
/// fast_linkage): each active slot keeps its nearest active slot, exactly or, after its neighbour
/// was merged away, as a lower bound (stale). A merge takes the global minimum; when that minimum is
/// stale the slot first rescans all active slots for its exact neighbour. After a merge every slot
/// compares itself with the new centroid (a closer new cluster makes the entry exact again). Centroid
/// distances are not reducible, so heights may decrease; merges are recorded in the order they happen.
/// Each slot's entry is written only by the thread that owns its list position, which also keeps the
/// running minimum of its entries: a merge costs two grid-wide barriers, a rescan two more.
/// Dynamic shared memory: d doubles.
__global__ void centroidLinkageKernel(LinkageDeviceData a) {
    extern __shared__ double s_centroid[];
    __shared__ LinkageKey s_warp[33];

    const int threadRank = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int threadCount = static_cast<int>(gridDim.x * blockDim.x);
    int merges = a.state->merges;
    const int target = min(a.n - 1, merges + a.maxMerges);
    int parity = 0;
    LinkageKey running = ownedMinimum(a, threadRank, threadCount);
    while (merges < target) {
        const LinkageKey top = gridMinimum(running, a.partial + parity * gridDim.x, s_warp);
        parity ^= 1;
        if (top.slot < 0) {
            // A lower bound is smallest: find the exact nearest neighbour of that slot.
            const int s = ~top.slot;
            for (int k = threadIdx.x; k < a.d; k += blockDim.x)
                s_centroid[k] = a.centroid[static_cast<size_t>(s) * a.d + k];
            __syncthreads();
            LinkageKey best = emptyLinkageKey();
            for (int p = threadRank; p < a.listLength; p += threadCount) {
                const int t = a.list[p];
                if (t == s || a.size[t] == 0) continue;
                const LinkageKey key{centroidDistance2(a.centroid + static_cast<size_t>(t) * a.d, s_centroid, a.d),
                                     pairTie(s, t), t};
                if (keyBefore(key, best)) best = key;
            }
            const LinkageKey nearest = gridMinimum(best, a.partial + parity * gridDim.x, s_warp);
            parity ^= 1;
            if (threadRank == ownerRank(a.position[s], threadCount)) {
                a.nn[s] = nearest.slot;
                a.nnDist[s] = nearest.dist;
                a.stale[s] = 0;
                running = ownedMinimum(a, threadRank, threadCount);
            }
            continue;
        }

        const int lo = static_cast<int>(top.tie >> 32), hi = static_cast<int>(top.tie & 0xffffffffLL);
        const double nlo = a.size[lo], nhi = a.size[hi];
        for (int k = threadIdx.x; k < a.d; k += blockDim.x)
            s_centroid[k] = (nlo * a.centroid[static_cast<size_t>(lo) * a.d + k] +
                             nhi * a.centroid[static_cast<size_t>(hi) * a.d + k]) /
                            (nlo + nhi);
        __syncthreads();

        // Every other slot against the new cluster, which is its exact neighbour if it is closer than
        // the (exact or lower-bound) entry; entries that pointed at lo or hi become lower bounds.
        running = emptyLinkageKey();
        LinkageKey best = emptyLinkageKey();
        for (int p = threadRank; p < a.listLength; p += threadCount) {
            const int s = a.list[p];
            if (s == lo || s == hi || a.size[s] == 0) continue;
            const double c2 = centroidDistance2(a.centroid + static_cast<size_t>(s) * a.d, s_centroid, a.d);
            const LinkageKey toNew{c2, pairTie(s, hi), s};
            if (keyBefore(toNew, best)) best = toNew;
            const int t = a.nn[s];
            LinkageKey own{a.nnDist[s], pairTie(s, t), a.stale[s] ? ~s : s};
            if (keyBefore(toNew, own)) {
                a.nn[s] = hi;
                a.nnDist[s] = c2;
                if (own.slot < 0) a.stale[s] = 0;
                own = toNew;
            } else if ((t == lo || t == hi) && own.slot >= 0) {
                a.stale[s] = 1;
                own.slot = ~s;
            }
            if (keyBefore(own, running)) running = own;
        }
        const LinkageKey newNearest = gridMinimum(best, a.partial + parity * gridDim.x, s_warp);
        parity ^= 1;
        if (blockIdx.x == 0) {
            for (int k = threadIdx.x; k < a.d; k += blockDim.x)
                a.centroid[static_cast<size_t>(hi) * a.d + k] = s_centroid[k];
            if (threadIdx.x == 0) {
                a.size[hi] = static_cast<int>(nlo + nhi);
                a.size[lo] = 0;
                a.mergeLo[merges] = lo;
                a.mergeHi[merges] = hi;
                a.mergeValue[merges] = top.dist;
            }
        }
        if (threadRank == ownerRank(a.position[hi], threadCount) && newNearest.slot >= 0) {
            a.nn[hi] = newNearest.slot;
            a.nnDist[hi] = newNearest.dist;
            a.stale[hi] = 0;
            const LinkageKey own{newNearest.dist, pairTie(hi, newNearest.slot), hi};
            if (keyBefore(own, running)) running = own;
        }
        ++merges;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) a.state->merges = merges;
}

}  // namespace clusterlens::cuda
