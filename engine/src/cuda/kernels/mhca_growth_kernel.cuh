#pragma once
// The growth kernel: one block beside the persistent CMD kernel (mhca_persistent_kernels.cuh), on
// another stream and its own multiprocessor. About 27 % of the merges of the cytometry-like
// benchmarks take the cluster C = a ∪ b that the merge before made; the speculating block cannot
// shape those pairs, since C's partner E is known only from C's new distances, so their shape chain
// (~20 µs at 44K) stood at the head of the merge. While merge m runs, this kernel takes merge m's plan
// (published by the speculating block), E, the nearest cluster to C by merge m's new distances (each
// worker warp's nearest, tagged with the merge, reduced here: on the CPU reference E is the partner of
// every such merge), and publishes the pair (C, E) as merge m + 1's intent, then its shape as a
// speculation record. At merge m + 1 a block whose plan merges exactly the intent's pair waits for
// that record instead of shaping the pair itself.
//
// Why that is exact: the shape of C ∪ E is a function of the members in mhclust.c's order (the earlier
// position's first) and of the sizes (mergedShapeBlock). At merge m + 1, C's member list is a's list
// followed by b's (copyMergedMembers); this kernel reads both lists as they are during merge m (a list's
// first `size` entries never change within a launch) and shapes the pair with the same functions.
// A wrong guess only misses.
//
// Why nothing can deadlock: a block waits for a record only after its intent is out, and the kernel
// finishes every shape whose intent it published without waiting for anything. The kernel itself waits
// only for the persistent kernel's progress, and stops when that kernel ends its launch. Running late,
// its intents arrive after their merge and are never read.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_growth_shared.cuh"
#include "cuda/kernels/mhca_merge_device.cuh"
#include "cuda/kernels/mhca_persistent_speculation.cuh"

namespace clusterlens::cuda::mhca {

/// The growth kernel (file comment): one block of kPersistentThreads beside a launch of the persistent
/// CMD kernel whose first `workers` blocks own entries, in a single-group run with an identity list
/// (positions are slots, so the pair's first row is its lower slot). Dynamic shared memory:
/// ShapeLayout{d, stageRows} doubles, then two member lists of memberCap ints.
__global__ void __launch_bounds__(kPersistentThreads, 1)
    cmdGrowthKernel(MhcaView v, GrowthShared g, int workers, int stageRows) {
    extern __shared__ double s_dyn[];
    __shared__ PlanRecord s_plan;
    __shared__ Step s_step;
    __shared__ ShapeResult s_shape;
    __shared__ int s_flag;
    __shared__ double s_value;
    __shared__ unsigned long long s_nearest;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    const int cap = v.cfg.memberCap;
    const ShapeArea area = shapeArea(s_dyn, v.cfg.d, stageRows);
    // The pair's member lists as slots 0 and 1 of a view of its own (mergedMember reads them there).
    int* lists = reinterpret_cast<int*>(s_dyn + ShapeLayout{v.cfg.d, stageRows}.doubles());
    MhcaView local = v;
    local.clusters.members = lists;
    const int entries = workers * (kPersistentThreads / 32);  // the worker warps' nearest partners
    int next = *v.mergeLog.mergeCount;  // the host launches the kernel after the last launch's work
    for (;;) {
        __syncthreads();  // every thread read the last merge's plan and step
        if (tid == 0) {
            s_plan = awaitPlan(g, next);
            s_step.valid = 0;
            s_nearest = kNoNearest;
        }
        __syncthreads();
        const int m = s_plan.merge;
        if (m < 0) break;
        next = m + 1;
        if (!s_plan.valid) continue;
        const unsigned long long mine = nearestOfMerge(g, m, entries, tid, nt);
        if (mine != kNoNearest) atomicMin(&s_nearest, mine);
        __syncthreads();
        if (tid == 0) {
            const int c = s_plan.a, e = nearestSlot(s_nearest);
            const int sizeC = s_plan.sizeA + s_plan.sizeB;
            const int sizeE = e >= 0 ? __ldcg(&v.clusters.size[e]) : 0;
            if (e >= 0 && e != c && e != s_plan.b && __ldcg(&v.clusters.alive[e]) && sizeC + sizeE <= cap) {
                Step sp{};
                sp.a = min(c, e);
                sp.b = max(c, e);
                sp.sizeA = sp.a == c ? sizeC : sizeE;
                sp.sizeB = sizeC + sizeE - sp.sizeA;
                sp.merge = m + 1;
                sp.weight = mergeWeight(v.cfg, sizeC + sizeE);
                sp.valid = 1;
                s_step = sp;
                SpecShape* intent = &g.intents[sp.merge & 1];
                intent->a = sp.a;
                intent->b = sp.b;
                __threadfence();
                storeRelease(&intent->merge, sp.merge);
            }
        }
        __syncthreads();
        const Step sp = s_step;
        if (!sp.valid) continue;
        // C's members (a's list, then b's) and E's, each into the list of its position in the pair;
        // from L2: this block's L1 may hold a list's line from before the list grew.
        const int sizeC = s_plan.sizeA + s_plan.sizeB;
        int* listC = lists + (sp.a == s_plan.a ? 0 : cap);
        int* listE = lists + (sp.a == s_plan.a ? cap : 0);
        const int e = sp.a == s_plan.a ? sp.b : sp.a;
        const size_t capStride = static_cast<size_t>(cap);
        for (int k = tid; k < sp.sizeA + sp.sizeB; k += nt) {
            if (k < s_plan.sizeA) {
                listC[k] = __ldcg(&v.clusters.members[static_cast<size_t>(s_plan.a) * capStride + k]);
            } else if (k < sizeC) {
                listC[k] = __ldcg(&v.clusters.members[static_cast<size_t>(s_plan.b) * capStride + (k - s_plan.sizeA)]);
            } else {
                listE[k - sizeC] = __ldcg(&v.clusters.members[static_cast<size_t>(e) * capStride + (k - sizeC)]);
            }
        }
        __syncthreads();
        Step pair = sp;  // the same step, its lists at slots 0 and 1 of the local view
        pair.a = 0;
        pair.b = 1;
        mergedShapeBlock(local.cfg, local.clusters, pair, area, &s_shape, &s_flag, &s_value, ShapeTeam{tid, nt, 0},
                         true);
        publishSpecShape(v, g.records, g.payload, area, s_shape, sp, sp.merge);
    }
}

}  // namespace clusterlens::cuda::mhca
