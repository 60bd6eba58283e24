#pragma once
// The phases of the persistent CMD kernel's merge loop (mhca_persistent_kernels.cuh): the entries each
// thread owns, warp 0's reductions over the blocks' parts (closest candidate, the merged row's top, the
// smallest new key), the rescan pass, the streaming of the other clusters' side forms, the merged
// cluster's new distances and the row update over a block's range. Every function keeps the
// arithmetic of the per-stage kernels (shared __device__ functions), so merges stay those of mhcaCpu.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_distance_forms.cuh"
#include "cuda/kernels/mhca_growth_shared.cuh"
#include "cuda/kernels/mhca_merge_device.cuh"
#include "cuda/kernels/mhca_runner_device.cuh"

namespace clusterlens::cuda::mhca {

/// The list entries a thread visits: warp-sized chunks of the list dealt round-robin to the blocks
/// (chunk c to block c mod blocks), and a block's chunks in turn to a set of its warps. Any fixed
/// dealing would do; this one spreads dead entries and the later partners of a rescanned row (a
/// suffix of the list) evenly over the grid.
struct OwnedEntries {
    int first;
    int end;
    int stride;
};

/// The entries of this thread when warps [warp0, warp0 + warpCount) of the first `workers` blocks
/// share the list (a later block, the speculating one, owns none).
__device__ __forceinline__ OwnedEntries ownedEntries(int listLen, int warp0, int warpCount, int workers) {
    const int warp = static_cast<int>(threadIdx.x >> 5), lane = static_cast<int>(threadIdx.x & 31u);
    const int blk = static_cast<int>(blockIdx.x);
    if (warp < warp0 || warp >= warp0 + warpCount || blk >= workers) return OwnedEntries{listLen, listLen, 1};
    return OwnedEntries{((warp - warp0) * workers + blk) * 32 + lane, listLen, warpCount * workers * 32};
}

/// The block whose entries (ownedEntries, any warps) hold list position t.
__device__ __forceinline__ int ownerBlock(int t, int workers) {
    return (t >> 5) % workers;
}

/// The slot at list position t (VisitedListView::isIdentity: no load).
__device__ __forceinline__ int listSlot(const MhcaView& v, int t) {
    return v.visited.isIdentity ? t : v.visited.list[t];
}

__device__ __forceinline__ Candidate shflCandidate(const Candidate& c, int offset) {
    Candidate o;
    o.key = __shfl_down_sync(0xffffffffu, c.key, offset);
    o.pos = __shfl_down_sync(0xffffffffu, c.pos, offset);
    o.slot = __shfl_down_sync(0xffffffffu, c.slot, offset);
    return o;
}

/// Warp 0: the first candidate (candidateBefore) among parts[0 .. count).best, finals[0 .. finalCount)
/// and `extra`, into *out; every thread of the block calls and sees *out afterwards. With lazyParts,
/// also the largest of lazyParts[0 .. count) into *lazyOut (kNoKey when none).
__device__ inline void closestCandidate(const RowTop* parts, int count, const Candidate* finals, int finalCount,
                                        Candidate extra, Candidate* out, const double* lazyParts = nullptr,
                                        double* lazyOut = nullptr) {
    if (threadIdx.x < 32) {
        const int lane = static_cast<int>(threadIdx.x);
        Candidate c = lane == 0 ? extra : noCandidate();
        double lazy = kNoKey;
        for (int i = lane; i < count; i += 32) {
            const Candidate x = loadCandidate(&parts[i].best);
            if (lazyParts != nullptr) lazy = fmax(lazy, __ldcg(&lazyParts[i]));
            if (candidateBefore(x, c)) c = x;
        }
        for (int i = lane; i < finalCount; i += 32) {
            const Candidate x = loadCandidate(&finals[i]);
            if (candidateBefore(x, c)) c = x;
        }
#pragma unroll 1
        for (int offset = 16; offset > 0; offset >>= 1) {
            const Candidate o = shflCandidate(c, offset);
            if (candidateBefore(o, c)) c = o;
        }
        if (lane == 0) *out = c;
        if (lazyParts != nullptr) {
#pragma unroll 1
            for (int offset = 16; offset > 0; offset >>= 1)
                lazy = fmax(lazy, __shfl_down_sync(0xffffffffu, lazy, offset));
            if (lane == 0) *lazyOut = lazy;
        }
    }
    __syncthreads();
}

/// The blocks' parts a lane of a reducing warp loads before it combines any of them: the combines
/// branch, and the compiler issues no load above a branch, so a loop that combines each part as it
/// comes waits one round trip per 32 blocks (five at 131 blocks) on the chain after barrier S4.
constexpr int kPartsPerLane = 5;

/// One warp: combineTop over parts[0 .. count), valid in its lane 0 (lane: this thread's lane). The
/// order of the combines does not matter (candidateBefore is total).
__device__ __forceinline__ RowTop warpCombinedTop(const RowTop* parts, int count, int lane) {
    RowTop t = noTop();
#pragma unroll 1
    for (int base = lane; base < count; base += 32 * kPartsPerLane) {
        RowTop x[kPartsPerLane];
#pragma unroll
        for (int k = 0; k < kPartsPerLane; ++k) x[k] = base + 32 * k < count ? loadTop(&parts[base + 32 * k]) : noTop();
#pragma unroll
        for (int k = 0; k < kPartsPerLane; ++k) t = combineTop(t, x[k]);
    }
    return warpTop(t);
}

/// Warp 0: combineTop over parts[0 .. count) into *out (seen by every thread afterwards).
__device__ inline void combinedTop(const RowTop* parts, int count, RowTop* out) {
    if (threadIdx.x < 32) {
        const RowTop t = warpCombinedTop(parts, count, static_cast<int>(threadIdx.x));
        if (threadIdx.x == 0) *out = t;
    }
    __syncthreads();
}

/// Warp 0: the smallest of values[0 .. count) and 0 (finishSmallest's rule) into *out.
__device__ inline void smallestValue(const double* values, int count, double* out) {
    if (threadIdx.x < 32) {
        double all = 0.0;
        for (int i = static_cast<int>(threadIdx.x); i < count; i += 32) {
            const double p = __ldcg(&values[i]);
            if (p < all) all = p;
        }
#pragma unroll 1
        for (int offset = 16; offset > 0; offset >>= 1) {
            const double o = __shfl_down_sync(0xffffffffu, all, offset);
            if (o < all) all = o;
        }
        if (threadIdx.x == 0) *out = all;
    }
    __syncthreads();
}

/// Whether a lazy row whose bound is `bound` could hold the closest pair, whose best known candidate
/// is `best` (none, or a NaN key: every real key beats it). Ties count: the row's position may win.
__device__ __forceinline__ bool lazyRowForced(double bound, const Candidate& best) {
    return best.slot < 0 || isnan(best.key) || bound >= best.key;
}

/// The row candidate of the closest-pair order (closestPairKernel's: nnKey, pos, slot; none without nn).
__device__ __forceinline__ Candidate rowCandidate(double key, int pos, int slot, int nn) {
    Candidate c = noCandidate();
    if (nn >= 0) {
        c.key = key;
        c.pos = pos;
        c.slot = slot;
    }
    return c;
}

/// After barrier S4 without S3, in one round trip: warp 0 takes combinedTop of aParts[0 .. count) into
/// *aRow, while warp 1 takes the first of parts[0 .. count).best into *partsBest and the largest of
/// lazyParts into *lazyOut. Returns (to every thread) the next merge's closest candidate: that first
/// or the merged row's candidate (rowCandidate of *aRow at position posA of slot a). The next merge has
/// no rescanned rows (lazy rescans), so this is closestCandidate's result; the candidate order is
/// total, so the order of the reduction does not matter.
__device__ inline Candidate mergedRowAndClosest(const RowTop* aParts, const RowTop* parts, const double* lazyParts,
                                                int count, int posA, int a, RowTop* aRow, Candidate* partsBest,
                                                double* lazyOut) {
    const int lane = static_cast<int>(threadIdx.x & 31u);
    if (threadIdx.x < 32) {
        const RowTop t = warpCombinedTop(aParts, count, lane);
        if (lane == 0) *aRow = t;
    } else if (threadIdx.x < 64) {
        Candidate c = noCandidate();
        double lazy = kNoKey;
#pragma unroll 1
        for (int base = lane; base < count; base += 32 * kPartsPerLane) {  // (warpCombinedTop's loads)
            Candidate x[kPartsPerLane];
            double bound[kPartsPerLane];
#pragma unroll
            for (int k = 0; k < kPartsPerLane; ++k) {
                const bool in = base + 32 * k < count;
                x[k] = in ? loadCandidate(&parts[base + 32 * k].best) : noCandidate();
                bound[k] = in ? __ldcg(&lazyParts[base + 32 * k]) : kNoKey;
            }
#pragma unroll
            for (int k = 0; k < kPartsPerLane; ++k) {
                lazy = fmax(lazy, bound[k]);
                if (candidateBefore(x[k], c)) c = x[k];
            }
        }
#pragma unroll 1
        for (int offset = 16; offset > 0; offset >>= 1) {
            const Candidate o = shflCandidate(c, offset);
            if (candidateBefore(o, c)) c = o;
            lazy = fmax(lazy, __shfl_down_sync(0xffffffffu, lazy, offset));
        }
        if (lane == 0) {
            *partsBest = c;
            *lazyOut = lazy;
        }
    }
    __syncthreads();
    const RowTop t = *aRow;
    const Candidate merged = rowCandidate(t.best.key, posA, a, t.best.slot), c = *partsBest;
    return candidateBefore(merged, c) ? merged : c;
}

/// Rows whose runners-up a block selects in the next merge, while its shape team factorises: the last
/// pass's rescanned rows it finished, and (block 0) the merged cluster's row. Their blocks' results
/// (pa.rowPart, pa.aPart) stay untouched until after that merge's shape phase.
struct PendingRows {
    int count;
    int row[kRescanRowsPerPass + 1];
    const RowTop* parts[kRescanRowsPerPass + 1];
    __device__ void add(int r, const RowTop* p) {
        const int k = atomicAdd(&count, 1);
        row[k] = r;
        parts[k] = p;
    }
};

/// The shift log in shared memory while it is short (keyOf reads it for every pair of a rescan).
constexpr int kShiftCache = 32;
struct ShiftCache {
    int count;
    int time[kShiftCache];
    int group[kShiftCache];
    double amount[kShiftCache];
    double maxBefore[kShiftCache];
};

/// keyOf with the log from the cache (count <= kShiftCache) and the group's maxDistX given.
__device__ inline double keyOfCached(const ShiftCache& c, double maxDistG, double d, int stamp, int g) {
    int lo = 0, hi = c.count;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (c.time[mid] < stamp) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    int k = lo;
    while (k < c.count && c.group[k] != g) ++k;
    if (k == c.count) return dsub(maxDistG, d);
    double key = dsub(c.maxBefore[k], d);
    for (; k < c.count; ++k)
        if (c.group[k] == g) key = dsub(key, c.amount[k]);
    return key;
}

/// Rescanned rows [first, first + count) (count <= kRescanRowsPerPass <= warps of the block) against
/// the block's range (centroidRescanKernel's keys), all rows staged at once: each thread offers its
/// entries to every row, warp i reduces row i, and the last block to publish row i selects the row's
/// best partner and runners-up from every block's best (warpFinishRow) and writes them and its
/// closest-pair candidate. s_rows: count * (d + 2 * packed) doubles; s_rowWarp: kRescanRowsPerPass *
/// 32 partials. With `defer` (the merge's last pass), the last block stores only the row's best (its
/// runners-up unknown) and leaves the selection to its idle warps of the next merge (*pending), or,
/// with ownerSelects, to the block that owns the row (which adds it after the pass's barrier).
template <int MAXD>
__device__ inline void rescanPass(const MhcaView& v, const PersistentArgs& pa, int first, int count, OwnedEntries own,
                                  double* s_rows, RowTop* s_rowWarp, ShiftCache* s_shifts, bool defer,
                                  PendingRows* pending, bool ownerSelects) {
    const int n = v.cfg.n, d = v.cfg.d, packed = v.cfg.packed, rowDoubles = d + 2 * packed;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    const int lane = tid & 31, warp = tid >> 5, warps = nt >> 5;
    const int blocks = static_cast<int>(gridDim.x), blk = static_cast<int>(blockIdx.x);
    __syncthreads();  // the shape area (which s_rows reuses) is no longer read
    const unsigned long long passStart = pa.profile != nullptr ? globalNanoseconds() : 0ull;
    const int shifts = *v.mergeLog.shiftCount;
    const bool cached = shifts <= kShiftCache;
    if (cached && tid < shifts) {
        s_shifts->time[tid] = v.mergeLog.shiftTime[tid];
        s_shifts->group[tid] = v.mergeLog.shiftGroup[tid];
        s_shifts->amount[tid] = v.mergeLog.shiftAmount[tid];
        s_shifts->maxBefore[tid] = v.mergeLog.shiftMaxBefore[tid];
    }
    if (tid == 0) s_shifts->count = shifts;
    for (int e = tid; e < count * rowDoubles; e += nt) {
        const int i = e / rowDoubles, q = e % rowDoubles;
        const int r = v.scratch.rescanRows[first + i];
        const size_t slot = static_cast<size_t>(r);
        s_rows[e] = q < d ? v.clusters.mu[static_cast<size_t>(q) * n + slot]
                          : (q < d + packed ? v.clusters.metric[static_cast<size_t>(q - d) * n + slot]
                                            : v.clusters.scaled[static_cast<size_t>(q - d - packed) * n + slot]);
    }
    __syncthreads();
    for (int i = 0; i < count; ++i) {
        const int r = v.scratch.rescanRows[first + i];
        const double* row = s_rows + i * rowDoubles;
        const bool identityR = v.clusters.identity[r] != 0;
        const int posR = v.clusters.pos[r], groupR = v.clusters.group[r], birthR = v.clusters.birth[r],
                  modeR = v.clusters.mode[r];
        const double maxDistR = v.mergeLog.groups[groupR].maxDist;
        RowTop top = noTop();
        for (int t = own.first; t < own.end; t += own.stride) {
            const int j = listSlot(v, t);
            if (!v.clusters.alive[j] || v.clusters.group[j] != groupR || v.clusters.pos[j] <= posR) continue;
            const int birthJ = v.clusters.birth[j];
            const int pairMode = birthR >= birthJ ? modeR : v.clusters.mode[j];
            MetricRef mR;
            mR.m = (identityR || pairMode == kModeIdentity) ? nullptr
                                                            : (pairMode == kModeScaled ? row + d + packed : row + d);
            mR.stride = 1;
            const MetricRef mJ = slotMetric(v.cfg, v.clusters, j, pairMode);
            const double dist = pa.streamEvictFirst
                                    ? stagedDistanceStreamed<MAXD, true>(row, mR, v.clusters.mu + j, mJ, n, d)
                                    : stagedDistanceStreamed<MAXD, false>(row, mR, v.clusters.mu + j, mJ, n, d);
            Candidate cand;
            const int stamp = max(birthR, birthJ);
            cand.key =
                cached ? keyOfCached(*s_shifts, maxDistR, dist, stamp, groupR) : keyOf(v.mergeLog, dist, stamp, groupR);
            cand.pos = v.clusters.pos[j];
            cand.slot = j;
            offerTop(top, cand);
        }
        top = warpTop(top);
        if (lane == 0) s_rowWarp[i * 32 + warp] = top;
    }
    __syncthreads();
    if (pa.profile != nullptr && blk == 0 && tid == 0) {
        pa.profile[persistent_profile::kRescanPasses] += 1ull;
        pa.profile[persistent_profile::kRescanRowLoops] += globalNanoseconds() - passStart;
    }
    for (int i = warp; i < count; i += warps) {
        RowTop part = lane < warps ? s_rowWarp[i * 32 + lane] : noTop();
        part = warpTop(part);
        int last = 0;
        if (lane == 0) {
            pa.rowPart[i * blocks + blk] = part;
            __threadfence();
            last = atomicAdd(&pa.rowCounter[i], 1u) == static_cast<unsigned>(blocks - 1);
        }
        if (!__shfl_sync(0xffffffffu, last, 0)) continue;
        const unsigned long long selectStart = pa.profile != nullptr ? globalNanoseconds() : 0ull;
        const int r = v.scratch.rescanRows[first + i];
        Candidate best;
        if (defer) {
            RowTop all = noTop();
            for (int q = lane; q < blocks; q += 32) all = combineTop(all, loadTop(&pa.rowPart[i * blocks + q]));
            all = warpTop(all);
            best.key = __shfl_sync(0xffffffffu, all.best.key, 0);
            best.pos = __shfl_sync(0xffffffffu, all.best.pos, 0);
            best.slot = __shfl_sync(0xffffffffu, all.best.slot, 0);
            if (lane == 0) {
                v.nearest.nn[r] = all.best.slot;
                v.nearest.nnKey[r] = all.best.slot < 0 ? kNoKey : all.best.key;
                v.nearest.nnBefore[r] = all.second;
                v.nearest.runCount[r] = 0;
                v.nearest.runBound[r] = __longlong_as_double(0x7ff0000000000000LL);  // unknown until selected
                if (!ownerSelects) pending->add(r, pa.rowPart + i * blocks);
            }
        } else {
            best = warpFinishRow(runnerRefs(v.clusters, v.nearest), r, pa.rowPart + i * blocks, blocks, true);
        }
        if (lane == 0) {
            pa.rowCounter[i] = 0;
            pa.rowFinal[first + i] = rowCandidate(best.key, v.clusters.pos[r], r, best.slot);
            if (pa.profile != nullptr) {
                atomicAdd(&pa.profile[persistent_profile::kRescanSelection], globalNanoseconds() - selectStart);
                atomicAdd(&pa.profile[persistent_profile::kRescanSelectedRows], 1ull);
            }
        }
    }
}

/// First half of the merged cluster's new distances, while the shape team factorises: the other side's
/// forms (μa - μo)ᵀ Σ'_o^-1 (μa - μo) of the block's entries into newDist. Warps claim the block's
/// warp-sized chunks (chunk k · workers + block, the set ownedEntries deals the block) one at a time,
/// so the shape team and the selecting warps join in once they are done: with 100K clusters the
/// streaming outlasts the shape by far. *s_claim: zero before the phase; evictFirst: the metrics'
/// cache hint (streamedForm); workers: the blocks that own entries (ownedEntries).
template <int MAXD>
__device__ inline void otherSideForms(const MhcaView& v, const Step& st, int modeC, const double* muC, int* s_claim,
                                      bool evictFirst, int workers) {
    const int lane = static_cast<int>(threadIdx.x & 31u);
    const int blk = static_cast<int>(blockIdx.x);
    if (blk >= workers) return;
    for (;;) {
        int k = 0;
        if (lane == 0) k = atomicAdd(s_claim, 1);
        const int chunk = __shfl_sync(0xffffffffu, k, 0) * workers + blk;
        if (chunk * 32 >= v.visited.length) break;
        const int t = chunk * 32 + lane;
        if (t >= v.visited.length) continue;
        const int o = listSlot(v, t);
        // o's state read in one round trip: the tests one after the other made a chain of three.
        const EntryState e = entryState(v.clusters, o);
        if (o == st.a || o == st.b || !e.alive || e.group != st.group) continue;
        const MetricRef mO = slotMetric(v.cfg, v.clusters, o, modeC, e.identity);
        v.scratch.newDist[t] = streamedSide<MAXD>(evictFirst, muC, v.clusters.mu + o, v.cfg.n, mO, v.cfg.d);
    }
}

/// Second half: the merged cluster's own form, the distance ½(m(μo, A) + m(μa, O)) as centroidDistance
/// gives it, into newDist; the block's smallest key. With `nearest`, also the smallest nearestKey of the
/// thread's entries (the growth kernel's guess of the merged cluster's next partner).
template <int MAXD>
__device__ inline double newDistancesOfRange(const MhcaView& v, const Step& st, const double* muC, MetricRef mC,
                                             double maxDist, OwnedEntries own, unsigned long long* nearest) {
    double smallest = 0.0;
    for (int t = own.first; t < own.end; t += own.stride) {
        const int o = listSlot(v, t);
        const double qO = v.scratch.newDist[t];
        const EntryState e = entryState(v.clusters, o);
        if (o == st.a || o == st.b || !e.alive || e.group != st.group) continue;
        const double qC = sideFormOf<MAXD>(muC, v.clusters.mu + o, v.cfg.n, mC, v.cfg.d);
        const double dist = (sqrt(qC) + sqrt(qO)) / 2.0;
        v.scratch.newDist[t] = dist;
        if (nearest != nullptr) *nearest = min(*nearest, nearestKey(dist, o));
        const double key = dsub(maxDist, dist);
        if (key < smallest) smallest = key;
    }
    return smallest;
}

/// newRowUpdateKernel over the block's range (the step's shift given by `st`), plus the range's best
/// closest-pair candidate among the rows that keep their neighbour (not a, b or a rescanned row).
/// A stale row its runners-up cannot answer becomes lazy (updateRowForMerge's makeLazy); *s_lazy: raised
/// to the order bits (keyOrderBits) of every lazy row's bound (none is a candidate).
/// s_heavy (the profile, else null): counts the rows whose best partner was a or b and the lazy rows.
__device__ inline void rowUpdateOfRange(const MhcaView& v, const Step& st, double maxDist, int posA, OwnedEntries own,
                                        RowTop& topA, Candidate& best, unsigned long long* s_lazy, int* s_heavy,
                                        RowJournal journal) {
    for (int t = own.first; t < own.end; t += own.stride) {
        const int o = listSlot(v, t);
        const double dist = v.scratch.newDist[t];
        // Everything the update reads first about the row, in one round trip: each test used to wait
        // for its own load.
        const EntryState e = entryState(v.clusters, o);
        const RowState row = rowState<true>(v.clusters, v.nearest, o);
        if (o == st.a || o == st.b || !e.alive) continue;
        if (s_heavy != nullptr) {
            if (row.nn == st.a || row.nn == st.b) atomicAdd(&s_heavy[0], 1);
            if (row.nn == kLazyRow) atomicAdd(&s_heavy[1], 1);
        }
        if (e.group == st.group && updateRowForMerge<true, true>(v.clusters, v.nearest, st, o, dist, maxDist, posA,
                                                                 topA, true, row, journal)) {
            appendRescan(v.scratch, o);
            continue;
        }
        const int nnO = v.nearest.nn[o];  // after the update's stores
        const double key = v.nearest.nnKey[o];
        if (nnO == kLazyRow) {
            atomicMax(s_lazy, keyOrderBits(key));
            continue;
        }
        const Candidate c = rowCandidate(key, row.pos, o, nnO);
        if (candidateBefore(c, best)) best = c;
    }
}

/// Without barrier S3, when a block's entries held a negative new key: the block's smallest new key
/// again, from newDist (newDistancesOfRange's rule and order).
__device__ inline double smallestKeyOfRange(const MhcaView& v, const Step& st, double maxDist, OwnedEntries own) {
    double smallest = 0.0;
    for (int t = own.first; t < own.end; t += own.stride) {
        const int o = listSlot(v, t);
        const EntryState e = entryState(v.clusters, o);
        if (o == st.a || o == st.b || !e.alive || e.group != st.group) continue;
        const double key = dsub(maxDist, v.scratch.newDist[t]);
        if (key < smallest) smallest = key;
    }
    return smallest;
}

/// And the rows of the range as the update's journal kept them: every row updateRowForMerge visited
/// (rowUpdateOfRange's filter).
__device__ inline void restoreRange(const MhcaView& v, const Step& st, OwnedEntries own, const RowJournal& j) {
    for (int t = own.first; t < own.end; t += own.stride) {
        const int o = listSlot(v, t);
        const EntryState e = entryState(v.clusters, o);
        if (o == st.a || o == st.b || !e.alive || e.group != st.group) continue;
        restoreRow(j, runnerRefs(v.clusters, v.nearest), o);
    }
}

/// A grid barrier split in two (the cooperative grid barrier cannot be): the block's arrival, counted
/// over the launch in *counter...
__device__ __forceinline__ void splitBarrierArrive(unsigned int* counter) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(counter, 1u);
    }
}

/// ...and its wait until `expected` arrivals (every block's, over the launch).
__device__ __forceinline__ void splitBarrierWait(const unsigned int* counter, unsigned int expected) {
    if (threadIdx.x == 0) {
        while (loadAcquire(counter) < expected) {
        }
    }
    __syncthreads();
}

/// Waits until *counter reaches `expected`, given `seen`, a value loaded earlier (so that the usual
/// case, already there, waits for nothing); returns the last value seen.
__device__ __forceinline__ unsigned int waitForCount(const unsigned int* counter, unsigned int expected,
                                                     unsigned int seen) {
    while (seen < expected) seen = loadAcquire(counter);
    return seen;
}

/// The merged cluster's metric in its mode, packed, from the shape area (writeMergedShape's values).
__device__ inline void stageMergedMetric(const MhcaView& v, const ShapeArea& area, const ShapeResult& r, int mode,
                                         double* metC) {
    const int p = v.cfg.d, tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    for (int t = tid; t < p * p; t += nt) {
        const int i = t / p, j = t % p;
        if (j > i) continue;
        metC[packedIndex(i, j)] = mode == kModeScaled ? area.inverse[t] / r.nmf : area.inverse[t];
    }
    __syncthreads();
}

}  // namespace clusterlens::cuda::mhca
