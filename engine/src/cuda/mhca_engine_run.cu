// The MHCA merge loop on the device (thesis section 2.4.2 with the kernel groups of 2.5).
//
// CMD, where the device allows it (d <= 16, cooperative launch): one persistent kernel runs batches of
// merges (mhca_persistent_kernels.cuh); the host only compacts the visited list between batches, checks
// for cancellation and finishes the rare switch step with the per-stage kernels. Otherwise CMD takes
// five launches per merge (closest pair + bookkeeping, new cluster shape, its distances + the key
// shift, its row + the updates of the others, rescans) with no host synchronisation; the host only
// knows how many clusters are alive and compacts the visited list when half of it died (compactBelow). FMD: the
// merged cluster's member block is moved, its row evaluated from the members, and the marked rows
// rescanned by a pass the device sizes from its own count (up to m_fmdRowsCap rows), so the host
// queues batches of merges and syncs once per batch. A step that pass cannot finish (the switch to
// pure Mahalanobis distances, which recomputes every pair, or more marked rows) halts the loop: the
// steps queued after it stay empty, and the host finishes it at the batch's sync. The per-stage
// batches (CMD and FMD) are captured as a CUDA graph and replayed while the list stays the same:
// FMD 44K×14 6.96 -> 6.54 s on an H200. Which of the equivalent mechanisms run is m_policy's choice
// (hca/mhca_cuda_policy.hpp); a probe (hca/mhca_probe.hpp) receives the counts and, timed, the
// stage times.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda/mhca_engine.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/mhca_phase_times.hpp"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda::mhca {
namespace {

/// Merges between two cancellation checks (a sync drains the queue; 1024 merges take ~0.1-0.2 s).
constexpr std::size_t kCheckEvery = 1024;
/// The same for the persistent CMD kernel, one launch per check (4096 merges take ~0.13-0.2 s at
/// 44K-200K points on an H200). Each launch costs a sync, the launch of the kernel and of the growth
/// kernel beside it, and a first merge without a speculated shape. (The growth kernel's 12-bit merge
/// tags bound no launch: every worker warp tags its entry at every merge, so an entry it reads is at
/// most two merges from the one it waits for, mhca_growth_shared.cuh.)
constexpr std::size_t kPersistentCheckEvery = 4096;
/// FMD merges queued between two syncs: a sync costs one drained queue, a halt at most this many
/// empty steps.
constexpr std::size_t kFmdSyncEvery = 128;

}  // namespace

std::size_t MhcaEngine::nextBatch(std::size_t left, std::size_t every) const {
    std::size_t batch = std::min(left, every);
    if (m_listLen >= 2048)
        batch = std::min<std::size_t>(batch, static_cast<std::size_t>(std::max(1, m_live - compactBelow())));
    return batch;
}

std::vector<MergeRecord> MhcaEngine::run(std::size_t merges, MergeProgress& progress) {
    if (m_cfg.full) return runFull(merges, progress);
    if (m_persistent.maxBlocks > 0) return runPersistent(merges, progress);
    if (merges > 0) prepareStepGraph(nextBatch(merges, kCheckEvery), false);  // before the start's passes
    finishStart(false);
    const cudaStream_t s = m_stream.get();
    std::size_t done = 0;
    while (done < merges) {
        compactIfSparse();
        const std::size_t batch = nextBatch(merges - done, kCheckEvery);
        launchStepBatch(batch, false);
        m_live -= static_cast<int>(batch);
        done += batch;
        progress.waitFor(s);
        progress.advance(batch);
    }
    return downloadMerges(merges);
}

std::vector<MergeRecord> MhcaEngine::runPersistent(std::size_t merges, MergeProgress& progress) {
    const cudaStream_t s = m_stream.get();
    // With the profile: host wall time of the loop's parts (synchronised, so each part is whole).
    using Clock = std::chrono::steady_clock;
    double firstBatch = 0.0, laterBatches = 0.0, compactions = 0.0, switches = 0.0, prologueTime = 0.0;
    int launches = 0;
    Clock::time_point since = Clock::now();
    auto lap = [&](double& sum) {
        if (!m_profile) return;
        CL_CUDA_TRY(cudaStreamSynchronize(s));
        const Clock::time_point now = Clock::now();
        sum += std::chrono::duration<double>(now - since).count();
        since = now;
    };
    // One group: every row is rescanned once up front for its runners-up (a full nearest-neighbour
    // pass; with many apriori groups each row would scan every group's clusters, so they start unknown).
    bool prologue = m_groupCount == 1;
    const bool tiled = prologue && m_singletons && m_policy.tiledStart;
    const bool byPairs = tiled && m_policy.cmdStart != MhcaSingletonStart::TwoPasses &&
                         dimensionInstance(m_d) > 0;  // maxDistX from the same pass
    finishStart(tiled, byPairs);
    launchForgetRunners(m_cfg, m_rows.view(), s);  // the rows' neighbours came from the per-stage kernels
    lap(compactions);
    if (byPairs) {
        // Every cluster is one point and no key has shifted: maxDistX and the rows' state from one
        // pass over the pairs (CMD 44K×14 on an H200: ~6 ms against 10 + 18 ms for the two passes).
        launchSingletonPairs(m_cfg, m_clusters.view(), m_rows.view(), m_log.view(),
                             m_visited.view(m_listLen, m_listIdentity),
                             m_policy.cmdStart == MhcaSingletonStart::PairsPassRedoAll, s);
        if (m_profile) {  // the pass's time and the rows it left to the tiled kernel (ties)
            lap(prologueTime);
            std::vector<int> counts(static_cast<std::size_t>(m_n));
            m_rows.runCount.copyToHost(counts.data(), counts.size());
            appendReport(*m_probe, "[mhca profile] pass over the pairs %.3f s; rows left to the tiled kernel %zu\n",
                         prologueTime, static_cast<std::size_t>(std::count(counts.begin(), counts.end(), -1)));
        }
        launchSingletonRowsFlagged(m_cfg, m_clusters.view(), m_rows.view(), m_log.view(),
                                   m_visited.view(m_listLen, m_listIdentity), s);
        prologue = false;
    } else if (tiled) {
        // The rows' state in one tiled pass (CMD 200K×14 on an H200: 0.16 s against ~1.45 s for the
        // kernel's rescans).
        launchSingletonRows(m_cfg, m_clusters.view(), m_rows.view(), m_log.view(),
                            m_visited.view(m_listLen, m_listIdentity), false, s);
        prologue = false;
    }
    m_singletons = false;
    std::size_t done = 0;
    lap(prologueTime);
    // With a probe: the batches' wall time by list length (each batch ends in a sync).
    const bool stats = m_probe != nullptr;
    struct Span {
        int listLen, blocks;
        std::size_t merges;
        double seconds;
    };
    std::vector<Span> spans;
    while (done < merges) {
        compactIfSparse(m_groupCount == 1);
        lap(compactions);
        const std::size_t batch = nextBatch(merges - done, kPersistentCheckEvery);
        bool switched = false;
        const Clock::time_point batchStart = Clock::now();
        const std::size_t completed = persistentBatch(static_cast<int>(batch), switched, prologue, progress);
        ++launches;
        if (stats) {
            const double seconds = std::chrono::duration<double>(Clock::now() - batchStart).count();
            if (spans.empty() || spans.back().listLen != m_listLen)
                spans.push_back(Span{m_listLen, persistentBlocks(m_persistent, m_listLen), 0, 0.0});
            spans.back().merges += completed;
            spans.back().seconds += seconds;
        }
        lap(done == 0 ? firstBatch : laterBatches);
        prologue = false;
        done += completed;
        m_live -= static_cast<int>(completed);
        if (switched) {
            if (m_probe) ++m_probe->switchSteps;
            finishSwitchStep();
            lap(switches);
            prologue = m_groupCount == 1;
            ++done;
            --m_live;
        }
        progress.check();
        progress.advance(completed + (switched ? 1 : 0));
        if (completed == 0 && !switched) break;  // no finite pair was left: downloadMerges reports it
    }
    CL_CUDA_TRY(cudaStreamSynchronize(s));
    if (stats) {
        m_probe->persistentLaunches += static_cast<std::size_t>(launches);
        appendReport(*m_probe, "[mhca stats] %zu merges in %d launches\n", done, launches);
        for (const Span& span : spans)
            appendReport(*m_probe, "[mhca stats] list %d, %d blocks: %zu merges in %.4f s (%.1f us each)\n",
                         span.listLen, span.blocks, span.merges, span.seconds,
                         span.merges > 0 ? 1e6 * span.seconds / static_cast<double>(span.merges) : 0.0);
    }
    if (m_profile) {
        appendReport(*m_probe,
                     "[mhca profile] persistent loop wall (s): first batch (with the rescans' prologue, if taken) "
                     "%.3f; later batches %.3f (%d launches in all); compactions and forget %.3f; prologue %.3f; "
                     "switch steps %.3f\n",
                     firstBatch, laterBatches, launches, compactions, prologueTime, switches);
        reportPersistentProfile();
    }
    return downloadMerges(merges);
}

std::size_t MhcaEngine::persistentBatch(int merges, bool& switched, bool prologue, MergeProgress& progress) {
    const cudaStream_t s = m_stream.get();
    CL_CUDA_TRY(cudaMemsetAsync(m_persist.status.data(), 0, m_persist.status.bytes(), s));
    // The kernel keeps the rescan list empty between its merges; a switch step finished by the
    // per-stage kernels leaves its rows there.
    CL_CUDA_TRY(cudaMemsetAsync(m_scratch.rescanCount.data(), 0, sizeof(int), s));
    if (prologue) launchListLiveRows(m_clusters.view(), m_scratch.view(), m_visited.view(m_listLen, m_listIdentity), s);
    PersistentArgs args{};
    args.prologue = prologue ? 1 : 0;
    args.merges = merges;
    args.stageRows = m_persistent.stageRows;
    args.areaDoubles = m_persistent.areaDoubles;
    // The shape phase streams one packed metric per live cluster each merge: once they no longer fit
    // in L2 they would only evict what the other phases reuse.
    const std::size_t streamed =
        static_cast<std::size_t>(m_listLen) * static_cast<std::size_t>(m_packed) * sizeof(double);
    const bool evictFirst = m_policy.streamedLoads == MhcaStreamedLoads::ByCacheSize
                                ? streamed > m_l2Bytes
                                : m_policy.streamedLoads == MhcaStreamedLoads::EvictFirst;
    args.streamEvictFirst = evictFirst ? 1 : 0;
    args.speculate = m_policy.speculate ? 1 : 0;
    // The kernel checks what it needs besides (speculation, lazy rows, list).
    args.elideS3 = m_policy.elideBarrierS3 ? 1 : 0;
    args.oneGroup = m_groupCount == 1 ? 1 : 0;
    m_persist.fillArgs(args, m_profile != nullptr);
    int blocks = persistentBlocks(m_persistent, m_listLen);
    // The growth kernel (mhca_growth_kernel.cuh) runs beside the kernel on a multiprocessor of its own,
    // where the kernel runs without barrier S3 (its conditions as the kernel checks them) with at least
    // two workers.
    const int besideBlocks = std::min(blocks, m_persistent.maxBlocks - 1);
    const bool growth = m_policy.growthKernel && m_persistent.growthBytes > 0 && m_policy.speculate &&
                        m_policy.elideBarrierS3 && m_listIdentity && m_groupCount == 1 && besideBlocks >= 3 &&
                        m_n <= kNearestSlots;
    if (growth) {
        blocks = besideBlocks;
        args.growth = m_persist.growth(growthStride());
        CL_CUDA_TRY(cudaMemsetAsync(m_persist.growthPlans.data(), 0xff, m_persist.growthPlans.bytes(), s));  // merge -1
        CL_CUDA_TRY(cudaMemsetAsync(m_persist.growthIntents.data(), 0xff, m_persist.growthIntents.bytes(), s));
        CL_CUDA_TRY(cudaMemsetAsync(m_persist.growthRecords.data(), 0xff, m_persist.growthRecords.bytes(), s));
        CL_CUDA_TRY(cudaMemsetAsync(m_persist.growthStop.data(), 0, m_persist.growthStop.bytes(), s));
        m_growthSide.fork(s);
        const int workers = blocks - 1;  // the last block speculates
        launchCmdGrowth(view(), args.growth, workers, m_persistent, m_growthSide.side());
    }
    launchCmdPersistent(view(), args, blocks, m_persistent.sharedBytes, s);
    if (growth) m_growthSide.join(s);
    progress.waitFor(s);  // (a copy into pageable memory would block until the launch ends)
    int status[3] = {0, 0, 0};
    CL_CUDA_TRY(cudaMemcpyAsync(status, m_persist.status.data(), sizeof(status), cudaMemcpyDeviceToHost, s));
    CL_CUDA_TRY(cudaStreamSynchronize(s));
    switched = status[1] != 0;
    if (m_probe) m_probe->mergesUpdatedAgain += static_cast<std::size_t>(std::max(0, status[2]));
    return static_cast<std::size_t>(std::max(0, status[0]));
}

void MhcaEngine::finishSwitchStep() {
    // The kernel wrote the step's plan and shape; the all-pairs part of the switch is the per-stage one.
    const cudaStream_t s = m_stream.get();
    const MhcaView v = view();
    launchCentroidNewDistances(v.cfg, v.clusters, v.mergeLog, v.scratch, v.visited, m_rowBytes, s);
    launchNewRowUpdate(v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, s);
    launchCentroidRescan(v.cfg, v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, 2 * m_sms, m_targetItems,
                         m_rowBytes, 0, s);
    launchForgetRunners(v.cfg, v.nearest, s);
}

void MhcaEngine::reportPersistentProfile() {
    using namespace persistent_profile;
    unsigned long long sums[kPersistentProfileSlots] = {};
    m_persist.persistentProfile.copyToHost(sums, kPersistentProfileSlots);
    int shifts = 0;
    m_log.shiftCount.copyToHost(&shifts, 1);
    m_probe->keyShifts += static_cast<std::size_t>(std::max(0, shifts));
    m_probe->speculatedShapesTaken += sums[kSpeculatedTaken];
    m_probe->growthShapesTaken += sums[kGrowthTaken];
    // Slot k's count (at least 1), and its nanoseconds in microseconds per `count`.
    auto atLeastOne = [&](int k) { return static_cast<double>(std::max<unsigned long long>(1, sums[k])); };
    auto us = [&](int k, double count) { return 1e-3 * static_cast<double>(sums[k]) / count; };
    const double merges = atLeastOne(kMerges);
    static const char* const names[kPhaseSlots - 1] = {
        "closest pair + plan", "merge shape", "new distances", "barrier S3",
        "row update",          "barrier S4",  "rescans",       "rescan barriers"};
    appendReport(*m_probe,
                 "[mhca profile] persistent kernel, %llu merges, device time per merge (block 0):", sums[kMerges]);
    double total = 0.0;
    for (int k = 0; k + 1 < kPhaseSlots; ++k) total += static_cast<double>(sums[k]);
    for (int k = 0; k + 1 < kPhaseSlots; ++k)
        appendReport(*m_probe, " %s %.1f us (%.0f%%);", names[k], 1e-3 * static_cast<double>(sums[k]) / merges,
                     total > 0 ? 100.0 * static_cast<double>(sums[k]) / total : 0.0);
    appendReport(*m_probe,
                 " sum %.1f us; rescanned rows per merge %.2f; bare grid barrier %.2f us; key shifts %d; shape: "
                 "member sums %.1f us, factorisations %.1f us, rest %.1f us\n",
                 1e-3 * total / merges, static_cast<double>(sums[kRescannedRows]) / merges,
                 1e-3 * static_cast<double>(sums[kBareBarrier]) /
                     static_cast<double>(std::max<unsigned long long>(1, sums[kBareBarriers])),
                 shifts, 1e-3 * static_cast<double>(sums[kShapeMemberSums]) / merges,
                 1e-3 * static_cast<double>(sums[kShapeFactorisations]) / merges,
                 1e-3 * static_cast<double>(sums[kShapeRest]) / merges);
    const double passes = static_cast<double>(std::max<unsigned long long>(1, sums[kRescanPasses]));
    appendReport(*m_probe,
                 "[mhca profile] rescan passes per merge %.2f; per pass: row loops (block 0) %.1f us; final "
                 "selection + store %.1f us (%llu rows)\n",
                 static_cast<double>(sums[kRescanPasses]) / merges,
                 1e-3 * static_cast<double>(sums[kRescanRowLoops]) / passes,
                 1e-3 * static_cast<double>(sums[kRescanSelection]) /
                     static_cast<double>(std::max<unsigned long long>(1, sums[kRescanSelectedRows])),
                 sums[kRescanSelectedRows]);
    appendReport(
        *m_probe,
        "[mhca profile] row update of block 0 per merge: grid minimum %.1f us, commit %.1f us, thread 0's rows "
        "%.1f us, the block's other rows %.1f us; arrival spread at S4 %.1f us, block 0 last in %.0f%% of "
        "merges\n",
        us(kRowGridMinimum, merges), us(kRowCommit, merges), us(kRowThreadZero, merges), us(kRowOtherRows, merges),
        us(kArrivalSpreadS4, merges), 100.0 * static_cast<double>(sums[kBlockZeroLastAtS4]) / merges);
    appendReport(*m_probe,
                 "[mhca profile] per merge: %.2f blocks with rows whose partner was a or b, %.1f lazy rows; the last "
                 "block to arrive had such rows in %.0f%% of merges, lazy rows in %.0f%%\n",
                 static_cast<double>(sums[kBlocksWithPartnerRows]) / merges,
                 static_cast<double>(sums[kLazyRows]) / merges,
                 100.0 * static_cast<double>(sums[kLastBlockHadPartnerRows]) / merges,
                 100.0 * static_cast<double>(sums[kLastBlockHadLazyRows]) / merges);
    appendReport(*m_probe,
                 "[mhca profile] speculated shapes: %llu written, block 0 took %llu (%.0f%% of merges, %llu from the "
                 "growth kernel); the speculating block last at S4 in %.0f%% of merges, arriving %.1f us after the "
                 "first\n",
                 sums[kSpeculatedWritten], sums[kSpeculatedTaken],
                 100.0 * static_cast<double>(sums[kSpeculatedTaken]) / merges, sums[kGrowthTaken],
                 100.0 * static_cast<double>(sums[kSpeculatorLastAtS4]) / merges,
                 us(kSpeculatorArrivalAfterFirst, merges));
    appendReport(*m_probe,
                 "[mhca profile] the count past the shape phase: block 0 waited in %.0f%% of merges, %.1f us each; "
                 "block 1 in %.0f%%, %.1f us each; block 0's commit %.1f us per merge\n",
                 100.0 * static_cast<double>(sums[kBlockZeroCountWaits]) / merges,
                 us(kBlockZeroCountWait, atLeastOne(kBlockZeroCountWaits)),
                 100.0 * static_cast<double>(sums[kBlockOneCountWaits]) / merges,
                 us(kBlockOneCountWait, atLeastOne(kBlockOneCountWaits)), us(kBlockZeroCommit, merges));
    const double hits = atLeastOne(kSpeculatedTaken);
    appendReport(*m_probe,
                 "[mhca profile] shape phase of block 0: %.1f us when speculated (record loaded after %.1f us); "
                 "streaming done after %.1f us; merged mean %.1f us; selections in %.0f%% of merges, done after %.1f "
                 "us; block 1's shape phase when speculated %.1f us\n",
                 us(kShapeWhenSpeculated, hits), us(kRecordLoaded, hits), us(kStreamingDone, hits),
                 us(kMergedMean, merges), 100.0 * static_cast<double>(sums[kSelections]) / merges,
                 us(kSelectionDone, atLeastOne(kSelections)),
                 us(kBlockOneShapeSpeculated, atLeastOne(kBlockOneSpeculatedMerges)));
    const double specMerges = atLeastOne(kSpeculatorPhases + kPhaseSlots - 1);
    appendReport(*m_probe, "[mhca profile] the speculating block per merge:");
    for (int k = 0; k + 1 < kPhaseSlots; ++k)
        appendReport(*m_probe, " %s %.1f us;", names[k], us(kSpeculatorPhases + k, specMerges));
    appendReport(*m_probe, " its S4 arrival to its record %.1f us; block 0's wait for the records %.1f us\n",
                 us(kSpeculatorRecordRelease, specMerges), us(kBlockZeroRecordWait, merges));
    // Every block's phases per merge it took part in (later launches run fewer blocks).
    const std::size_t blocks = m_persist.blockProfile.size() / kPhaseSlots;
    std::vector<unsigned long long> perBlock(m_persist.blockProfile.size());
    m_persist.blockProfile.copyToHost(perBlock.data(), perBlock.size());
    appendReport(*m_probe, "[mhca profile] phases over blocks per merge (min / mean / max):");
    for (int k = 0; k + 1 < kPhaseSlots; ++k) {
        double lo = 1e300, hi = 0.0, sum = 0.0;
        std::size_t counted = 0;
        for (std::size_t b = 0; b < blocks; ++b) {
            const double ran = static_cast<double>(perBlock[b * kPhaseSlots + kPhaseSlots - 1]);
            if (ran < 1.0) continue;
            const double t = 1e-3 * static_cast<double>(perBlock[b * kPhaseSlots + static_cast<std::size_t>(k)]) / ran;
            lo = std::min(lo, t);
            hi = std::max(hi, t);
            sum += t;
            ++counted;
        }
        appendReport(*m_probe, " %s %.1f / %.1f / %.1f us;", names[k], lo,
                     sum / static_cast<double>(std::max<std::size_t>(1, counted)), hi);
    }
    appendReport(*m_probe, "\n");
    CL_CUDA_TRY(
        cudaMemsetAsync(m_persist.persistentProfile.data(), 0, m_persist.persistentProfile.bytes(), m_stream.get()));
    CL_CUDA_TRY(cudaMemsetAsync(m_persist.blockProfile.data(), 0, m_persist.blockProfile.bytes(), m_stream.get()));
}

void MhcaEngine::mergeStepCentroid() {
    const cudaStream_t s = m_stream.get();
    const MhcaView v = view();
    StageProfile* p = m_profile.get();
    const bool sample = p && p->sampleThisMerge();
    if (sample) p->mark(0, s);
    launchClosestPair(v.cfg, v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, closestPairBlocks(), s);
    if (sample) p->mark(1, s);
    launchMergeShape(v.cfg, v.clusters, v.mergeLog, v.scratch, m_stageRows, m_scratch.shapeWork.data(), m_shapeBytes,
                     s);
    if (sample) p->mark(2, s);
    launchCentroidNewDistances(v.cfg, v.clusters, v.mergeLog, v.scratch, v.visited, m_rowBytes, s);
    if (sample) p->mark(3, s);
    launchNewRowUpdate(v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, s);
    if (sample) p->mark(4, s);
    launchCentroidRescan(v.cfg, v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, 2 * m_sms, m_targetItems,
                         m_rowBytes, 0, s);
    if (sample) p->finish(5, s);
}

MhcaEngine::StageProfile::StageProfile(bool full, MhcaProbe& probe) : m_full(full), m_probe(probe) {
    for (cudaEvent_t& e : m_events) CL_CUDA_TRY(cudaEventCreate(&e));
}

MhcaEngine::StageProfile::~StageProfile() {
    for (cudaEvent_t e : m_events) cudaEventDestroy(e);
    if (m_samples == 0) return;  // the persistent kernel ran CMD (it prints its own profile)
    static const char* const cmd[] = {"closest pair", "merge shape", "new distances", "row update", "rescan"};
    static const char* const fmd[] = {"closest pair + rotation", "merge shape beside place + member sums",
                                      "merged row's point sums + new distances", "row update", "rescans"};
    const char* const* names = m_full ? fmd : cmd;
    appendReport(m_probe, "[mhca profile] %s, %d sampled merges (every %d-th), device time per merge:",
                 m_full ? "FMD" : "CMD per-stage kernels", m_samples, kEvery);
    double total = 0.0;
    for (double t : m_ms) total += t;
    for (int k = 0; k < 5; ++k)
        appendReport(m_probe, " %s %.1f us (%.0f%%);", names[k], 1e3 * m_ms[k] / std::max(1, m_samples),
                     total > 0 ? 100.0 * m_ms[k] / total : 0.0);
    appendReport(m_probe, " sum %.1f us\n", 1e3 * total / std::max(1, m_samples));
}

bool MhcaEngine::StageProfile::sampleThisMerge() {
    return m_merge++ % kEvery == 0;
}

void MhcaEngine::StageProfile::mark(int k, cudaStream_t s) {
    CL_CUDA_TRY(cudaEventRecord(m_events[k], s));
}

void MhcaEngine::StageProfile::finish(int k, cudaStream_t s) {
    mark(k, s);
    CL_CUDA_TRY(cudaEventSynchronize(m_events[k]));
    for (int i = 0; i < k; ++i) {
        float ms = 0.0f;
        CL_CUDA_TRY(cudaEventElapsedTime(&ms, m_events[i], m_events[i + 1]));
        m_ms[i] += ms;
    }
    ++m_samples;
}

std::vector<MergeRecord> MhcaEngine::runFull(std::size_t merges, MergeProgress& progress) {
    const cudaStream_t s = m_stream.get();
    const bool tiled = m_groupCount == 1 && m_singletons && m_policy.tiledStart && dimensionInstance(m_d) > 0;
    if (merges > 0) prepareStepGraph(nextBatch(merges, kFmdSyncEvery), true);  // before the start's passes
    finishStart(tiled);
    launchForgetRunners(m_cfg, m_rows.view(), s);  // the rows' neighbours came from the start's nearest-point pass
    if (tiled) {
        // as runPersistent: single points, one tiled pass
        launchSingletonRows(m_cfg, m_clusters.view(), m_rows.view(), m_log.view(),
                            m_visited.view(m_listLen, m_listIdentity), true, s);
    } else if (m_groupCount == 1) {  // every row rescanned once for its runners-up (as runPersistent)
        CL_CUDA_TRY(cudaMemsetAsync(m_scratch.rescanCount.data(), 0, sizeof(int), s));
        launchListLiveRows(m_clusters.view(), m_scratch.view(), m_visited.view(m_listLen, m_listIdentity), s);
        progress.waitFor(s);  // (the start's passes: the copy below would wait for them uncancellably)
        int rows = 0;
        m_scratch.rescanCount.copyToHost(&rows, 1);
        fmdRescans(0, rows, 0);
        CL_CUDA_TRY(cudaMemsetAsync(m_scratch.rescanCount.data(), 0, sizeof(int), s));
    }
    m_singletons = false;
    std::size_t done = 0;
    while (done < merges) {
        compactIfSparse();  // m_live is exact between batches
        const std::size_t batch = nextBatch(merges - done, kFmdSyncEvery);
        launchStepBatch(batch, true);
        progress.waitFor(s);  // (a copy into pageable memory would block until the batch ends)
        int count = 0, halted = 0;
        CL_CUDA_TRY(cudaMemcpyAsync(&count, m_log.mergeCount.data(), sizeof(int), cudaMemcpyDeviceToHost, s));
        CL_CUDA_TRY(cudaMemcpyAsync(&halted, m_log.halt.data(), sizeof(int), cudaMemcpyDeviceToHost, s));
        CL_CUDA_TRY(cudaStreamSynchronize(s));
        if (halted) finishHaltedStep();
        const std::size_t completed = static_cast<std::size_t>(std::max(0, count)) - done;
        done += completed;
        m_live -= static_cast<int>(completed);
        progress.check();
        progress.advance(completed);
        if (completed == 0 && !halted) break;  // no finite pair was left: downloadMerges reports it
    }
    CL_CUDA_TRY(cudaStreamSynchronize(s));
    return downloadMerges(merges);
}

void MhcaEngine::launchStepBatch(std::size_t batch, bool full) {
    if (m_profile) {  // the profile's events sync on sampled steps: launched one by one
        for (std::size_t k = 0; k < batch; ++k) full ? mergeStepFull() : mergeStepCentroid();
        return;
    }
    prepareStepGraph(batch, full);
    CL_CUDA_TRY(cudaGraphLaunch(m_stepGraph.get(), m_stream.get()));
}

void MhcaEngine::prepareStepGraph(std::size_t batch, bool full) {
    if (m_profile) return;
    auto steps = [&] {
        for (std::size_t k = 0; k < batch; ++k) full ? mergeStepFull() : mergeStepCentroid();
    };
    const cudaStream_t s = m_stream.get();
    if (!m_stepGraph.get() || m_stepGraphBatch != batch || m_stepGraphFull != full ||
        m_stepGraphList != m_visited.list.data() || m_stepGraphListLen != m_listLen) {
        m_stepGraph.reset();
        // Node priorities: the FMD shape's one block is dispatched before the member sums' blocks.
        m_stepGraph.reset(captureGraph(
            s, [&](cudaStream_t) { steps(); }, cudaGraphInstantiateFlagUseNodePriority));
        m_stepGraphBatch = batch;
        m_stepGraphFull = full;
        m_stepGraphList = m_visited.list.data();
        m_stepGraphListLen = m_listLen;
    }
}

void MhcaEngine::mergeStepFull() {
    const cudaStream_t s = m_stream.get(), side = m_fork.side();
    const MhcaView v = view();
    StageProfile* p = m_profile.get();
    const bool sample = p && p->sampleThisMerge();
    if (sample) p->mark(0, s);
    launchClosestPair(v.cfg, v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, closestPairBlocks(), s);
    launchFmdRotate(v.clusters, v.mergeLog, m_clusters.temp.data(), 2 * m_sms, s);
    if (sample) p->mark(1, s);
    // The merged cluster's shape (one block) reads b's members from the rotation, beside the place
    // kernel and the sums of the merged cluster's members against every cluster, which need no shape.
    FmdBatch row = fmdBatch(reinterpret_cast<const int*>(m_log.step.data()), 1);  // Step::a is the first member
    row.gated = 1;
    m_fork.fork(s);
    launchMergeShape(v.cfg, v.clusters, v.mergeLog, v.scratch, m_stageRows, m_scratch.shapeWork.data(), m_shapeBytes,
                     side);
    launchFmdPlace(v.clusters, v.mergeLog, v.visited, m_clusters.temp.data(), 2 * m_sms, s);
    if (m_policy.speculate) {  // the next merge's likely shape, while this step's sums and updates run
        m_spec.fork(s);
        launchSpeculativeShape(v.cfg, v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited,
                               m_scratch.specParts.data(), closestPairBlocks(), m_stageRows, m_shapeBytes,
                               m_spec.side());
    }
    launchFmdMemberPass(v.cfg, v.clusters, v.mergeLog, v.visited, row, s);
    m_fork.join(s);
    if (sample) p->mark(2, s);
    launchFmdPointPass(v.cfg, v.clusters, v.mergeLog, row, m_rowBytes, s);
    launchFmdNewDistances(v.cfg, v.clusters, v.mergeLog, v.scratch, v.visited, row, s);
    if (sample) p->mark(3, s);
    launchNewRowUpdate(v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, s, true);
    if (sample) p->mark(4, s);
    FmdBatch rescans = fmdBatch(m_scratch.rescanRows.data(), m_fmdRowsCap, m_scratch.rescanCount.data());
    rescans.gated = 1;
    rescans.haltOnRest = 1;
    rescans.laterOnly = 1;
    m_fork.fork(s);
    launchFmdMemberPass(v.cfg, v.clusters, v.mergeLog, v.visited, rescans, side);
    launchFmdPointPass(v.cfg, v.clusters, v.mergeLog, rescans, m_rowBytes, s);
    m_fork.join(s);
    // mode 0: keys
    launchFmdFinalize(v.cfg, v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, rescans, 2 * m_sms, m_targetItems,
                      0, s);
    if (m_policy.speculate) m_spec.join(s);  // before the next step commits a merge and rewrites perm
    if (sample) p->finish(5, s);
}

void MhcaEngine::finishHaltedStep() {
    const cudaStream_t s = m_stream.get();
    Step step{};
    int rows = 0;
    CL_CUDA_TRY(cudaMemcpyAsync(&step, m_log.haltStep.data(), sizeof(Step), cudaMemcpyDeviceToHost, s));
    // The empty steps queued after it cleared m_log.step; the passes below read the halted one.
    CL_CUDA_TRY(cudaMemcpyAsync(m_log.step.data(), m_log.haltStep.data(), sizeof(Step), cudaMemcpyDeviceToDevice, s));
    m_scratch.rescanCount.copyToHost(&rows, 1);
    if (step.switchNow) {
        // mhclust.c recomputes every pair: the smallest key decides a shift before the new keys.
        CL_CUDA_TRY(cudaMemsetAsync(m_scratch.extreme.data(), 0, sizeof(double), s));
        fmdRescans(0, rows, 1);
        launchApplyShift(m_log.view(), m_scratch.view(), s);
        fmdRescans(0, rows, 0);
    } else {
        fmdRescans(m_fmdRowsCap, rows, 0);  // the device pass took the first m_fmdRowsCap rows
    }
    CL_CUDA_TRY(cudaMemsetAsync(m_log.halt.data(), 0, sizeof(int), s));
}

FmdBatch MhcaEngine::fmdBatch(const int* rows, int rowCount, const int* rowLimit) {
    FmdBatch batch{};
    batch.rows = rows;
    batch.rowCount = rowCount;
    batch.rowLimit = rowLimit;
    const long long listLen = std::max(1, m_listLen);
    const long long wanted = static_cast<long long>(m_sms) * 2048 / (listLen * std::max(1, fmdGridRows(batch)));
    // h2 holds rowCount x chunks x listLen sums.
    const long long fits = static_cast<long long>(m_scratch.h2.size()) / (listLen * rowCount);
    batch.chunks = static_cast<int>(std::clamp<long long>(std::min(wanted, fits), 1, 1024));
    batch.tiles = m_tiles;
    batch.stage = static_cast<int>(std::clamp<std::size_t>(6144 / static_cast<std::size_t>(m_d), 1, 64));
    batch.h1 = m_scratch.h1.data();
    batch.tileParts = m_scratch.tileParts.data();
    batch.h2 = m_scratch.h2.data();
    return batch;
}

void MhcaEngine::fmdRowsPass(const int* rows, int rowCount, int mode) {
    const cudaStream_t s = m_stream.get();
    const MhcaView v = view();
    FmdBatch batch = fmdBatch(rows, rowCount);
    batch.laterOnly = 1;  // every mode of the finalize kernel reads the rows' later partners only
    launchFmdSums(v.cfg, v.clusters, v.mergeLog, v.visited, batch, m_rowBytes, s);
    launchFmdFinalize(v.cfg, v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, batch, 2 * m_sms, m_targetItems,
                      mode, s);
}

void MhcaEngine::fmdRescans(int first, int end, int mode) {
    for (int from = first; from < end; from += m_fmdRowsCap)
        fmdRowsPass(m_scratch.rescanRows.data() + from, std::min(m_fmdRowsCap, end - from), mode);
}

}  // namespace clusterlens::cuda::mhca
