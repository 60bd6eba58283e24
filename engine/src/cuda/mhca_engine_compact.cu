// Compaction of MhcaEngine's visited list between merge batches: the list alone (its dead entries
// dropped), or, for single-group CMD runs of the persistent kernel, the cluster arrays themselves
// (mhca_compact_kernels.cuh): live slot i becomes slot i. Slots are names only: positions (which
// decide ties), ids and births move with their cluster, so the merges stay the same.

#include <algorithm>

#include "cuda/kernels/mhca_compact_kernels.cuh"
#include "cuda/mhca_engine.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda::mhca {
namespace {

unsigned gridFor(long long items) {
    return static_cast<unsigned>(std::clamp<long long>((items + 255) / 256, 1, 4096));
}

/// Moves `entries` entries of every live slot of array `a` to slots 0 .. live-1, through `scratch`
/// (scratchValues values of T, at least `live`): as many entries per pass as it holds for every slot.
template <typename T>
void moveSlots(T* a, std::size_t slotStride, std::size_t entryStride, int entries, const int* liveSlots, int live,
               void* scratch, std::size_t scratchValues, cudaStream_t s) {
    T* buffer = static_cast<T*>(scratch);
    const int chunk = static_cast<int>(
        std::clamp<std::size_t>(scratchValues / static_cast<std::size_t>(std::max(1, live)), 1, kSlotMoveChunk));
    for (int first = 0; first < entries; first += chunk) {
        const int count = std::min(chunk, entries - first);
        const unsigned blocks = gridFor(static_cast<long long>(count) * live);
        gatherSlotsKernel<T><<<blocks, 256, 0, s>>>(a, slotStride, entryStride, first, count, liveSlots, live, buffer);
        CL_CUDA_CHECK_LAUNCH();
        scatterSlotsKernel<T><<<blocks, 256, 0, s>>>(a, slotStride, entryStride, first, count, live, buffer);
        CL_CUDA_CHECK_LAUNCH();
    }
}

}  // namespace

void MhcaEngine::compactIfSparse(bool slots) {
    if (m_listLen < 2048 || m_live > compactBelow()) return;
    launchCompact(d_list.data(), d_listSpare.data(), m_listLen, d_alive.data(), d_compactTemp.data(), m_compactBytes,
                  d_selected.data(), m_stream.get());
    if (slots && d_slotScratch.size() > 0) {
        moveLiveSlots();  // d_listSpare: the live slots, ascending; d_list becomes 0 .. live-1
        m_listIdentity = true;
    } else {
        std::swap(d_list, d_listSpare);
        m_listIdentity = false;
    }
    m_listLen = m_live;
}

void MhcaEngine::moveLiveSlots() {
    const cudaStream_t s = m_stream.get();
    const int live = m_live, n = m_n, d = m_d, p = m_packed;
    const int* from = d_listSpare.data();
    void* scratch = d_slotScratch.data();
    const std::size_t values = d_slotScratch.size();  // doubles: at least as many values of a smaller T
    const std::size_t un = static_cast<std::size_t>(n);
    auto scalars = [&](auto& buffer) { moveSlots(buffer.data(), 1, 0, 1, from, live, scratch, values, s); };
    for (DeviceBuffer<int>* b : {&d_size, &d_pos, &d_id, &d_birth, &d_group, &d_nn, &d_runCount}) scalars(*b);
    for (DeviceBuffer<signed char>* b : {&d_mode, &d_identity}) scalars(*b);
    for (DeviceBuffer<double>* b : {&d_nmf, &d_weight, &d_nnKey, &d_nnBefore, &d_runBound}) scalars(*b);
    if (d_spec.size() > 0)  // a speculated shape names slots by their old numbers
        CL_CUDA_TRY(cudaMemsetAsync(d_spec.data(), 0xff, d_spec.bytes(), s));
    moveSlots(d_mu.data(), 1, un, d, from, live, scratch, values, s);
    for (DeviceBuffer<double>* b : {&d_metric, &d_scaled, &d_scatter})
        moveSlots(b->data(), 1, un, p, from, live, scratch, values, s);
    moveSlots(d_runKey.data(), kRunners, 1, kRunners, from, live, scratch, values, s);
    for (DeviceBuffer<int>* b : {&d_runSlot, &d_runPos, &d_runBirth})
        moveSlots(b->data(), kRunners, 1, kRunners, from, live, scratch, values, s);
    const int cap = m_cfg.memberCap;
    moveSlots(d_members.data(), static_cast<std::size_t>(cap), 1, cap, from, live, scratch, values, s);
    slotMapKernel<<<gridFor(n), 256, 0, s>>>(live, n, d_slotMap.data());
    CL_CUDA_CHECK_LAUNCH();
    slotMapLiveKernel<<<gridFor(live), 256, 0, s>>>(from, live, d_slotMap.data());
    CL_CUDA_CHECK_LAUNCH();
    renameSlotsKernel<<<gridFor(live), 256, 0, s>>>(live, d_slotMap.data(), d_nn.data(), d_runSlot.data(),
                                                    d_runCount.data(), kRunners, d_list.data());
    CL_CUDA_CHECK_LAUNCH();
    CL_CUDA_TRY(cudaMemsetAsync(d_alive.data(), 0, un, s));
    CL_CUDA_TRY(cudaMemsetAsync(d_alive.data(), 1, static_cast<std::size_t>(live), s));
}

}  // namespace clusterlens::cuda::mhca
