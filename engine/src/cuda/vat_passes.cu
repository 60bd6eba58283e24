// The pruned tiled passes of the GPU VAT engine: pair lists from the tile balls, batches of about
// 50 ms (a cancel lands within two), the k-NN pass, the nearest scans of the Borůvka rounds and the
// farthest pair.

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "cuda/kernels/vat_engine.cuh"
#include "cuda/kernels/vat_knn_kernels.cuh"
#include "cuda/kernels/vat_pair_kernels.cuh"
#include "cuda/kernels/vat_scan_kernels.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens::cuda {
namespace {

/// Fused multiply-adds per batch: about 50 ms at half the FP32 rate of an H100/H200.
constexpr double kBatchFma = 6.0e11;
constexpr unsigned kThreads = 256;

std::size_t engineShared(int dPad) {
    return static_cast<std::size_t>(vatEngineSharedFloats(dPad)) * sizeof(float);
}

std::size_t centreShared(int d) {
    return static_cast<std::size_t>(vatCentreSharedFloats(d)) * sizeof(float);
}

template <class Kernel>
void allowShared(Kernel kernel, std::size_t bytes) {
    CL_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

}  // namespace

void vatTileGeometry(const VatSpaceView& view, float* centre, float* radius, float* reach) {
    const cudaStream_t stream = cudaStreamPerThread;
    vatBallsKernel<<<view.tileCount, kVatTile, centreShared(view.d), stream>>>(
        view.tiles, view.perm, view.dPad, view.d, view.screen.l1(), nullptr, nullptr, centre, radius, nullptr, nullptr);
    CL_CUDA_CHECK_LAUNCH();
    vatTileReachKernel<<<view.tileCount, kVatTile, 0, stream>>>(view, reach);
    CL_CUDA_CHECK_LAUNCH();
}

VatPasses::VatPasses(const VatSpace& space, JobControl* control, VatTrace& trace)
    : m_space(space), m_control(control), m_trace(trace) {}

template <class Launch>
long long VatPasses::runPairs(VatBallsView rows, const float* reach, const int* rowComp, const int* colComp,
                              bool farthest, Launch&& launch) {
    const cudaStream_t stream = cudaStreamPerThread;
    const int units = rows.count;
    if (units == 0) return 0;
    const VatBallsView cols = m_space.balls();
    const int d = m_space.d();
    const bool l1 = m_space.screen().l1();
    const std::size_t shared = centreShared(d);
    ensureCapacity(d_counts, static_cast<std::size_t>(units));
    if (farthest)
        vatPairListKernel<true><<<units, kThreads, shared, stream>>>(rows, reach, rowComp, cols, colComp, d, l1, 0,
                                                                     d_counts.data(), nullptr, 0, nullptr);
    else
        vatPairListKernel<false><<<units, kThreads, shared, stream>>>(rows, reach, rowComp, cols, colComp, d, l1, 0,
                                                                      d_counts.data(), nullptr, 0, nullptr);
    CL_CUDA_CHECK_LAUNCH();
    std::vector<int> counts(static_cast<std::size_t>(units));
    d_counts.copyToHost(counts.data(), counts.size());
    std::vector<long long> offsets(counts.size() + 1, 0);
    for (std::size_t u = 0; u < counts.size(); ++u) offsets[u + 1] = offsets[u] + counts[u];
    ensureCapacity(d_offsets, offsets.size());
    d_offsets.copyFromHost(offsets.data(), offsets.size());
    ensureCapacity(d_blockUnit, static_cast<std::size_t>(units));

    const double pairFma = double(kVatTile) * kVatTile * m_space.dPad();
    const long long maxPairs = std::max<long long>(1, static_cast<long long>(kBatchFma / pairFma));
    std::vector<int> order;
    for (int u0 = 0; u0 < units;) {
        int u1 = u0 + 1;
        while (u1 < units && offsets[u1 + 1] - offsets[u0] <= maxPairs) ++u1;
        const long long pairs = offsets[u1] - offsets[u0];
        ensureCapacity(d_list, static_cast<std::size_t>(std::max<long long>(pairs, 1)));
        if (farthest)
            vatPairListKernel<true><<<u1 - u0, kThreads, shared, stream>>>(
                rows, reach, rowComp, cols, colComp, d, l1, u0, nullptr, d_offsets.data(), offsets[u0], d_list.data());
        else
            vatPairListKernel<false><<<u1 - u0, kThreads, shared, stream>>>(
                rows, reach, rowComp, cols, colComp, d, l1, u0, nullptr, d_offsets.data(), offsets[u0], d_list.data());
        CL_CUDA_CHECK_LAUNCH();
        // Longest lists first, so that no long block starts last.
        order.resize(static_cast<std::size_t>(u1 - u0));
        std::iota(order.begin(), order.end(), u0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return counts[a] > counts[b]; });
        d_blockUnit.copyFromHost(order.data(), order.size());
        launch(VatWork{d_blockUnit.data(), d_list.data(), d_offsets.data(), offsets[u0]}, u1 - u0);
        CL_CUDA_CHECK_LAUNCH();
        CL_CUDA_TRY(cudaStreamSynchronize(stream));
        m_trace.tilePairs += static_cast<double>(pairs);
        if (m_control) m_control->checkCancelled();
        u0 = u1;
    }
    return offsets.back();
}

void VatPasses::knn(DeviceBuffer<int>& knnPos, DeviceBuffer<double>& knnBound) {
    const cudaStream_t stream = cudaStreamPerThread;
    const auto clock = std::chrono::steady_clock::now();
    const std::size_t positions = static_cast<std::size_t>(m_space.positions());
    knnPos = DeviceBuffer<int>(positions * kVatKnn, stream);
    knnBound = DeviceBuffer<double>(positions, stream);
    DeviceBuffer<float> knnReach(positions, stream);
    const VatSpaceView view = m_space.view();
    const std::size_t shared =
        std::max(engineShared(m_space.dPad()), std::size_t(kVatTile) * 16 * kVatKnnPerThread * 8);
    const auto run = [&](auto kernel) {
        allowShared(kernel, shared);
        m_trace.knnTilePairs += runPairs(m_space.balls(), m_space.tileReach(), nullptr, nullptr, false,
                                         [&](const VatWork& work, int blocks) {
                                             kernel<<<blocks, kVatThreads, shared, stream>>>(
                                                 view, work, m_space.tileReach(), knnPos.data(), knnReach.data());
                                         });
    };
    if (m_space.screen().l1())
        run(vatKnnKernel<true>);
    else
        run(vatKnnKernel<false>);
    withMetric(m_space.metric(), [&](auto metric) {
        vatKnnExactKernel<decltype(metric)::value><<<gridFor(positions, kThreads), kThreads, 0, stream>>>(
            view, static_cast<int>(positions), knnPos.data(), knnReach.data(), knnBound.data());
    });
    CL_CUDA_CHECK_LAUNCH();
    CL_CUDA_TRY(cudaStreamSynchronize(stream));
    m_trace.secondsKnn += secondsSince(clock);
}

void VatPasses::ensureGroups(int rows) {
    const int capacity = (rows + kVatTile - 1) / kVatTile * kVatTile;
    if (capacity <= m_capacity) return;
    const cudaStream_t stream = cudaStreamPerThread;
    const std::size_t slots = static_cast<std::size_t>(capacity);
    const std::size_t groups = slots / kVatTile;
    d_groupTiles = DeviceBuffer<float>(slots * m_space.dPad(), stream);
    d_groupPos = DeviceBuffer<int>(slots, stream);
    d_groupComp = DeviceBuffer<int>(slots, stream);
    d_groupLimit = DeviceBuffer<double>(slots, stream);
    d_groupHigh = DeviceBuffer<float>(slots, stream);
    d_groupSlotReach = DeviceBuffer<float>(slots, stream);
    d_groupCentre = DeviceBuffer<float>(groups * m_space.d(), stream);
    d_groupRadius = DeviceBuffer<float>(groups, stream);
    d_groupReach = DeviceBuffer<float>(groups, stream);
    d_groupBallComp = DeviceBuffer<int>(groups, stream);
    d_outW = DeviceBuffer<double>(slots, stream);
    d_outQ = DeviceBuffer<int>(slots, stream);
    m_capacity = capacity;
}

int VatPasses::gather(const int* list, int count) {
    ensureGroups(count);
    const int groups = (count + kVatTile - 1) / kVatTile;
    const std::size_t elements = static_cast<std::size_t>(groups) * m_space.dPad() * kVatTile;
    vatGatherRowsKernel<<<gridFor(elements, kThreads), kThreads, 0, cudaStreamPerThread>>>(
        m_space.view(), list, count, groups, d_groupTiles.data(), d_groupPos.data());
    CL_CUDA_CHECK_LAUNCH();
    return groups;
}

void VatPasses::groupBalls(int groups, const float* slotReach, const int* slotComp) {
    vatBallsKernel<<<groups, kVatTile, centreShared(m_space.d()), cudaStreamPerThread>>>(
        d_groupTiles.data(), d_groupPos.data(), m_space.dPad(), m_space.d(), m_space.screen().l1(), slotReach, slotComp,
        d_groupCentre.data(), d_groupRadius.data(), d_groupReach.data(), slotComp ? d_groupBallComp.data() : nullptr);
    CL_CUDA_CHECK_LAUNCH();
}

void VatPasses::nearest(const int* list, int count, bool probe, const VatForest& forest, const int* tileComp) {
    if (count <= 0) return;
    const cudaStream_t stream = cudaStreamPerThread;
    const auto clock = std::chrono::steady_clock::now();
    const int groups = gather(list, count);
    const int slots = groups * kVatTile;
    vatScanRowsKernel<<<gridFor(std::size_t(slots), kThreads), kThreads, 0, stream>>>(
        forest, m_space.screen(), list, count, slots, probe, d_groupComp.data(), d_groupLimit.data(),
        d_groupHigh.data(), d_groupSlotReach.data());
    CL_CUDA_CHECK_LAUNCH();
    groupBalls(groups, d_groupSlotReach.data(), d_groupComp.data());
    const VatBallsView rows{d_groupCentre.data(), d_groupRadius.data(), groups};
    const VatRowGroups rowData{d_groupTiles.data(), d_groupPos.data(), d_groupComp.data(), d_groupHigh.data(),
                               d_groupLimit.data()};
    const VatSpaceView view = m_space.view();
    const std::size_t shared = engineShared(m_space.dPad()) + 8 * kVatThreads * (sizeof(double) + sizeof(int));
    long long pairs = 0;
    withMetric(m_space.metric(), [&](auto metric) {
        const auto kernel = vatNearestKernel<decltype(metric)::value>;
        allowShared(kernel, shared);
        pairs = runPairs(rows, d_groupReach.data(), d_groupBallComp.data(), tileComp, false,
                         [&](const VatWork& work, int blocks) {
                             kernel<<<blocks, kVatThreads, shared, stream>>>(view, rowData, forest.comp, work,
                                                                             d_outW.data(), d_outQ.data());
                         });
    });
    vatApplyScanKernel<<<gridFor(std::size_t(count), kThreads), kThreads, 0, stream>>>(
        forest, list, count, probe, d_groupLimit.data(), d_outW.data(), d_outQ.data(), m_space.invPerm());
    CL_CUDA_CHECK_LAUNCH();
    CL_CUDA_TRY(cudaStreamSynchronize(stream));
    const double seconds = secondsSince(clock);
    m_trace.scans += 1;
    m_trace.scannedRows += count;
    m_trace.secondsScans += seconds;
    m_trace.scanLog += "r" + std::to_string(m_trace.rounds) + (probe ? "p " : " ") + std::to_string(count) + "/" +
                       std::to_string(pairs) + "/" + std::to_string(static_cast<int>(seconds * 1e3)) + "ms ";
}

float VatPasses::farScreen(std::vector<int>& candidates) {
    const cudaStream_t stream = cudaStreamPerThread;
    const std::size_t positions = static_cast<std::size_t>(m_space.positions());
    const int tiles = m_space.tileCount();
    const VatSpaceView view = m_space.view();
    const float farBall = static_cast<float>(m_space.farLowerBound());
    DeviceBuffer<float> reach(static_cast<std::size_t>(tiles), stream);
    vatFillKernel<float>
        <<<gridFor(std::size_t(tiles), kThreads), kThreads, 0, stream>>>(reach.data(), std::size_t(tiles), farBall);
    CL_CUDA_CHECK_LAUNCH();
    DeviceBuffer<float> rowLow(positions, stream), rowHigh(positions, stream);
    const std::size_t shared = engineShared(m_space.dPad());
    const auto screen = [&](auto kernel) {
        allowShared(kernel, shared);
        runPairs(m_space.balls(), reach.data(), nullptr, nullptr, true, [&](const VatWork& work, int blocks) {
            kernel<<<blocks, kVatThreads, shared, stream>>>(view, work, rowLow.data(), rowHigh.data());
        });
    };
    if (m_space.screen().l1())
        screen(vatFarScreenKernel<true>);
    else
        screen(vatFarScreenKernel<false>);
    std::vector<float> low(positions), high(positions);
    rowLow.copyToHost(low.data(), positions);
    rowHigh.copyToHost(high.data(), positions);
    const std::vector<int>& perm = m_space.perm();
    float floor = -INFINITY;
    for (std::size_t p = 0; p < positions; ++p)
        if (perm[p] >= 0) floor = std::max(floor, low[p]);
    candidates.clear();
    for (std::size_t p = 0; p < positions; ++p)
        if (perm[p] >= 0 && high[p] >= floor) candidates.push_back(static_cast<int>(p));
    if (candidates.empty()) throw CudaError("farthest pair: the screening pass found no candidate row");
    return floor;
}

std::pair<std::size_t, std::size_t> VatPasses::farthest() {
    const cudaStream_t stream = cudaStreamPerThread;
    const auto clock = std::chrono::steady_clock::now();
    const VatSpaceView view = m_space.view();
    const bool l1 = m_space.screen().l1();
    std::vector<int> candidates;
    const float floor = farScreen(candidates);

    // Refine: exact values of every pair of a candidate row whose upper bound reaches the floor; tile
    // pairs whose balls stay below it cannot hold such a pair.
    const int count = static_cast<int>(candidates.size());
    DeviceBuffer<int> d_candidates(candidates.size(), stream);
    d_candidates.copyFromHost(candidates.data(), candidates.size());
    const int groups = gather(d_candidates.data(), count);
    const float floorBall = floor > 0.0f ? (l1 ? floor : std::sqrt(floor)) * (1.0f - 0x1.0p-20f) : 0.0f;
    vatFillKernel<float><<<gridFor(std::size_t(groups) * kVatTile, kThreads), kThreads, 0, stream>>>(
        d_groupSlotReach.data(), std::size_t(groups) * kVatTile, floorBall);
    CL_CUDA_CHECK_LAUNCH();
    groupBalls(groups, d_groupSlotReach.data(), nullptr);
    const VatBallsView rows{d_groupCentre.data(), d_groupRadius.data(), groups};
    const VatRowGroups rowData{d_groupTiles.data(), d_groupPos.data(), nullptr, nullptr, nullptr};
    const std::size_t shared = engineShared(m_space.dPad()) + 8 * kVatThreads * (sizeof(double) + sizeof(int));
    withMetric(m_space.metric(), [&](auto metric) {
        const auto kernel = vatFarRefineKernel<decltype(metric)::value>;
        allowShared(kernel, shared);
        runPairs(rows, d_groupReach.data(), nullptr, nullptr, true, [&](const VatWork& work, int blocks) {
            kernel<<<blocks, kVatThreads, shared, stream>>>(view, rowData, floor, work, d_outW.data(), d_outQ.data());
        });
    });
    std::vector<double> w(candidates.size());
    std::vector<int> q(candidates.size());
    d_outW.copyToHost(w.data(), w.size());
    d_outQ.copyToHost(q.data(), q.size());
    // Largest value, then the lexicographically smallest pair.
    double bestW = -INFINITY;
    std::size_t bestI = 0, bestJ = 0;
    bool found = false;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
        if (q[c] < 0) continue;
        const auto p = static_cast<std::size_t>(m_space.perm()[static_cast<std::size_t>(candidates[c])]);
        const auto o = static_cast<std::size_t>(q[c]);
        const std::size_t i = std::min(p, o), j = std::max(p, o);
        if (!found || w[c] > bestW || (w[c] == bestW && (i < bestI || (i == bestI && j < bestJ)))) {
            bestW = w[c], bestI = i, bestJ = j;
            found = true;
        }
    }
    if (!found) throw CudaError("farthest pair: the refinement found no pair");
    m_trace.secondsFar += secondsSince(clock);
    return {bestI, bestJ};
}

CL_CUDA_KERNEL_MODULE(vatBallsKernel)

}  // namespace clusterlens::cuda
