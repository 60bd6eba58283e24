#pragma once
// CMD's start from single points in one pass over the pairs (mhca_prologue_kernels.cuh has the
// per-row state this replaces, and why it is the rescans' state): the group's largest distance
// (mhca's initial maxDistX) and every row's nearest later partners come from the same pair
// distances, so one tiled pass computes both, and a per-row step turns the partners into keys once
// maxDistX is known. Before, a pass for maxDistX and the tiled pass each took a full triangle of pairs
// (CMD 44K×14 on an H200: 10 ms and 18 ms).
//
// Why the keys' order follows from q: a pair's key is dsub(maxDist, (√q + √q)/2), and the rounded
// square root and subtraction are monotone, so a smaller q never gets a larger key. Order by (q,
// position) and order by candidateBefore (key, then position) differ only where two different q give
// the same key. So the row keeps its kRowListLength nearest by (q, position) and the smallest q of
// all the others (`rest`); with the keys known, the kept partners sorted by candidateBefore are the
// row's list exactly when key(rest) is below the last one's key (every other partner's key is at
// most key(rest)), and the bound is key(rest). A row where they tie is flagged (runCount -1) and
// computed again by singletonRowsKernel (onlyFlagged), as are all rows when maxDistX is not finite.
//
// q is quadraticForm's identity path (Σ r_k², in feature order, no contraction), the q of
// nearestPointKernel's largest pass too, so maxDistX is bit for bit the same. FMD keeps the two passes
// (its prologue sums with fused multiply-adds).
//
// Work: ~N²/2 pair distances of 3d flops (FP64 floor ~2.4 ms at 44K×14 on an H200; the pass takes ~6):
// - block b takes row tiles b and tiles - 1 - b, so that every block has about the same number of
//   later candidates (~N);
// - kPairsSplit threads share a row, each taking every kPairsSplit-th pair of candidates, and merge
//   their lists at the end (enough warps to hide the sums' latency);
// - a candidate tile that is later than every row of the block, in one group with them and all
//   alive (every tile but the first, at the start) takes no per-pair test.
// Shared memory: MAXD × kPairsCandidates doubles.

#include <climits>

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_prologue_kernels.cuh"

namespace clusterlens::cuda::mhca {

/// Rows per row tile, threads per row, and candidates per staged tile (one per thread) of
/// singletonPairsKernel.
constexpr int kPairsRows = 32;
constexpr int kPairsSplit = 8;
constexpr int kPairsThreads = kPairsRows * kPairsSplit;
constexpr int kPairsCandidates = kPairsThreads;

/// A row's nearest later partners by (q, position) while the pass runs; empty entries have q = +inf
/// and position INT_MAX, so they come last.
struct NearestBySquare {
    double q[kRowListLength];
    int pos[kRowListLength];
    int slot[kRowListLength];
    double rest;     // the smallest q of the partners not kept (+inf: none, or only q = +inf)
    double largest;  // the largest q of all the row's later partners

    __device__ __forceinline__ void clear() {
#pragma unroll
        for (int k = 0; k < kRowListLength; ++k) {
            q[k] = __longlong_as_double(0x7ff0000000000000LL);
            pos[k] = INT_MAX;
            slot[k] = -1;
        }
        rest = __longlong_as_double(0x7ff0000000000000LL);
        largest = 0.0;
    }

    __device__ __forceinline__ static bool nearer(double qa, int pa, double qb, int pb) {
        return qa < qb || (qa == qb && pa < pb);
    }

    /// Puts partner j (position p, q = square) in the sorted list; the last one drops to `rest`.
    __device__ __forceinline__ void insert(double square, int p, int j) {
        rest = fmin(rest, q[kRowListLength - 1]);  // (an empty entry's +inf changes nothing)
#pragma unroll
        for (int k = 0; k < kRowListLength; ++k) {
            if (nearer(square, p, q[k], pos[k])) {
                const double oq = q[k];
                const int op = pos[k], os = slot[k];
                q[k] = square;
                pos[k] = p;
                slot[k] = j;
                square = oq;
                p = op;
                j = os;
            }
        }
    }

    /// Partner j (position p) at q = square.
    __device__ __forceinline__ void offer(double square, int p, int j) {
        largest = fmax(largest, square);
        if (nearer(square, p, q[kRowListLength - 1], pos[kRowListLength - 1])) {
            insert(square, p, j);
        } else {
            rest = fmin(rest, square);
        }
    }

    /// offer() for staged candidate c, its position and slot loaded only when it may enter.
    __device__ __forceinline__ void offerStaged(double square, int c, const int* s_pos, const int* s_slot) {
        largest = fmax(largest, square);
        if (square <= q[kRowListLength - 1]) {
            const int p = s_pos[c];
            if (nearer(square, p, q[kRowListLength - 1], pos[kRowListLength - 1])) {
                insert(square, p, s_slot[c]);
                return;
            }
        }
        rest = fmin(rest, square);
    }

    /// The union with the lists of the lanes `mask` apart (shuffles; every lane of the warp calls).
    __device__ __forceinline__ void mergeLane(int mask) {
        double oq[kRowListLength];
        int op[kRowListLength], os[kRowListLength];
#pragma unroll
        for (int k = 0; k < kRowListLength; ++k) {
            oq[k] = __shfl_xor_sync(0xffffffffu, q[k], mask);
            op[k] = __shfl_xor_sync(0xffffffffu, pos[k], mask);
            os[k] = __shfl_xor_sync(0xffffffffu, slot[k], mask);
        }
        const double otherRest = __shfl_xor_sync(0xffffffffu, rest, mask);
        const double otherLargest = __shfl_xor_sync(0xffffffffu, largest, mask);
#pragma unroll
        for (int k = 0; k < kRowListLength; ++k) {
            if (os[k] < 0) continue;
            if (nearer(oq[k], op[k], q[kRowListLength - 1], pos[kRowListLength - 1])) {
                insert(oq[k], op[k], os[k]);
            } else {
                rest = fmin(rest, oq[k]);
            }
        }
        rest = fmin(rest, otherRest);
        largest = fmax(largest, otherLargest);
    }
};

/// q of the row (mu) and staged candidate c, over all MAXD features (beyond d both sides are 0, and
/// q + (+0) is q exactly): quadraticForm's identity path.
template <int MAXD>
__device__ __forceinline__ double stagedSquare(const double (*s_mu)[kPairsCandidates], int c,
                                               const double (&mu)[MAXD]) {
    double q = 0.0;
#pragma unroll
    for (int k = 0; k < MAXD; ++k) {
        const double r = dsub(s_mu[k][c], mu[k]);
        q = dadd(q, dmul(r, r));
    }
    return q;
}

/// The pass (see the file comment): for every entry of the visited list (kPairsSplit threads per
/// row, two row tiles per block, candidates staged tile by tile), the group's largest distance by an
/// atomic maximum, and the row's kept partners in its runner arrays for singletonRowsFromPairsKernel:
/// q and slot of the nearest in nnKey / nn (its position in runCount), the others in runKey /
/// runSlot / runPos, and `rest` in runBound. Grid: (row tiles + 1) / 2 blocks of kPairsThreads.
template <int MAXD>
__global__ void __launch_bounds__(kPairsThreads, 2)
    singletonPairsKernel(const __grid_constant__ MhcaConfig cfg, const __grid_constant__ ClusterView clusters,
                         const __grid_constant__ NearestRowView nearest, const __grid_constant__ MergeLogView mergeLog,
                         const __grid_constant__ VisitedListView visited) {
    __shared__ __align__(16) double s_mu[MAXD][kPairsCandidates];
    __shared__ int s_slot[kPairsCandidates];
    __shared__ int s_pos[kPairsCandidates];
    __shared__ int s_group[kPairsCandidates];
    __shared__ int s_rowMaxPos, s_rowGroup;
    const int n = cfg.n, d = cfg.d, tid = static_cast<int>(threadIdx.x);
    const int part = tid % kPairsSplit;  // this thread's share of the candidates
    const int tiles = (visited.length + kPairsRows - 1) / kPairsRows, blk = static_cast<int>(blockIdx.x);
    const RunnerRefs ref = runnerRefs(clusters, nearest);
    for (int half = 0; half < 2; ++half) {
        const int rowTile = half == 0 ? blk : tiles - 1 - blk;
        if (half == 1 && rowTile <= blk) break;  // the middle tile is the first half's
        const int t = rowTile * kPairsRows + tid / kPairsSplit;
        const int row = t < visited.length ? visited.list[t] : -1;
        const bool active = row >= 0 && clusters.alive[row] != 0;
        double mu[MAXD];
        int posR = INT_MAX, groupR = -1;
#pragma unroll
        for (int k = 0; k < MAXD; ++k) mu[k] = active && k < d ? clusters.mu[static_cast<size_t>(k) * n + row] : 0.0;
        if (active) {
            posR = clusters.pos[row];
            groupR = clusters.group[row];
        }
        __syncthreads();  // the first half's last tile is read
        if (tid == 0) {
            s_rowMaxPos = INT_MIN;
            s_rowGroup = INT_MIN;  // none yet; -1 once the rows' groups differ
        }
        __syncthreads();
        if (active && part == 0) {
            atomicMax(&s_rowMaxPos, posR);
            const int seen = atomicCAS(&s_rowGroup, INT_MIN, groupR);
            if (seen != INT_MIN && seen != groupR) s_rowGroup = -1;
        }
        NearestBySquare best;
        best.clear();
        // The start's list runs in position order: no tile before the row's holds a later partner.
        for (int start = visited.isIdentity ? rowTile * kPairsRows : 0; start < visited.length;
             start += kPairsCandidates) {
            __syncthreads();  // the last tile is read (and the rows' summary complete)
            const int e = start + tid;
            int slot = e < visited.length ? visited.list[e] : -1;
            if (slot >= 0 && clusters.alive[slot] == 0) slot = -1;
            s_slot[tid] = slot;
            bool clean = false;  // a partner of every row of the block
            if (slot >= 0) {
                const int pos = clusters.pos[slot], group = clusters.group[slot];
                s_pos[tid] = pos;
                s_group[tid] = group;
#pragma unroll
                for (int k = 0; k < MAXD; ++k)
                    s_mu[k][tid] = k < d ? clusters.mu[static_cast<size_t>(k) * n + slot] : 0.0;
                clean = pos > s_rowMaxPos && group == s_rowGroup;
            }
            const bool fast = __syncthreads_and(clean) != 0;
            if (!active) continue;
            if (fast) {
                // Candidate pairs (c, c + 1), c = 2 (part + kPairsSplit i): two independent sums (as
                // stagedSquare). A candidate not beyond the list's last entry at the tile's start
                // (entries only get nearer) is marked and offered after the loop: with the insertion
                // inside, the compiler predicated its selects into every pair (~70 instructions).
                const double threshold = best.q[kRowListLength - 1];
                unsigned int near = 0u;
#pragma unroll 2
                for (int i = 0; i < kPairsCandidates / (2 * kPairsSplit); ++i) {
                    const int c = 2 * (part + kPairsSplit * i);
                    double qa = 0.0, qb = 0.0;
#pragma unroll
                    for (int k = 0; k < MAXD; ++k) {
                        const double2 m = *reinterpret_cast<const double2*>(&s_mu[k][c]);
                        const double ra = dsub(m.x, mu[k]), rb = dsub(m.y, mu[k]);
                        qa = dadd(qa, dmul(ra, ra));
                        qb = dadd(qb, dmul(rb, rb));
                    }
                    best.largest = fmax(best.largest, fmax(qa, qb));
                    if (qa <= threshold) {
                        near |= 1u << (2 * i);
                    } else {
                        best.rest = fmin(best.rest, qa);
                    }
                    if (qb <= threshold) {
                        near |= 1u << (2 * i + 1);
                    } else {
                        best.rest = fmin(best.rest, qb);
                    }
                }
                while (near != 0u) {
                    const int bit = __ffs(near) - 1;
                    near &= near - 1u;
                    const int c = 2 * (part + kPairsSplit * (bit >> 1)) + (bit & 1);
                    best.offerStaged(stagedSquare<MAXD>(s_mu, c, mu), c, s_pos, s_slot);
                }
                continue;
            }
            // Otherwise (the row tile's own candidates, a mixed tile) every candidate is tested.
            for (int c = part; c < kPairsCandidates; c += kPairsSplit) {
                if (s_slot[c] >= 0 && s_pos[c] > posR && s_group[c] == groupR)
                    best.offer(stagedSquare<MAXD>(s_mu, c, mu), s_pos[c], s_slot[c]);
            }
        }
        // The row's threads merge their lists (adjacent lanes), then its first writes.
#pragma unroll
        for (int mask = 1; mask < kPairsSplit; mask <<= 1) best.mergeLane(mask);
        if (!active || part != 0) continue;
        atomicMaxNonNegative(&mergeLog.groups[groupR].maxDist, sqrt(best.largest));
        nearest.nnKey[row] = best.q[0];
        nearest.nn[row] = best.slot[0];
        ref.count[row] = best.pos[0];
#pragma unroll
        for (int k = 1; k < kRowListLength; ++k) {
            const size_t e = static_cast<size_t>(row) * kRunners + static_cast<size_t>(k - 1);
            ref.key[e] = best.q[k];
            ref.slot[e] = best.slot[k];
            ref.pos[e] = best.pos[k];
        }
        ref.bound[row] = best.rest;
    }
}

/// A kept partner's key (singletonRowsKernel's expression).
__device__ __forceinline__ double singletonKey(double maxDist, double square) {
    const double root = sqrt(square);
    return dsub(maxDist, (root + root) / 2.0);
}

/// After singletonPairsKernel: every row's state as singletonRowsKernel writes it, from its kept
/// partners and the group's maxDistX; rows whose keys tie beyond the kept ones get runCount -1 (see
/// the file comment). One thread per entry of the visited list. flagAll: every row is flagged (a test
/// of the fallback).
__global__ void singletonRowsFromPairsKernel(const __grid_constant__ ClusterView clusters,
                                             const __grid_constant__ NearestRowView nearest,
                                             const __grid_constant__ MergeLogView mergeLog,
                                             const __grid_constant__ VisitedListView visited, int flagAll) {
    const int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (t >= visited.length) return;
    const int row = visited.list[t];
    if (clusters.alive[row] == 0) return;
    const RunnerRefs ref = runnerRefs(clusters, nearest);
    const double maxDist = mergeLog.groups[clusters.group[row]].maxDist;
    Candidate top[kRowListLength];
#pragma unroll
    for (int k = 0; k < kRowListLength; ++k) {
        const size_t e = static_cast<size_t>(row) * kRunners + static_cast<size_t>(k > 0 ? k - 1 : 0);
        const int slot = k == 0 ? nearest.nn[row] : ref.slot[e];
        top[k] = noCandidate();
        if (slot >= 0) {
            top[k].slot = slot;
            top[k].pos = k == 0 ? ref.count[row] : ref.pos[e];
            top[k].key = singletonKey(maxDist, k == 0 ? nearest.nnKey[row] : ref.key[e]);
        }
    }
    // Into candidateBefore order (the keys can only tie where q differs: insertion, unrolled).
#pragma unroll
    for (int i = 1; i < kRowListLength; ++i) {
#pragma unroll
        for (int k = i; k > 0; --k) {
            if (candidateBefore(top[k], top[k - 1])) {
                const Candidate c = top[k];
                top[k] = top[k - 1];
                top[k - 1] = c;
            }
        }
    }
    // Every partner not kept has q >= rest, so a key at most key(rest) (rest = +inf: none, or only q =
    // +inf, whose key -inf is kNoKey). A full list must end above it.
    const double bound = singletonKey(maxDist, ref.bound[row]);
    const Candidate& last = top[kRowListLength - 1];
    bool exact = !flagAll && isfinite(maxDist) && (last.slot < 0 || bound < last.key);
#pragma unroll
    for (int k = 0; k < kRowListLength; ++k) exact = exact && !(top[k].slot >= 0 && isnan(top[k].key));
    if (!exact) {
        ref.count[row] = -1;  // singletonRowsKernel (onlyFlagged) writes the row
        return;
    }
    writeSingletonRow(clusters, nearest, row, top, bound);
}

}  // namespace clusterlens::cuda::mhca
