#pragma once
// Physical compaction of the CMD cluster arrays (mhca_engine_compact.cu): the live slots move to
// 0 .. live-1 in their order. After many merges the live clusters are scattered over all n slots, and
// a merge that streams their means and metrics (entry e of slot s at e·n + s) reads one 32-byte
// sector per 8-byte entry; compacted, neighbouring threads read neighbouring slots again.
//
// Every per-slot array is seen as a matrix with a slot stride and an entry stride (structure of
// arrays: 1 and n; slot-major lists: width and 1) and moved through a scratch buffer a chunk of
// entries at a time: gather [entry][new slot] from the old slots, then write back.

#include <cuda_runtime.h>

namespace clusterlens::cuda::mhca {

/// scratch[e * live + i] = a[old_i * slotStride + (first + e) * entryStride] for e < entries, i < live.
template <typename T>
__global__ void gatherSlotsKernel(const T* a, size_t slotStride, size_t entryStride, int first, int entries,
                                  const int* liveSlots, int live, T* scratch) {
    const long long total = static_cast<long long>(entries) * live;
    for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
         t += static_cast<long long>(gridDim.x) * blockDim.x) {
        const int e = static_cast<int>(t / live), i = static_cast<int>(t % live);
        scratch[t] = a[static_cast<size_t>(liveSlots[i]) * slotStride + static_cast<size_t>(first + e) * entryStride];
    }
}

/// a[i * slotStride + (first + e) * entryStride] = scratch[e * live + i].
template <typename T>
__global__ void scatterSlotsKernel(T* a, size_t slotStride, size_t entryStride, int first, int entries, int live,
                                   const T* scratch) {
    const long long total = static_cast<long long>(entries) * live;
    for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
         t += static_cast<long long>(gridDim.x) * blockDim.x) {
        const int e = static_cast<int>(t / live), i = static_cast<int>(t % live);
        a[static_cast<size_t>(i) * slotStride + static_cast<size_t>(first + e) * entryStride] = scratch[t];
    }
}

/// newSlot[s] = `live` (a slot that is dead after the move) for every s, then i for live slot i.
__global__ void slotMapKernel(int live, int n, int* newSlot) {
    for (int s = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); s < n;
         s += static_cast<int>(gridDim.x * blockDim.x))
        newSlot[s] = live;
}

__global__ void slotMapLiveKernel(const int* liveSlots, int live, int* newSlot) {
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < live;
         i += static_cast<int>(gridDim.x * blockDim.x))
        newSlot[liveSlots[i]] = i;
}

/// Slot values of the moved rows 0 .. live-1 renamed: nn (-1 stays), the listed runners-up, and the
/// list itself (0 .. live-1). A partner that died maps to a dead slot, which its row skips.
__global__ void renameSlotsKernel(int live, const int* newSlot, int* nn, int* runSlot, const int* runCount, int runners,
                                  int* list) {
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < live;
         i += static_cast<int>(gridDim.x * blockDim.x)) {
        if (nn[i] >= 0) nn[i] = newSlot[nn[i]];
        const int count = runCount[i];
        for (int k = 0; k < count; ++k) {
            int& s = runSlot[static_cast<size_t>(i) * runners + k];
            s = newSlot[s];
        }
        list[i] = i;
    }
}

}  // namespace clusterlens::cuda::mhca
