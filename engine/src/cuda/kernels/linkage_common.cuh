#pragma once
// Shared pieces of the matrix-free GPU ward and centroid linkages (Müllner 2011, "Modern
// hierarchical, agglomerative clustering algorithms"): clusters are (centroid in double, size).
//
// Both linkage kernels are persistent cooperative kernels: every block scans a grid-strided share of
// the active clusters, block minima go to `partial`, one grid-wide barrier, and then every block
// reduces the partials itself (identical result everywhere, so the control flow of all blocks stays
// in step). A launch performs up to `maxMerges` merges and saves its state, so the host can check
// for a cancel and compact the list of active clusters between launches. Minima are taken over a
// total order (distance, tie) with the tie unique per candidate: the outcome does not depend on the
// grid shape.

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <climits>

namespace clusterlens::cuda {

/// A candidate: ordered by dist, then tie (unique per candidate); slot is the payload.
struct LinkageKey {
    double dist;
    long long tie;
    int slot;
};

/// Merges done and nearest-neighbour chain length, kept on the device between launches.
struct LinkageState {
    int merges;
    int chainLength;
};

/// Everything the linkage kernels touch. A cluster lives in a slot; list[0..listLength) holds the
/// slots that were active when the host last compacted (dead ones have size 0).
///   ward:     slots are cluster ids (0..n-1 leaves, n+m the cluster of merge m, never reused);
///             ids from firstNew on were created during this launch and are scanned after the list.
///   centroid: slots 0..n-1; a merge of lo < hi puts the new cluster into slot hi and frees lo;
///             `position` gives each slot's index in the list, which fixes its owner thread.
struct LinkageDeviceData {
    double* centroid;     ///< slots x d, row-major
    int* size;            ///< per slot, 0 = dead
    const int* list;      ///< active slots at launch
    const int* position;  ///< centroid: list index of each listed slot
    int listLength;
    int firstNew;  ///< ward: first id created during this launch
    int n;
    int d;
    int maxMerges;
    int* nn;               ///< centroid: nearest active slot of each active slot
    double* nnDist;        ///< centroid: its squared centroid distance
    unsigned char* stale;  ///< centroid: 1 = nnDist is only a lower bound (its neighbour was merged)
    int* chain;            ///< ward: nearest-neighbour chain of ids
    LinkageKey* partial;   ///< 2 x gridDim.x block minima (alternating buffers)
    int* mergeLo;          ///< per merge: smaller slot
    int* mergeHi;          ///< per merge: larger slot
    double* mergeValue;    ///< per merge: squared merge distance
    LinkageState* state;
};

__device__ inline LinkageKey emptyLinkageKey() {
    return LinkageKey{__longlong_as_double(0x7ff0000000000000LL), LLONG_MAX, -1};
}

__device__ inline bool keyBefore(const LinkageKey& a, const LinkageKey& b) {
    return a.dist < b.dist || (a.dist == b.dist && a.tie < b.tie);
}

/// Tie of an unordered slot pair: (min, max) packed.
__device__ inline long long pairTie(int a, int b) {
    return (static_cast<long long>(min(a, b)) << 32) | static_cast<long long>(max(a, b));
}

/// Squared Euclidean distance of two double d-vectors, separately rounded multiply and add summed
/// from the first feature to the last: on singletons it equals exactSquaredDistance of the floats.
/// `b` is loaded 16 features at a time into registers, so one memory latency covers a whole chunk.
__device__ inline double centroidDistance2(const double* a, const double* b, int d) {
    constexpr int kChunk = 16;
    double sum = 0.0;
    for (int k0 = 0; k0 < d; k0 += kChunk) {
        double v[kChunk];
#pragma unroll
        for (int k = 0; k < kChunk; ++k) v[k] = k0 + k < d ? b[k0 + k] : 0.0;
#pragma unroll
        for (int k = 0; k < kChunk; ++k) {
            if (k0 + k < d) {
                const double diff = a[k0 + k] - v[k];
                sum = __dadd_rn(sum, __dmul_rn(diff, diff));
            }
        }
    }
    return sum;
}

/// Ward's squared distance of clusters with sizes na, nb from their squared centroid distance:
/// d² = 2·na·nb/(na+nb)·‖μa−μb‖², the Lance–Williams ward recurrence in closed form.
__device__ inline double wardValue(double na, double nb, double centroid2) {
    return 2.0 * na * nb / (na + nb) * centroid2;
}

__device__ inline LinkageKey shuffleKey(const LinkageKey& k, int offset) {
    LinkageKey o;
    o.dist = __shfl_down_sync(0xffffffffu, k.dist, offset);
    o.tie = __shfl_down_sync(0xffffffffu, k.tie, offset);
    o.slot = __shfl_down_sync(0xffffffffu, k.slot, offset);
    return o;
}

/// Minimum over the block (blockDim.x a multiple of 32); every thread gets the result.
__device__ inline LinkageKey blockMinKey(LinkageKey key, LinkageKey* s_warp) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        const LinkageKey other = shuffleKey(key, offset);
        if (keyBefore(other, key)) key = other;
    }
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) s_warp[warp] = key;
    __syncthreads();
    if (warp == 0) {
        key = lane < static_cast<int>(blockDim.x / 32) ? s_warp[lane] : emptyLinkageKey();
        for (int offset = 16; offset > 0; offset >>= 1) {
            const LinkageKey other = shuffleKey(key, offset);
            if (keyBefore(other, key)) key = other;
        }
        if (lane == 0) s_warp[32] = key;
    }
    __syncthreads();
    const LinkageKey result = s_warp[32];
    __syncthreads();
    return result;
}

/// Minimum of `count` partial keys, read and reduced by warp 0; every thread gets the result.
__device__ inline LinkageKey reducePartials(const LinkageKey* partials, int count, LinkageKey* s_warp) {
    if (threadIdx.x < 32) {
        LinkageKey key = emptyLinkageKey();
        for (int b = threadIdx.x; b < count; b += 32) {
            const LinkageKey other = partials[b];
            if (keyBefore(other, key)) key = other;
        }
        for (int offset = 16; offset > 0; offset >>= 1) {
            const LinkageKey other = shuffleKey(key, offset);
            if (keyBefore(other, key)) key = other;
        }
        if (threadIdx.x == 0) s_warp[32] = key;
    }
    __syncthreads();
    const LinkageKey result = s_warp[32];
    __syncthreads();
    return result;
}

}  // namespace clusterlens::cuda
