#pragma once
// The persistent CMD kernel's speculated shapes (mhca_persistent_kernels.cuh). The merged cluster's
// shape (thesis 2.5.3: scatter, two Cholesky factorisations, the inverse) is a chain of dependent
// steps that every block runs at the head of a merge, and the merge waits for it. Most merges do not
// involve the cluster the merge before made, so one block (the last, which owns no entries) takes,
// while merge m runs, the pair most likely to merge at m + 1 among the rows merge m leaves untouched:
// the first candidate of the blocks' parts whose row and partner are neither a nor b. It shapes that
// pair with the same functions into a record of merge m + 1; at merge m + 1 every block takes the
// record when, and only when, the plan merges exactly that row and partner. The speculating block
// runs the factorisations in merge m's shape phase and the inverse after barrier S3, where its row
// update is empty, so that it reaches neither barrier later than the others (its whole chain before
// S3 delayed S3 by ~5 us per merge at 44K).
//
// Why that is exact: the shape of c ∪ d is a function of the two slots' members, means and scatter
// matrices and their sizes alone (mergedShapeBlock; the weight depends on the size only), and merge m
// writes only slot a's (b dies). A pair without a and b therefore has at m + 1 the shape the record
// holds, bit for bit; a stale choice (a row the update gives another partner) only misses.
// Records alternate by merge parity: merge m + 1's is written while blocks may still read merge m's.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_merge_device.cuh"

namespace clusterlens::cuda::mhca {

/// Doubles of one record's payload: Σ'^-1 (p x p) then the packed scatter matrix.
__host__ __device__ __forceinline__ int specPayloadDoubles(int p) {
    return p * p + p * (p + 1) / 2;
}

/// Warp 0 of the speculating block, while its warp 1 plans merge st.merge (st: that merge's pair, the
/// closest candidate's row and partner, and its index): the first candidate (candidate order) among
/// parts[0 .. count).best, finals[0 .. finalCount) and `extra` (the last merged row, whose partner
/// `extraNn` block 0 may still be writing) whose row and partner are neither st.a nor st.b, as the
/// step of merge st.merge + 1 into *out (valid 0: none). Two dependent round trips (the candidates,
/// then their partners) and the two sizes; a long final list (a launch's prologue) is not searched.
/// Nothing when st.switchNow (the persistent kernel, which picks before the plan, passes 0: at a
/// switch its launch ends with that merge and the shape goes unused).
__device__ inline void speculatedStep(const MhcaView& v, const RowTop* parts, int count, const Candidate* finals,
                                      int finalCount, Candidate extra, int extraNn, const Step& st, Step* out) {
    constexpr int kPerLane = 8;
    if (threadIdx.x >= 32) return;
    const int lane = static_cast<int>(threadIdx.x);
    Candidate c = noCandidate();
    int nnC = -1;
    if (extra.slot >= 0 && extra.slot != st.a && extra.slot != st.b && extraNn >= 0 && extraNn != st.a &&
        extraNn != st.b && lane == 0) {
        c = extra;
        nnC = extraNn;
    }
    const int total = finalCount <= 32 * kPerLane ? count + finalCount : count;
    for (int base = 0; base < total; base += 32 * kPerLane) {
        Candidate x[kPerLane];
#pragma unroll
        for (int u = 0; u < kPerLane; ++u) {
            const int i = base + u * 32 + lane;
            x[u] = noCandidate();
            if (i < count) {
                x[u] = loadCandidate(&parts[i].best);
            } else if (i < total) {
                x[u] = loadCandidate(&finals[i - count]);
            }
        }
        int nn[kPerLane];
#pragma unroll
        for (int u = 0; u < kPerLane; ++u)
            nn[u] = x[u].slot < 0 ? -1 : (x[u].slot == extra.slot ? extraNn : __ldcg(&v.nearest.nn[x[u].slot]));
#pragma unroll
        for (int u = 0; u < kPerLane; ++u) {
            const bool clear = x[u].slot >= 0 && x[u].slot != st.a && x[u].slot != st.b && nn[u] >= 0 &&
                               nn[u] != st.a && nn[u] != st.b;
            if (clear && candidateBefore(x[u], c)) {
                c = x[u];
                nnC = nn[u];
            }
        }
    }
#pragma unroll 1
    for (int offset = 16; offset > 0; offset >>= 1) {
        Candidate o;
        o.key = __shfl_down_sync(0xffffffffu, c.key, offset);
        o.pos = __shfl_down_sync(0xffffffffu, c.pos, offset);
        o.slot = __shfl_down_sync(0xffffffffu, c.slot, offset);
        const int oNn = __shfl_down_sync(0xffffffffu, nnC, offset);
        if (candidateBefore(o, c)) {
            c = o;
            nnC = oNn;
        }
    }
    if (lane != 0) return;
    Step sp{};
    if (c.slot >= 0 && !st.switchNow) {  // a switch ends the launch with this merge
        sp.a = c.slot;
        sp.b = nnC;
        sp.sizeA = v.clusters.size[c.slot];
        sp.sizeB = v.clusters.size[nnC];
        sp.merge = st.merge + 1;
        sp.group = v.clusters.group[c.slot];
        sp.weight = mergeWeight(v.cfg, sp.sizeA + sp.sizeB);
        sp.valid = 1;
    }
    *out = sp;
}

/// Thread 0 of the speculating block: record `r` out, for merge r.merge (a = b = -1: none). The
/// fields, then the merge number with release: a block that acquires the number sees the rest, and
/// the payload written before the caller's barrier.
__device__ __forceinline__ void releaseSpecRecord(SpecShape* record, const SpecShape& r) {
    record->a = r.a;
    record->b = r.b;
    record->shaped = r.shaped;
    record->identity = r.identity;
    record->nmf = r.nmf;
    __threadfence();
    storeRelease(&record->merge, r.merge);
}

/// The record of merge `merge` that says there is no speculated shape.
__device__ __forceinline__ SpecShape noSpecRecord(int merge) {
    return SpecShape{merge, -1, -1, 0, 0, 0, 1.0};
}

/// The speculating block, whole, once the shape of `sp` is finished (or with sp.valid 0: none): its
/// payload from the area, then the record of merge `merge`. The blocks wait for it at that merge
/// (awaitSpecRecord), so there is one for every merge.
__device__ inline void publishSpecShape(const MhcaView& v, SpecShape* records, double* payloads, const ShapeArea& area,
                                        const ShapeResult& r, const Step& sp, int merge) {
    const int p = v.cfg.d, tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    if (sp.valid) {
        double* out = payloads + (merge & 1) * specPayloadDoubles(p);
        for (int t = tid; t < p * p; t += nt) out[t] = area.inverse[t];
        for (int t = tid; t < p * (p + 1) / 2; t += nt) out[p * p + t] = area.scatter[t];
        __syncthreads();
    }
    if (tid == 0) releaseSpecRecord(records + (merge & 1), sp.valid ? specRecordOf(sp, r) : noSpecRecord(merge));
}

/// The record of merge `merge` once it is out (a block's thread at that merge's shape phase): its
/// number acquired, then the fields from L2 (the block may hold the slot of two merges ago in L1).
__device__ __forceinline__ SpecShape awaitSpecRecord(const SpecShape* p, int merge) {
    SpecShape r;
    do {
        r.merge = loadAcquire(&p->merge);
    } while (r.merge != merge);
    r.a = __ldcg(&p->a);
    r.b = __ldcg(&p->b);
    r.shaped = __ldcg(&p->shaped);
    r.identity = __ldcg(&p->identity);
    r.pad = 0;
    r.nmf = __ldcg(&p->nmf);
    return r;
}

/// Thread 0 of a block at merge st.merge: whether the record stands for exactly this merge, and then
/// its outcome into *out.
__device__ __forceinline__ bool takeSpecRecord(const SpecShape& record, const Step& st, ShapeResult* out) {
    if (record.merge != st.merge || record.a != st.a || record.b != st.b) return false;
    *out = ShapeResult{record.nmf, record.shaped, record.identity};
    return true;
}

/// The record's payload of merge `merge` into the area (Σ'^-1 and the scatter matrix, what the merge
/// reads of a computed shape), by threads tid of nt; the caller's barrier publishes it. L2 loads: the
/// block may hold the same record slot of two merges ago in L1.
__device__ inline void loadSpecShape(const MhcaView& v, const double* payloads, int merge, const ShapeArea& area,
                                     int tid, int nt) {
    const int p = v.cfg.d;
    const double* in = payloads + (merge & 1) * specPayloadDoubles(p);
    for (int t = tid; t < p * p; t += nt) area.inverse[t] = __ldcg(&in[t]);
    for (int t = tid; t < p * (p + 1) / 2; t += nt) area.scatter[t] = __ldcg(&in[p * p + t]);
}

}  // namespace clusterlens::cuda::mhca
