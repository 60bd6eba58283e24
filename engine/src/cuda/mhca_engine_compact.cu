// Compaction of MhcaEngine's visited list between merge batches: the list alone (its dead entries
// dropped), or, for single-group CMD runs of the persistent kernel, the cluster arrays themselves
// (mhca_compact_kernels.cuh): live slot i becomes slot i. Slots are names only: positions (which
// decide ties), ids and births move with their cluster, so the merges stay the same.

#include <algorithm>

#include "cuda/kernels/mhca_compact_kernels.cuh"
#include "cuda/mhca_engine.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"

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
    launchCompact(m_visited.list.data(), m_visited.listSpare.data(), m_listLen, m_clusters.alive.data(),
                  m_visited.compactTemp.data(), m_visited.compactTemp.bytes(), m_visited.selected.data(),
                  m_stream.get());
    if (slots && m_visited.slotScratch.size() > 0) {
        moveLiveSlots();  // m_visited.listSpare: the live slots, ascending; m_visited.list becomes 0 .. live-1
        m_listIdentity = true;
    } else {
        std::swap(m_visited.list, m_visited.listSpare);
        m_listIdentity = false;
    }
    m_listLen = m_live;
}

void MhcaEngine::moveLiveSlots() {
    const cudaStream_t s = m_stream.get();
    const int live = m_live, n = m_n, d = m_d, p = m_packed;
    const int* from = m_visited.listSpare.data();
    void* scratch = m_visited.slotScratch.data();
    const std::size_t values = m_visited.slotScratch.size();  // doubles: at least as many values of a smaller T
    const std::size_t un = static_cast<std::size_t>(n);
    auto scalars = [&](auto& buffer) { moveSlots(buffer.data(), 1, 0, 1, from, live, scratch, values, s); };
    for (DeviceBuffer<int>* b : {&m_clusters.size, &m_clusters.pos, &m_clusters.id, &m_clusters.birth,
                                 &m_clusters.group, &m_rows.nn, &m_rows.runCount})
        scalars(*b);
    for (DeviceBuffer<signed char>* b : {&m_clusters.mode, &m_clusters.identity}) scalars(*b);
    for (DeviceBuffer<double>* b :
         {&m_clusters.nmf, &m_clusters.weight, &m_rows.nnKey, &m_rows.nnBefore, &m_rows.runBound})
        scalars(*b);
    if (m_scratch.spec.size() > 0)  // a speculated shape names slots by their old numbers
        CL_CUDA_TRY(cudaMemsetAsync(m_scratch.spec.data(), 0xff, m_scratch.spec.bytes(), s));
    moveSlots(m_clusters.mu.data(), 1, un, d, from, live, scratch, values, s);
    for (DeviceBuffer<double>* b : {&m_clusters.metric, &m_clusters.scaled, &m_clusters.scatter})
        moveSlots(b->data(), 1, un, p, from, live, scratch, values, s);
    moveSlots(m_rows.runKey.data(), kRunners, 1, kRunners, from, live, scratch, values, s);
    for (DeviceBuffer<int>* b : {&m_rows.runSlot, &m_rows.runPos, &m_rows.runBirth})
        moveSlots(b->data(), kRunners, 1, kRunners, from, live, scratch, values, s);
    const int cap = m_cfg.memberCap;
    moveSlots(m_clusters.members.data(), static_cast<std::size_t>(cap), 1, cap, from, live, scratch, values, s);
    slotMapKernel<<<gridFor(n), 256, 0, s>>>(live, n, m_visited.slotMap.data());
    CL_CUDA_CHECK_LAUNCH();
    slotMapLiveKernel<<<gridFor(live), 256, 0, s>>>(from, live, m_visited.slotMap.data());
    CL_CUDA_CHECK_LAUNCH();
    renameSlotsKernel<<<gridFor(live), 256, 0, s>>>(live, m_visited.slotMap.data(), m_rows.nn.data(),
                                                    m_rows.runSlot.data(), m_rows.runCount.data(), kRunners,
                                                    m_visited.list.data());
    CL_CUDA_CHECK_LAUNCH();
    CL_CUDA_TRY(cudaMemsetAsync(m_clusters.alive.data(), 0, un, s));
    CL_CUDA_TRY(cudaMemsetAsync(m_clusters.alive.data(), 1, static_cast<std::size_t>(live), s));
}

CL_CUDA_KERNEL_MODULE(slotMapKernel)

}  // namespace clusterlens::cuda::mhca
