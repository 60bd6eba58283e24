#pragma once
// The nearest-neighbour-chain kernel of the GPU ward linkage.

#include "cuda/kernels/linkage_common.cuh"

namespace clusterlens::cuda {

/// Nearest-neighbour chain for Ward's method (Benzécri 1982; Müllner 2011, NN-chain-linkage), as
/// scipy's nn_chain: grow the chain by the nearest active cluster of its top (the previous chain
/// element wins ties, then the smaller id) until the top two are reciprocal nearest neighbours, then
/// merge them. Ward's distance is reducible, so the merges equal the greedy ones; the host sorts them
/// by height. One grid-wide barrier per chain step: cluster ids are never reused (the cluster of
/// merge m is id n+m), so block 0 can publish a merge at once while every block keeps the merged
/// centroid and the two dead ids in shared memory/registers for the one scan that follows it.
/// Dynamic shared memory: 2·d doubles.
__global__ void wardChainKernel(LinkageDeviceData a) {
    namespace cg = cooperative_groups;
    cg::grid_group grid = cg::this_grid();
    extern __shared__ double s_ward[];
    double* s_query = s_ward;
    double* s_fresh = s_ward + a.d;
    __shared__ LinkageKey s_warp[33];

    const int threadRank = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int threadCount = static_cast<int>(gridDim.x * blockDim.x);
    const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
    int merges = a.state->merges;
    int length = a.state->chainLength;
    int x = 0, prev = -1;
    if (length == 0) {
        x = a.list[0];
        length = 1;
        if (leader) a.chain[0] = x;
    } else {
        x = a.chain[length - 1];
        prev = length > 1 ? a.chain[length - 2] : -1;
    }
    // The latest merge, not yet visible through global memory: new id, its size, the two dead ids.
    int fresh = -1, freshSize = 0, deadA = -1, deadB = -1;
    const int target = min(a.n - 1, merges + a.maxMerges);
    int parity = 0;
    while (merges < target) {
        const bool queryIsFresh = x == fresh;
        for (int k = threadIdx.x; k < a.d; k += blockDim.x)
            s_query[k] = queryIsFresh ? s_fresh[k] : a.centroid[static_cast<size_t>(x) * a.d + k];
        const double nx = queryIsFresh ? freshSize : a.size[x];
        // prev's size is read here, before the barrier: if x and prev merge, block 0 zeroes both
        // sizes right after it while a slower block may not yet have read them.
        const double nPrev = prev < 0 ? 0.0 : (prev == fresh ? freshSize : a.size[prev]);
        __syncthreads();
        LinkageKey best = emptyLinkageKey();
        const int total = a.listLength + (a.n + merges - a.firstNew);
        for (int p = threadRank; p < total; p += threadCount) {
            const int s = p < a.listLength ? a.list[p] : a.firstNew + (p - a.listLength);
            if (s == x || s == deadA || s == deadB) continue;
            const bool isFresh = s == fresh;
            const int ns = isFresh ? freshSize : a.size[s];
            if (ns == 0) continue;
            const double* row = isFresh ? s_fresh : a.centroid + static_cast<size_t>(s) * a.d;
            const double c2 = centroidDistance2(s_query, row, a.d);
            const LinkageKey key{wardValue(nx, ns, c2), (static_cast<long long>(s != prev) << 32) | s, s};
            if (keyBefore(key, best)) best = key;
        }
        best = blockMinKey(best, s_warp);
        LinkageKey* partial = a.partial + parity * gridDim.x;
        if (threadIdx.x == 0) partial[blockIdx.x] = best;
        grid.sync();
        const LinkageKey y = reducePartials(partial, gridDim.x, s_warp);
        parity ^= 1;
        fresh = deadA = deadB = -1;  // the barrier published the previous merge
        if (length > 1 && y.slot == prev) {
            const int lo = min(x, prev), hi = max(x, prev), id = a.n + merges;
            const double nlo = lo == x ? nx : nPrev, nhi = hi == x ? nx : nPrev;
            for (int k = threadIdx.x; k < a.d; k += blockDim.x)
                s_fresh[k] = (nlo * a.centroid[static_cast<size_t>(lo) * a.d + k] +
                              nhi * a.centroid[static_cast<size_t>(hi) * a.d + k]) /
                             (nlo + nhi);
            __syncthreads();
            if (blockIdx.x == 0) {
                for (int k = threadIdx.x; k < a.d; k += blockDim.x)
                    a.centroid[static_cast<size_t>(id) * a.d + k] = s_fresh[k];
                if (threadIdx.x == 0) {
                    a.size[id] = static_cast<int>(nlo + nhi);
                    a.size[lo] = 0;
                    a.size[hi] = 0;
                    a.mergeLo[merges] = lo;
                    a.mergeHi[merges] = hi;
                    a.mergeValue[merges] = y.dist;
                }
            }
            fresh = id;
            freshSize = static_cast<int>(nlo + nhi);
            deadA = lo;
            deadB = hi;
            ++merges;
            length -= 2;
            if (length == 0) {
                x = id;
                prev = -1;
                length = 1;
                if (leader) a.chain[0] = id;
            } else {
                x = a.chain[length - 1];
                prev = length > 1 ? a.chain[length - 2] : -1;
            }
        } else {
            if (leader) a.chain[length] = y.slot;
            ++length;
            prev = x;
            x = y.slot;
        }
    }
    if (leader) {
        a.state->merges = merges;
        a.state->chainLength = length;
    }
}

}  // namespace clusterlens::cuda
