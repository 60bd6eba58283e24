#pragma once
// What the persistent CMD kernel and the growth kernel beside it (mhca_growth_kernel.cuh) exchange:
// the plans, the merged cluster's nearest partner, the intents and records, and the acquire/release
// accesses that order them.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_merge_device.cuh"

namespace clusterlens::cuda::mhca {

/// No candidate partner (the largest key).
constexpr unsigned long long kNoNearest = ~0ull;

/// The order key of a candidate partner of the merged cluster: the float bits of its distance (not
/// negative, so they order as unsigned integers), then its slot. The float rounding can only change
/// which of two nearly tied partners is taken: a guess, not a merge.
__device__ __forceinline__ unsigned long long nearestKey(double dist, int slot) {
    if (!(dist >= 0.0)) return kNoNearest;
    return (static_cast<unsigned long long>(__float_as_uint(__double2float_ru(dist))) << 32) |
           static_cast<unsigned int>(slot);
}

__device__ __forceinline__ int acquireInt(const int* p) {
    int value;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(value) : "l"(p) : "memory");
    return value;
}

__device__ __forceinline__ unsigned int acquireUint(const unsigned int* p) {
    unsigned int value;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(p) : "memory");
    return value;
}

__device__ __forceinline__ void releaseInt(int* p, int value) {
    asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(value) : "memory");
}

/// The speculating block's planning thread: merge `st.merge`'s plan for the growth kernel.
__device__ __forceinline__ void publishPlan(PlanRecord* record, const Step& st) {
    record->a = st.a;
    record->b = st.b;
    record->sizeA = st.sizeA;
    record->sizeB = st.sizeB;
    record->valid = st.valid && !st.switchNow ? 1 : 0;
    __threadfence();
    releaseInt(&record->merge, st.merge);
}

/// Every thread of a worker block after its new distances of merge m (`key`: its nearest partner of
/// the merged cluster): the block's nearest into g.nearest[m & 1], and the block counted in g.counted,
/// by the block's last warp to get here (no block barrier: the rows update meanwhile). *s_key and
/// *s_warps: kNoNearest and 0 between merges.
__device__ inline void offerNearest(const GrowthShared& g, int m, unsigned long long key, unsigned long long* s_key,
                                    unsigned int* s_warps) {
#pragma unroll 1
    for (int offset = 16; offset > 0; offset >>= 1) key = min(key, __shfl_down_sync(0xffffffffu, key, offset));
    if ((threadIdx.x & 31u) != 0u) return;
    atomicMin(s_key, key);
    __threadfence_block();
    if (atomicAdd(s_warps, 1u) != (blockDim.x >> 5) - 1u) return;
    __threadfence_block();
    const unsigned long long best = atomicExch(s_key, kNoNearest);
    atomicExch(s_warps, 0u);
    if (best != kNoNearest) atomicMin(&g.nearest[m & 1], best);
    __threadfence();
    atomicAdd(g.counted, 1u);
}

/// Thread 0 of a block at merge st.merge: whether the growth kernel's intent of this merge is out and
/// names exactly the planned pair (then its record will follow: awaitSpecRecord).
__device__ __forceinline__ bool growthIntended(const SpecShape* intent, const Step& st) {
    if (acquireInt(&intent->merge) != st.merge) return false;
    return __ldcg(&intent->a) == st.a && __ldcg(&intent->b) == st.b;
}

/// Thread 0: the newest plan at or after merge `next`, or merge -1 once the persistent kernel ended
/// its launch. A slot rewritten while read (two merges later) is read again.
__device__ inline PlanRecord awaitPlan(const GrowthShared& g, int next) {
    for (;;) {
        for (int k = 0; k < 2; ++k) {
            const int other = acquireInt(&g.plans[k ^ 1].merge);
            const int merge = acquireInt(&g.plans[k].merge);
            if (merge < next || merge < other) continue;
            PlanRecord r;
            r.a = __ldcg(&g.plans[k].a);
            r.b = __ldcg(&g.plans[k].b);
            r.sizeA = __ldcg(&g.plans[k].sizeA);
            r.sizeB = __ldcg(&g.plans[k].sizeB);
            r.valid = __ldcg(&g.plans[k].valid);
            __threadfence();
            r.merge = acquireInt(&g.plans[k].merge);
            if (r.merge == merge) return r;
        }
        if (acquireInt(g.stop) != 0) {
            PlanRecord none{};
            none.merge = -1;
            return none;
        }
    }
}

/// Thread 0: waits until `expected` worker blocks counted their nearest (or the launch ended: false).
__device__ inline bool awaitNearest(const GrowthShared& g, unsigned int expected) {
    while (acquireUint(g.counted) < expected)
        if (acquireInt(g.stop) != 0) return false;
    return true;
}

}  // namespace clusterlens::cuda::mhca
