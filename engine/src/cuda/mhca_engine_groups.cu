// The CMD apriori group phase of MhcaEngine: a block per group (mhca_group_kernels.cuh), launched in
// slices of groups so that progress and cancellation are seen between slices.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "cuda/mhca_engine.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/mhca_phase_times.hpp"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda::mhca {

bool MhcaEngine::groupPhaseFits(std::size_t largest) const {
    // Below threshold · nFull points no cluster of a group reaches the threshold: no switch step.
    return !m_cfg.full && m_groupPhase.maxBlocks > 0 &&
           static_cast<double>(largest) < m_options.threshold * static_cast<double>(m_n);
}

std::vector<MergeRecord> MhcaEngine::runGroups(const std::vector<int>& listStart, MergeProgress& progress,
                                               const std::vector<int>& only) {
    const cudaStream_t s = m_stream.get();
    finishStart(false);  // the group kernel finds its groups' neighbours itself; none are pending then
    const int allGroups = static_cast<int>(listStart.size()) - 1;
    if (allGroups <= 0) return {};
    const std::size_t merges = static_cast<std::size_t>(listStart.back() - allGroups);
    auto sizeOf = [&](int g) {
        return listStart[static_cast<std::size_t>(g) + 1] - listStart[static_cast<std::size_t>(g)];
    };
    // Largest groups first: the last wave of blocks then holds the short ones.
    std::vector<int> order = only;
    if (order.empty()) {
        order.resize(static_cast<std::size_t>(allGroups));
        std::iota(order.begin(), order.end(), 0);
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return sizeOf(a) > sizeOf(b); });
    const int groups = static_cast<int>(order.size());

    const std::size_t count = static_cast<std::size_t>(allGroups);
    GroupPhaseState state;
    allocatePart(state, GroupPhaseSizing{count, m_profile != nullptr}, s);
    state.order.copyFromHost(order.data(), order.size());
    state.start.copyFromHost(listStart.data(), count + 1);
    state.clear(s);

    GroupPhaseArgs args{};
    state.fillArgs(args, m_profile != nullptr);
    args.stageRows = m_groupPhase.stageRows;
    args.areaDoubles = m_groupPhase.areaDoubles;
    // A slice of about four waves of resident blocks, each wave ~ a group's merges.
    const int slice = std::max(1, 4 * m_groupPhase.maxBlocks);
    const MhcaView v = view();
    const auto started = std::chrono::steady_clock::now();
    for (int first = 0; first < groups; first += slice) {
        const int end = std::min(groups, first + slice);
        CL_CUDA_TRY(cudaMemsetAsync(state.next.data(), 0, sizeof(int), s));
        args.order = state.order.data() + first;
        args.groups = end - first;
        launchCmdGroups(v, args, m_groupPhase, s);
        progress.waitFor(s);
        std::size_t done = 0;
        for (int k = first; k < end; ++k)
            done += static_cast<std::size_t>(sizeOf(order[static_cast<std::size_t>(k)]) - 1);
        progress.advance(done);
    }
    if (m_profile) {  // the longest group bounds the phase from below, the sum over blocks from above
        std::vector<unsigned long long> ns(count);
        state.nanoseconds.copyToHost(ns.data(), count);
        const int blocks = std::min(groups, m_groupPhase.maxBlocks);
        double sum = 0.0;
        for (unsigned long long t : ns) sum += 1e-9 * static_cast<double>(t);
        appendReport(*m_probe,
                     "[mhca profile] group phase: %d groups (largest %d points), %zu merges, %.3f s on %d blocks; "
                     "largest group %.3f s, longest group %.3f s, mean busy time per block %.3f s\n",
                     groups, sizeOf(order.front()), merges,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), blocks,
                     1e-9 * static_cast<double>(ns[static_cast<std::size_t>(order.front())]),
                     1e-9 * static_cast<double>(*std::max_element(ns.begin(), ns.end())), sum / blocks);
    }
    int failed = 0;
    state.failed.copyToHost(&failed, 1);
    if (failed) throw CudaError("MHCA on the GPU: an apriori group reached the threshold inside the group kernel");
    std::vector<int> made(count);
    state.mergeCounts.copyToHost(made.data(), count);
    for (int g : order) {
        if (made[static_cast<std::size_t>(g)] != sizeOf(g) - 1)
            throw CudaError("MHCA on the GPU made " + std::to_string(made[static_cast<std::size_t>(g)]) + " of " +
                            std::to_string(sizeOf(g) - 1) + " merges of apriori group " + std::to_string(g) +
                            " (no finite distance was left)");
    }
    return readRecords(merges);
}

}  // namespace clusterlens::cuda::mhca
