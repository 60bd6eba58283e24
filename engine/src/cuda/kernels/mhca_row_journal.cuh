#pragma once
// The row journal of the persistent CMD kernel without barrier S3 (mhca_persistent_kernels.cuh).
//
// Barrier S3 stood between the merged cluster's new distances and the row update so that every block
// knew the merge's smallest new key: below zero, mhclust.c shifts every key (maxDistX grows), and the
// row update applies that shift. (It also ordered the commit and the blocks' parts; the kernel's file
// comment says how they are ordered without it.) Shifts are rare (1 to 3 in a run of 4.4K-10K cytometry-like
// points, CMD), so the kernel updates the rows as if there were none, and a block whose entries hold
// a negative key raises a flag. After barrier S4 every block reads the flag; when it is up, each
// block puts its rows back as the journal kept them and updates them again with the shift, followed
// by one more barrier. The merges are those of the barrier's version, bit for bit.
//
// What the journal keeps, per row the update touches (slot-indexed, written by the row's owner):
//   - the scalars the update may change (nn, nnKey, nnBefore, runBound), for every row it visits;
//   - its runner list when the update changes it, once per merge (stamped with the merge index):
//     the whole list when a stale row is answered from it (resolveRow rebuilds it), the insertion
//     point and the dropped last entry when one partner is inserted (runnerInsert, the common case,
//     with no extra load on its path but the dropped entry's birth), the count when a lazy row takes
//     the merged cluster (carryLazyRow).
// Memory: (3 + kRunners) doubles and (5 + 3 kRunners) ints per slot (204 bytes at kRunners = 8), one
// allocation.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/mhca_types.cuh"

namespace clusterlens::cuda::mhca {

/// How a row's runner list changed in the journaled merge.
enum RunnerChange : int { kRunnerInserted = 1, kRunnerRebuilt = 2, kRunnerCounted = 3 };

/// The journal's arrays, carved from one allocation of rowJournalDoubles(n) doubles. `merge`: the
/// merge the journal is written for; base == nullptr: none kept (the barrier's version, and the
/// update's second pass).
struct RowJournal {
    double* base;
    int n;
    int merge;
    __device__ __forceinline__ double* key() const { return base; }
    __device__ __forceinline__ double* before() const { return base + n; }
    __device__ __forceinline__ double* bound() const { return base + 2 * static_cast<size_t>(n); }
    __device__ __forceinline__ double* runKey() const { return base + 3 * static_cast<size_t>(n); }
    __device__ __forceinline__ int* ints() const {
        return reinterpret_cast<int*>(base + (3 + kRunners) * static_cast<size_t>(n));
    }
    __device__ __forceinline__ int* nn() const { return ints(); }
    __device__ __forceinline__ int* stamp() const { return ints() + n; }
    __device__ __forceinline__ int* change() const { return ints() + 2 * static_cast<size_t>(n); }
    __device__ __forceinline__ int* count() const { return ints() + 3 * static_cast<size_t>(n); }
    __device__ __forceinline__ int* at() const { return ints() + 4 * static_cast<size_t>(n); }
    __device__ __forceinline__ int* runSlot() const { return ints() + 5 * static_cast<size_t>(n); }
    __device__ __forceinline__ int* runPos() const { return ints() + (5 + kRunners) * static_cast<size_t>(n); }
    __device__ __forceinline__ int* runBirth() const { return ints() + (5 + 2 * kRunners) * static_cast<size_t>(n); }
};

/// Doubles of a journal of n slots (the ints packed two per double, rounded up).
__host__ __device__ inline size_t rowJournalDoubles(int n) {
    const size_t ints = (5 + 3 * static_cast<size_t>(kRunners)) * static_cast<size_t>(n);
    return (3 + kRunners) * static_cast<size_t>(n) + (ints + 1) / 2;
}

/// The row's scalars before the update (every visited row).
__device__ __forceinline__ void journalScalars(const RowJournal& j, int row, int nn, double key, double before,
                                               double bound) {
    j.nn()[row] = nn;
    j.key()[row] = key;
    j.before()[row] = before;
    j.bound()[row] = bound;
}

/// One insertion at `at` into a list of `count` entries; when the list was full, its last entry
/// (dropped into the bound) is (key, slot, pos, birth).
__device__ __forceinline__ void journalInsert(const RowJournal& j, int row, int count, int at, double key, int slot,
                                              int pos, int birth) {
    j.stamp()[row] = j.merge;
    j.change()[row] = kRunnerInserted;
    j.count()[row] = count;
    j.at()[row] = at;
    const size_t e = static_cast<size_t>(row) * kRunners;
    j.runKey()[e] = key;
    j.runSlot()[e] = slot;
    j.runPos()[e] = pos;
    j.runBirth()[e] = birth;
}

/// The whole list before a rebuild (entries beyond `count` are copied as they are).
__device__ __forceinline__ void journalList(const RowJournal& j, int row, int count, const double* keys,
                                            const int* slots, const int* positions, const int* births) {
    j.stamp()[row] = j.merge;
    j.change()[row] = kRunnerRebuilt;
    j.count()[row] = count;
    const size_t e = static_cast<size_t>(row) * kRunners;
#pragma unroll
    for (int k = 0; k < kRunners; ++k) {
        j.runKey()[e + k] = keys[k];
        j.runSlot()[e + k] = slots[k];
        j.runPos()[e + k] = positions[k];
        j.runBirth()[e + k] = births[k];
    }
}

/// Only the count changed.
__device__ __forceinline__ void journalCount(const RowJournal& j, int row, int count) {
    j.stamp()[row] = j.merge;
    j.change()[row] = kRunnerCounted;
    j.count()[row] = count;
}

/// Puts a visited row back as the journal of merge j.merge kept it (its owner thread, after the
/// barrier that ended the update). Out of line: the persistent kernel's merge loop is long enough.
template <int kOutOfLine = 0>
__device__ __noinline__ void restoreRow(RowJournal j, RunnerRefs s, int row) {
    s.nn[row] = j.nn()[row];
    s.nnKey[row] = j.key()[row];
    s.nnBefore[row] = j.before()[row];
    s.bound[row] = j.bound()[row];
    if (j.stamp()[row] != j.merge) return;
    const size_t e = static_cast<size_t>(row) * kRunners;
    const int count = j.count()[row];
    const int change = j.change()[row];
    if (change == kRunnerRebuilt) {
        for (int k = 0; k < kRunners; ++k) {
            s.key[e + k] = j.runKey()[e + k];
            s.slot[e + k] = j.runSlot()[e + k];
            s.pos[e + k] = j.runPos()[e + k];
            s.birthOf[e + k] = j.runBirth()[e + k];
        }
    } else if (change == kRunnerInserted) {
        const int at = j.at()[row];
        const int now = s.count[row];
        if (at < kRunners) {  // the entries after `at` moved up one place; the full list lost its last
            for (int k = at; k + 1 < now; ++k) {
                s.key[e + k] = s.key[e + k + 1];
                s.slot[e + k] = s.slot[e + k + 1];
                s.pos[e + k] = s.pos[e + k + 1];
                s.birthOf[e + k] = s.birthOf[e + k + 1];
            }
            if (count == kRunners) {
                s.key[e + kRunners - 1] = j.runKey()[e];
                s.slot[e + kRunners - 1] = j.runSlot()[e];
                s.pos[e + kRunners - 1] = j.runPos()[e];
                s.birthOf[e + kRunners - 1] = j.runBirth()[e];
            }
        }
    }
    s.count[row] = count;
}

}  // namespace clusterlens::cuda::mhca
