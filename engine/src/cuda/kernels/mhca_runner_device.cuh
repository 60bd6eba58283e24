#pragma once
// Runner-up partners of the rows of the nearest-neighbour array, on the device (the CPU twin is
// engine/src/cpu/mhca_runners.hpp). A row keeps up to kRunners next-best later partners (key, slot,
// position, birth) and an upper bound of the keys of every other live later partner; pair distances
// never change and shifts round all keys of a group monotonically, so when the best partner dies the
// best surviving runner-up is the row's new best whenever it beats the bound strictly. Only otherwise
// is the row rescanned. A bound of +inf (runners unknown) always rescans.
//
// The out-of-line functions are templates only so that a header can define them once per program.
//
// A rescan's list holds the best partners of the blocks (each block reduces its range to its best
// and the bound of its others), selected by one warp of the last block to arrive: the
// best of the list is the row's best exactly (candidateBefore: key, then position, as mhcaCpu's scans
// find it); a block holding two of the row's nearest partners only makes the bound weaker.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_row_journal.cuh"

namespace clusterlens::cuda::mhca {

/// Block results a lane holds while a warp selects a row's list; further ones raise the bound.
constexpr int kLaneParts = 6;

/// candidateBefore as one unsigned integer and the position: a larger order key comes first, then the
/// smaller position. Real keys map monotonically (±0 alike) above NaN (1), above no candidate (0).
__device__ __forceinline__ unsigned long long candidateOrderKey(const Candidate& c) {
    if (c.slot < 0) return 0ull;
    if (isnan(c.key)) return 1ull;
    return keyOrderBits(c.key == 0.0 ? 0.0 : c.key);
}

/// One warp (every lane calls) finishes a rescanned row from the blocks' results parts[0 .. count)
/// (each block's best partner and the bound of its others): the best of the blocks' bests becomes the
/// row's nn, the next kRunners its runners-up, and everything else the bound. Each lane keeps its
/// blocks' bests sorted; each round the warp takes the first of the lanes' heads (integer order keys,
/// positions break ties), and lane r keeps the r-th, so the stores go out in parallel. Returns the
/// row's best. Without storeBest only the runners-up are written (the best was stored already).
template <int kOutOfLine = 0>
__device__ __noinline__ Candidate warpFinishRow(RunnerRefs ref, int row, const RowTop* parts, int count,
                                                bool storeBest) {
    const int lane = static_cast<int>(threadIdx.x & 31u);
    Candidate held[kLaneParts];
    unsigned long long order[kLaneParts];
#pragma unroll
    for (int k = 0; k < kLaneParts; ++k) {
        held[k] = noCandidate();
        order[k] = 0ull;
    }
    double bound = kNoKey;
    for (int q = lane; q < count; q += 32) {
        const RowTop t = loadTop(&parts[q]);
        bound = betterKey(bound, t.second);
        Candidate c = t.best;
        unsigned long long o = candidateOrderKey(c);
#pragma unroll
        for (int k = 0; k < kLaneParts; ++k) {  // insertion: the lane's heads stay sorted
            if (o > order[k] || (o == order[k] && c.pos < held[k].pos)) {
                const Candidate xc = held[k];
                const unsigned long long xo = order[k];
                held[k] = c;
                order[k] = o;
                c = xc;
                o = xo;
            }
        }
        if (c.slot >= 0) bound = betterKey(bound, c.key);
    }
    Candidate mine = noCandidate();
    for (int r = 0; r < kRowListLength; ++r) {
        unsigned long long bestOrder = order[0];
        int bestPos = held[0].pos;
        for (int mask = 16; mask > 0; mask >>= 1) {
            const unsigned long long o = __shfl_xor_sync(0xffffffffu, bestOrder, mask);
            const int p = __shfl_xor_sync(0xffffffffu, bestPos, mask);
            if (o > bestOrder || (o == bestOrder && p < bestPos)) {
                bestOrder = o;
                bestPos = p;
            }
        }
        if (bestOrder == 0ull) break;  // no candidate left anywhere (warp-uniform)
        const bool won = order[0] == bestOrder && held[0].pos == bestPos;
        const int from = __ffs(__ballot_sync(0xffffffffu, won)) - 1;
        Candidate c;
        c.key = __shfl_sync(0xffffffffu, held[0].key, from);
        c.pos = bestPos;
        c.slot = __shfl_sync(0xffffffffu, held[0].slot, from);
        if (lane == r) mine = c;
        if (won) {
#pragma unroll
            for (int k = 0; k + 1 < kLaneParts; ++k) {
                held[k] = held[k + 1];
                order[k] = order[k + 1];
            }
            held[kLaneParts - 1] = noCandidate();
            order[kLaneParts - 1] = 0ull;
        }
    }
    if (held[0].slot >= 0) bound = betterKey(bound, held[0].key);
    for (int mask = 16; mask > 0; mask >>= 1) bound = betterKey(bound, __shfl_xor_sync(0xffffffffu, bound, mask));
    // Lanes 1 .. kRunners hold the runners-up, best first; the real ones form a prefix.
    const bool runner = lane >= 1 && lane < kRowListLength && mine.slot >= 0;
    if (runner) {
        const size_t e = static_cast<size_t>(row) * kRunners + static_cast<size_t>(lane - 1);
        ref.key[e] = mine.key;
        ref.slot[e] = mine.slot;
        ref.pos[e] = mine.pos;
        ref.birthOf[e] = ref.birth[mine.slot];
    }
    const int runners = __popc(__ballot_sync(0xffffffffu, runner));
    double before = runner ? mine.key : kNoKey;
    for (int mask = 16; mask > 0; mask >>= 1) before = betterKey(before, __shfl_xor_sync(0xffffffffu, before, mask));
    Candidate first;  // lane 0's candidate, in every lane
    first.key = __shfl_sync(0xffffffffu, mine.key, 0);
    first.pos = __shfl_sync(0xffffffffu, mine.pos, 0);
    first.slot = __shfl_sync(0xffffffffu, mine.slot, 0);
    if (lane == 0) {
        ref.count[row] = runners;
        ref.bound[row] = bound;
    }
    if (lane == 0 && storeBest) {
        ref.nn[row] = first.slot;
        ref.nnKey[row] = first.slot < 0 ? kNoKey : first.key;
        ref.nnBefore[row] = betterKey(before, bound);
    }
    return first;
}

/// Inserts a partner (born at `birth`) whose key beats the bound into a row's runners-up (runnerOffer's
/// rare path, out of line: the merge loop's registers stay free). With a journal (j.base), the
/// insertion is recorded first (the bound is in the row's journaled scalars).
template <int kOutOfLine = 0>
__device__ __noinline__ void runnerInsert(RunnerRefs ref, int row, Candidate c, int birth, RowJournal j) {
    double bound = ref.bound[row];
    const size_t base = static_cast<size_t>(row) * kRunners;
    int count = ref.count[row];
    int at = count;
    while (at > 0) {
        Candidate e;
        e.key = ref.key[base + at - 1];
        e.pos = ref.pos[base + at - 1];
        e.slot = ref.slot[base + at - 1];
        if (!candidateBefore(c, e)) break;
        --at;
    }
    if (at == kRunners) {
        ref.bound[row] = c.key;
        return;
    }
    if (j.base != nullptr) {
        const size_t last = base + kRunners - 1;
        if (count == kRunners) {
            journalInsert(j, row, count, at, ref.key[last], ref.slot[last], ref.pos[last], ref.birthOf[last]);
        } else {
            journalInsert(j, row, count, at, 0.0, -1, 0, 0);
        }
    }
    if (count == kRunners) {
        bound = betterKey(ref.key[base + kRunners - 1], bound);
        ref.bound[row] = bound;
        --count;
    }
    for (int k = count; k > at; --k) {
        ref.key[base + k] = ref.key[base + k - 1];
        ref.slot[base + k] = ref.slot[base + k - 1];
        ref.pos[base + k] = ref.pos[base + k - 1];
        ref.birthOf[base + k] = ref.birthOf[base + k - 1];
    }
    ref.key[base + at] = c.key;
    ref.slot[base + at] = c.slot;
    ref.pos[base + at] = c.pos;
    ref.birthOf[base + at] = birth;
    ref.count[row] = count + 1;
}

/// Offers a partner (born at `birth`) to a row's runners-up whose bound is `bound`; a key the bound
/// covers changes nothing.
__device__ __forceinline__ void runnerOffer(RunnerRefs ref, int row, const Candidate& c, int birth, double bound,
                                            RowJournal j = RowJournal{}) {
    if (c.slot >= 0 && better(c.key, bound)) runnerInsert(ref, row, c, birth, j);
}

__device__ __forceinline__ void runnerOffer(RunnerRefs ref, int row, const Candidate& c, int birth) {
    runnerOffer(ref, row, c, birth, ref.bound[row]);
}

/// The state of a row that a merge step reads first (updateRowForMerge), loaded together.
struct RowState {
    int nn;
    int pos;
    double key;     ///< nnKey
    double before;  ///< nnBefore
    double bound;   ///< runBound (with runners)
};

/// (loadNow: the row's own thread is its only writer during a row update.)
template <bool runners>
__device__ __forceinline__ RowState rowState(const ClusterView& clusters, const NearestRowView& nearest, int o) {
    RowState r;
    r.nn = loadNow(nearest.nn + o);
    r.pos = loadNow(clusters.pos + o);
    r.key = loadNow(nearest.nnKey + o);
    r.before = loadNow(nearest.nnBefore + o);
    r.bound = runners ? loadNow(nearest.runBound + o) : 0.0;
    return r;
}

/// mhca_agglomerate.cpp's offerNewCluster: row `slot` (before the merged cluster a) learns its key to
/// a; false when it must be rescanned (its best was a or b and a is now worse). With `runners`, the
/// partner that does not become the best is offered to the row's runners-up. `row`: the row's state
/// after the step's shift. j: the row journal (mhca_row_journal.cuh), or none.
template <bool runners = false>
__device__ __forceinline__ bool offerNewCluster(const ClusterView& clusters, const NearestRowView& nearest,
                                                const Step& st, int slot, double key, int posA, const RowState& row,
                                                RowJournal j = RowJournal{}) {
    const int nn = row.nn;
    if (nn == st.a || nn == st.b) {
        // Every other partner's key is at most the old best, and partners tying with it lie beyond b
        // (or were flagged by the shift check), so the merged cluster wins unless it is worse.
        if (better(row.key, key)) return false;
        nearest.nn[slot] = st.a;
        nearest.nnKey[slot] = key;
        return true;
    }
    const int posNn = nn >= 0 ? clusters.pos[nn] : -1;
    const double current = row.key;
    if (better(key, current) || (key == current && posA < posNn)) {
        if (posNn < posA) nearest.nnBefore[slot] = current;
        if constexpr (runners) {
            if (nn >= 0)
                runnerOffer(runnerRefs(clusters, nearest), slot, Candidate{current, posNn, nn}, clusters.birth[nn],
                            row.bound, j);
        }
        nearest.nn[slot] = st.a;
        nearest.nnKey[slot] = key;
    } else {
        if (posA < posNn && better(key, row.before)) nearest.nnBefore[slot] = key;
        if constexpr (runners)
            runnerOffer(runnerRefs(clusters, nearest), slot, Candidate{key, posA, st.a}, st.merge, row.bound, j);
    }
    return true;
}

/// The shift of every stored key of the row (mhca_agglomerate.cpp's shiftStoredKeys).
__device__ __forceinline__ void runnerShift(const NearestRowView& nearest, int row, double amount) {
    const size_t base = static_cast<size_t>(row) * kRunners;
    const int count = nearest.runCount[row];
    for (int k = 0; k < count; ++k) nearest.runKey[base + k] = dsub(nearest.runKey[base + k], amount);
    const double bound = nearest.runBound[row];
    if (bound != kNoKey) nearest.runBound[row] = dsub(bound, amount);
}

/// A stale row during the row update of the step merging slots a and b (merge index `merge`): its new
/// best among the runners-up that still stand (not a or b, alive, same birth), the still valid best
/// `keep` (born keepBirth) and the merged cluster `fresh` (slot < 0: none), when it beats the bound
/// strictly; the others become its runners-up. False: the row needs a rescan (nothing written). With
/// a journal (j.base), the list is recorded before it is rebuilt.
template <int kOutOfLine = 0>
__device__ __noinline__ bool resolveRow(RunnerRefs ref, int a, int b, int merge, int row, Candidate keep, int keepBirth,
                                        Candidate fresh, RowJournal j) {
    const double bound = ref.bound[row];
    const size_t base = static_cast<size_t>(row) * kRunners;
    const int count = ref.count[row];
    Candidate pool[kRunners + 2];
    int birth[kRunners + 2];
    int size = 0;
    // The whole list is loaded at once, then the listed slots' state: a loop testing each entry as it
    // arrives waited two round trips per entry, and a block with a stale row held the grid at the
    // barrier after the row update in most merges.
    int slots[kRunners], births[kRunners], positions[kRunners];
    double keys[kRunners];
#pragma unroll
    for (int k = 0; k < kRunners; ++k) {
        slots[k] = ref.slot[base + k];
        births[k] = ref.birthOf[base + k];
        keys[k] = ref.key[base + k];
        positions[k] = ref.pos[base + k];
    }
    unsigned standing = 0u;
#pragma unroll
    for (int k = 0; k < kRunners; ++k) {
        const bool listed = k < count;
        const int slot = listed ? slots[k] : 0;  // slot 0 exists; an unlisted entry's value may not
        const bool alive = ref.alive[slot] != 0;
        const int born = ref.birth[slot];
        if (listed & (slot != a) & (slot != b) & alive & (born == births[k])) standing |= 1u << k;
    }
#pragma unroll
    for (int k = 0; k < kRunners; ++k) {
        if (!(standing & (1u << k))) continue;
        pool[size].key = keys[k];
        pool[size].pos = positions[k];
        pool[size].slot = slots[k];
        birth[size++] = births[k];
    }
    if (keep.slot >= 0) {
        pool[size] = keep;
        birth[size++] = keepBirth;
    }
    if (fresh.slot >= 0) {
        pool[size] = fresh;
        birth[size++] = merge;
    }
    int best = -1;
    for (int k = 0; k < size; ++k)
        if (best < 0 || candidateBefore(pool[k], pool[best])) best = k;
    if (best < 0 || !better(pool[best].key, bound)) return false;
    if (j.base != nullptr) journalList(j, row, count, keys, slots, positions, births);
    ref.count[row] = 0;
    double before = bound;
    for (int k = 0; k < size; ++k) {
        if (k == best) continue;
        before = betterKey(before, pool[k].key);
        runnerOffer(ref, row, pool[k], birth[k]);
    }
    ref.nn[row] = pool[best].slot;
    ref.nnKey[row] = pool[best].key;
    ref.nnBefore[row] = before;  // an upper bound of the keys before the best, as the shift check needs
    return true;
}

/// A lazy row's part of a merge step (updateRowForMerge): its bound shifted with the step's keys and,
/// when the merged cluster a is its partner (`partner`), a's key compared with it. A key strictly
/// above the bound makes a the row's best outright (every other partner's key is at most the
/// bound): the row leaves the lazy state with a as its nn, no runners-up and the bound as theirs.
/// Otherwise the bound is raised to the key. Returns a's key (the row's as a's partner otherwise).
/// +inf stands for an unknown bound. Out of line: inlined, it would add live values to the
/// persistent kernel's row update. With a journal (j.base), the count is recorded before it changes.
template <int kOutOfLine = 0>
__device__ __noinline__ double carryLazyRow(RunnerRefs ref, int o, int a, bool partner, bool shifted,
                                            double shiftAmount, double maxBefore, double maxDist, double dist,
                                            RowJournal j) {
    constexpr double kInf = __builtin_huge_val();
    double b = ref.nnKey[o];
    if (shifted) b = dsub(b, shiftAmount);
    if (isnan(b)) b = kInf;
    const double key = shifted ? dsub(dsub(maxBefore, dist), shiftAmount) : dsub(maxDist, dist);
    if (partner && key > b) {
        if (j.base != nullptr) journalCount(j, o, ref.count[o]);
        ref.nn[o] = a;
        ref.nnKey[o] = key;
        ref.nnBefore[o] = b;
        ref.count[o] = 0;
        ref.bound[o] = b;
        return key;
    }
    if (partner && !(key <= b)) b = isnan(key) ? kInf : key;
    ref.nnKey[o] = b;
    return key;
}

/// One row's part of a merge step (mhca_agglomerate.cpp's updateAfterMerge, row o of the step's group
/// at distance `dist` from the merged cluster a): the step's key shift, the row offered to a's own row
/// (topA) when it lies after a, else a offered to the row; with `runners`, the row's runners-up kept
/// and a stale row answered from them when they can. True: the row needs a rescan.
/// With `lazy` (the persistent kernel): a lazy row only carries its bound through the merge (shifted,
/// raised to its key with the merged cluster), and with `makeLazy` a stale row its runners-up cannot
/// answer becomes lazy (its bound: the runners' bound, which covers every partner they do not hold)
/// instead of needing a rescan. +inf stands for an unknown bound and forces the rescan.
/// j (the persistent kernel without barrier S3): the row journal of the step, or none.
template <bool runners, bool lazy = false>
__device__ __forceinline__ bool updateRowForMerge(const ClusterView& clusters, const NearestRowView& nearest,
                                                  const Step& st, int o, double dist, double maxDist, int posA,
                                                  RowTop& topA, bool makeLazy, RowState row,
                                                  RowJournal j = RowJournal{}) {
    const int nnO = row.nn;
    const int posO = row.pos;
    if (j.base != nullptr) journalScalars(j, o, row.nn, row.key, row.before, row.bound);
    if constexpr (lazy) {
        if (nnO == kLazyRow) {
            const double key = carryLazyRow(runnerRefs(clusters, nearest), o, st.a, posO < posA, st.shifted != 0,
                                            st.shiftAmount, st.maxBefore, maxDist, dist, j);
            if (posO > posA) offerTop(topA, Candidate{key, posO, o});
            return false;
        }
    }
    bool stale = false;
    if (st.shifted && nnO >= 0) {
        row.key = dsub(row.key, st.shiftAmount);
        nearest.nnKey[o] = row.key;
        if (row.before != kNoKey) {
            row.before = dsub(row.before, st.shiftAmount);
            nearest.nnBefore[o] = row.before;
        }
        if constexpr (runners) {
            runnerShift(nearest, o, st.shiftAmount);
            row.bound = nearest.runBound[o];
        }
        stale = row.before == row.key;
    }
    const double key = st.shifted ? dsub(dsub(st.maxBefore, dist), st.shiftAmount) : dsub(maxDist, dist);
    if (posO > posA) {
        offerTop(topA, Candidate{key, posO, o});
        if (nnO == st.b) stale = true;
    } else if (!stale && !offerNewCluster<runners>(clusters, nearest, st, o, key, posA, row, j)) {
        stale = true;
    }
    if constexpr (runners) {
        if (stale) {  // the runners-up may still name the best partner; else a rescan
            Candidate keep = noCandidate(), fresh = noCandidate();
            int keepBirth = 0;
            if (nnO >= 0 && nnO != st.a && nnO != st.b) {
                keep = Candidate{row.key, clusters.pos[nnO], nnO};  // nothing stored the row's key since the shift
                keepBirth = clusters.birth[nnO];
            }
            if (posO < posA) fresh = Candidate{key, posA, st.a};
            stale = !resolveRow(runnerRefs(clusters, nearest), st.a, st.b, st.merge, o, keep, keepBirth, fresh, j);
            if constexpr (lazy) {
                if (stale && makeLazy) {
                    const double bound = nearest.runBound[o];
                    nearest.nn[o] = kLazyRow;
                    nearest.nnKey[o] = isnan(bound) ? __builtin_huge_val() : bound;
                    return false;
                }
            }
        }
    }
    return stale;
}

/// updateRowForMerge with the row's state read here.
template <bool runners, bool lazy = false>
__device__ __forceinline__ bool updateRowForMerge(const ClusterView& clusters, const NearestRowView& nearest,
                                                  const Step& st, int o, double dist, double maxDist, int posA,
                                                  RowTop& topA, bool makeLazy = false) {
    return updateRowForMerge<runners, lazy>(clusters, nearest, st, o, dist, maxDist, posA, topA, makeLazy,
                                            rowState<runners>(clusters, nearest, o));
}

}  // namespace clusterlens::cuda::mhca
