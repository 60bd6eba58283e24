#pragma once
// What the persistent CMD kernel and the growth kernel beside it (mhca_growth_kernel.cuh) exchange:
// the plans, the merged cluster's nearest partner, the intents and records (ordered by mhca_device.cuh's
// acquiring and releasing accesses).

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"

namespace clusterlens::cuda::mhca {

/// No candidate partner (the largest key).
constexpr unsigned long long kNoNearest = ~0ull;
/// The low bits of a published key: its merge index modulo 4096 (the key's own low bits are zero).
constexpr unsigned long long kNearestTag = 0xfffull;

/// The order key of a candidate partner of the merged cluster: the float bits of its distance (not
/// negative, so they order as unsigned integers), then its slot, then 12 zero bits for the merge tag.
/// The float rounding can only change which of two nearly tied partners is taken: a guess, not a merge.
__device__ __forceinline__ unsigned long long nearestKey(double dist, int slot) {
    if (!(dist >= 0.0)) return kNoNearest;
    return (static_cast<unsigned long long>(__float_as_uint(__double2float_ru(dist))) << 32) |
           (static_cast<unsigned long long>(static_cast<unsigned int>(slot)) << 12);
}

/// The slot of a key, or -1 for none.
__device__ __forceinline__ int nearestSlot(unsigned long long key) {
    return (key | kNearestTag) == kNoNearest ? -1 : static_cast<int>((key >> 12) & 0xfffffull);
}

/// The speculating block's planning thread: merge `st.merge`'s plan for the growth kernel.
__device__ __forceinline__ void publishPlan(PlanRecord* record, const Step& st) {
    record->a = st.a;
    record->b = st.b;
    record->sizeA = st.sizeA;
    record->sizeB = st.sizeB;
    record->valid = st.valid && !st.switchNow ? 1 : 0;
    __threadfence();
    storeRelease(&record->merge, st.merge);
}

/// Every thread of a worker block after its new distances of merge m (`key`: its nearest partner of
/// the merged cluster): the warp's nearest, tagged with m, into its entry of g.nearest. One store, no
/// fence and no count: the tag tells the growth kernel that the entry is merge m's.
__device__ __forceinline__ void offerNearest(const GrowthShared& g, int m, unsigned long long key) {
#pragma unroll 1
    for (int offset = 16; offset > 0; offset >>= 1) key = min(key, __shfl_down_sync(0xffffffffu, key, offset));
    if ((threadIdx.x & 31u) == 0u) {
        const unsigned int warp = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
        __stcg(&g.nearest[static_cast<size_t>(m & 1) * g.stride + warp],
               (key & ~kNearestTag) | (static_cast<unsigned long long>(m) & kNearestTag));
    }
}

/// Thread 0 of a block at merge st.merge: whether the growth kernel's intent of this merge is out and
/// names exactly the planned pair (then its record will follow: awaitSpecRecord).
__device__ __forceinline__ bool growthIntended(const SpecShape* intent, const Step& st) {
    if (loadAcquire(&intent->merge) != st.merge) return false;
    return __ldcg(&intent->a) == st.a && __ldcg(&intent->b) == st.b;
}

/// Thread 0: the newest plan at or after merge `next`, or merge -1 once the persistent kernel ended
/// its launch. A slot rewritten while read (two merges later) is read again.
__device__ inline PlanRecord awaitPlan(const GrowthShared& g, int next) {
    for (;;) {
        for (int k = 0; k < 2; ++k) {
            const int other = loadAcquire(&g.plans[k ^ 1].merge);
            const int merge = loadAcquire(&g.plans[k].merge);
            if (merge < next || merge < other) continue;
            PlanRecord r;
            r.a = __ldcg(&g.plans[k].a);
            r.b = __ldcg(&g.plans[k].b);
            r.sizeA = __ldcg(&g.plans[k].sizeA);
            r.sizeB = __ldcg(&g.plans[k].sizeB);
            r.valid = __ldcg(&g.plans[k].valid);
            __threadfence();
            r.merge = loadAcquire(&g.plans[k].merge);
            if (r.merge == merge) return r;
        }
        if (loadAcquire(g.stop) != 0) {
            PlanRecord none{};
            none.merge = -1;
            return none;
        }
    }
}

/// The block's threads (tid of nt): the smallest key of the first `entries` warps' entries of merge m,
/// each once its tag is m's; an entry already a later merge's (this kernel ran late), or the launch's
/// end, gives none. Untagged (tag bits ones); the caller reduces over the block.
__device__ inline unsigned long long nearestOfMerge(const GrowthShared& g, int m, int entries, int tid, int nt) {
    const unsigned long long tag = static_cast<unsigned long long>(m) & kNearestTag;
    const unsigned long long* parts = g.nearest + static_cast<size_t>(m & 1) * g.stride;
    unsigned long long best = kNoNearest;
    for (int i = tid; i < entries; i += nt) {
        unsigned long long key;
        for (;;) {
            key = loadRelaxed(&parts[i]);
            const unsigned long long ahead = ((key & kNearestTag) - tag) & kNearestTag;
            if (ahead == 0) break;
            if (ahead < kNearestTag / 2 || loadAcquire(g.stop) != 0) {
                key = kNoNearest;
                break;
            }
        }
        best = min(best, key | kNearestTag);
    }
    return best;
}

}  // namespace clusterlens::cuda::mhca
