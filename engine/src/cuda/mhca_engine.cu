// MHCA engine: allocation of the device state (one buffer per array), the two ways a run starts
// (single points, possibly in apriori groups; or the apriori top level's clusters) and the initial
// nearest-neighbour array. The merge loop is in mhca_engine_run.cu.

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>

#include "clusterlens/errors.hpp"
#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_row_journal.cuh"
#include "cuda/mhca_engine.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/mhca_phase_times.hpp"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda::mhca {
namespace {

constexpr std::size_t kMemberListBudget = std::size_t{16} << 20;  // member-list entries (64 MiB)

std::string gib(std::size_t bytes) {
    std::ostringstream out;
    out.precision(2);
    out << std::fixed << static_cast<double>(bytes) / static_cast<double>(std::size_t{1} << 30) << " GiB";
    return out.str();
}

int subthresholdCode(SubthresholdMode mode) {
    switch (mode) {
        case SubthresholdMode::Mahal:
            return 0;
        case SubthresholdMode::Mahal0:
            return 1;
        case SubthresholdMode::Euclid:
            return 2;
        case SubthresholdMode::EuclidMahal:
            return 3;
    }
    return 0;
}

}  // namespace

OwnedStream::OwnedStream(bool highest) {
    int least = 0, greatest = 0;
    if (highest) CL_CUDA_TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CL_CUDA_TRY(cudaStreamCreateWithPriority(&m_stream, cudaStreamNonBlocking, highest ? greatest : least));
}

OwnedStream::~OwnedStream() {
    if (m_stream) {
        cudaStreamSynchronize(m_stream);  // errors at teardown cannot be reported
        cudaStreamDestroy(m_stream);
    }
}

StreamFork::StreamFork(bool highest) : m_side(highest) {
    CL_CUDA_TRY(cudaEventCreateWithFlags(&m_forked, cudaEventDisableTiming));
    CL_CUDA_TRY(cudaEventCreateWithFlags(&m_joined, cudaEventDisableTiming));
}

StreamFork::~StreamFork() {
    cudaEventDestroy(m_forked);  // errors at teardown cannot be reported
    cudaEventDestroy(m_joined);
}

void StreamFork::fork(cudaStream_t main) {
    CL_CUDA_TRY(cudaEventRecord(m_forked, main));
    CL_CUDA_TRY(cudaStreamWaitEvent(m_side.get(), m_forked, 0));
}

void StreamFork::join(cudaStream_t main) {
    CL_CUDA_TRY(cudaEventRecord(m_joined, m_side.get()));
    CL_CUDA_TRY(cudaStreamWaitEvent(main, m_joined, 0));
}

MhcaEngine::MhcaEngine(const double* x, std::size_t n, std::size_t d, const MhcaOptions& options)
    : m_hostX(x),
      m_n(static_cast<int>(n)),
      m_d(static_cast<int>(d)),
      m_packed(static_cast<int>(d * (d + 1) / 2)),
      m_options(options),
      m_probe(options.probe) {
    if (timed()) m_profile = std::make_unique<StageProfile>(options.variant == MhcaVariant::Full, *m_probe);
    PhaseTimes times("engine construction", m_probe);  // with the profile: a run's fixed cost
    int device = 0;
    CL_CUDA_TRY(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    CL_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
    m_sms = std::max(1, prop.multiProcessorCount);
    m_l2Bytes = static_cast<std::size_t>(std::max(0, prop.l2CacheSize));
    m_policy = options.cudaPolicy
                   ? *options.cudaPolicy
                   : chooseMhcaCudaPolicy(MhcaDeviceTraits{prop.cooperativeLaunch != 0}, n, d, options.variant);
    times.mark("properties");
    m_targetItems = 4 * m_sms;

    const bool full = options.variant == MhcaVariant::Full;
    const std::size_t lowCap = std::max<std::size_t>(16, 2 * d + 2);
    const std::size_t cap =
        full ? std::max<std::size_t>(lowCap, 256) : std::max(lowCap, std::min<std::size_t>(256, kMemberListBudget / n));
    m_cfg.n = m_n;
    m_cfg.d = m_d;
    m_cfg.packed = m_packed;
    m_cfg.memberCap = static_cast<int>(cap);
    m_cfg.nFull = m_n;
    m_cfg.threshold = options.threshold;
    m_cfg.subthreshold = subthresholdCode(options.subthreshold);
    m_cfg.normalize = options.normalize ? 1 : 0;
    m_cfg.full = full ? 1 : 0;
    m_cfg.postSwitchMode = options.normalize ? kModeScaled : kModeRaw;
    m_cfg.firstNewId = m_n;

    // Shared memory: rows staged when they fit the default 48 KiB; the shape kernel opts in to more.
    m_rowBytes = static_cast<std::size_t>(m_d + 2 * m_packed) * sizeof(double);
    m_cfg.stage = m_rowBytes + 4096 <= 48 * 1024 ? 1 : 0;
    if (!m_cfg.stage) m_rowBytes = 0;
    const std::size_t optIn = static_cast<std::size_t>(prop.sharedMemPerBlockOptin);
    const std::size_t base = shapeSharedBytes(m_d, 0) + 1024;
    const std::size_t perRow = static_cast<std::size_t>(m_d) * sizeof(double);
    if (base + cap * perRow <= 48 * 1024) {
        m_stageRows = static_cast<int>(cap);
    } else if (base <= optIn) {
        m_stageRows = static_cast<int>(std::min(cap, (optIn - base) / perRow));
    } else {
        m_stageRows = -1;  // global scratch
    }
    m_shapeBytes = m_stageRows >= 0 ? shapeSharedBytes(m_d, m_stageRows) : 0;
    if (m_stageRows < 0) m_stageRows = 0;
    m_tiles = (m_n + 255) / 256;
    // FMD rows evaluated per batch: the per-row sums take 2 * rows * n doubles (at most ~0.5 GiB).
    // (a smaller number, which tests inject, makes the merge loop halt at most steps)
    m_fmdRowsCap = std::clamp(m_policy.fmdRowsPerPass, 1, 256);
    // CMD runs as one persistent kernel where the policy wants it and the device allows it.
    if (!full && m_policy.persistentCmd) m_persistent = planPersistentCmd(m_d, m_cfg.memberCap, m_sms);
    if (!full) m_groupPhase = planGroupPhase(m_d, m_cfg.memberCap, m_sms);
    times.mark("plans");
    allocate();
    times.mark("allocate");
    if (m_profile) CL_CUDA_TRY(cudaStreamSynchronize(m_stream.get()));
    times.mark("allocate-sync");
    configureKernelLimits(m_shapeBytes);
    times.mark("limits");
}

MhcaEngine::~MhcaEngine() {
    // An error between a fork and its join can leave side-stream kernels that read the buffers, which
    // are freed in the main stream's order only.
    m_fork.drain();
    m_growthSide.drain();
    m_spec.drain();
}

MhcaEngine::ArrayCounts MhcaEngine::arrayCounts() const {
    ArrayCounts c;
    c.n = static_cast<std::size_t>(m_n);
    c.d = static_cast<std::size_t>(m_d);
    c.p = static_cast<std::size_t>(m_packed);
    c.full = m_cfg.full != 0;
    c.members = c.full ? 0 : c.n * static_cast<std::size_t>(m_cfg.memberCap);
    c.partials = c.n + static_cast<std::size_t>(m_targetItems) + 1;
    c.rows = static_cast<std::size_t>(m_fmdRowsCap);
    c.h2 = c.full ? c.rows * c.n + static_cast<std::size_t>(m_sms) * 2048 : 0;
    c.shapeWork = m_shapeBytes == 0 ? shapeSharedBytes(m_d, 0) : 0;
    return c;
}

std::size_t MhcaEngine::requiredBytes() const {
    const ArrayCounts c = arrayCounts();
    const std::size_t n = c.n, d = c.d, p = c.p, members = c.members, partials = c.partials, rows = c.rows, h2 = c.h2,
                      shapeWork = c.shapeWork;
    const bool full = c.full;
    return n * d * 8 * 2 + n * (7 * 4 + 3) + members * 4 + n * (3 * p + 5) * 8 + (full ? 4 * n * 4 : 0) + 3 * n * 4 +
           m_compactBytes + n * (4 * 4 + 8) + n * 4 + partials * sizeof(RowTop) + (n + 2) * 4 +
           n * (8 + 2 * 4 + 2 * 8) +
           (full ? (rows * n + rows * static_cast<std::size_t>(m_tiles) * 2 + h2) * 8 + 2 * shapeSharedBytes(m_d, 0)
                 : 0) +
           shapeWork +
           (m_persistent.maxBlocks > 0
                ? n * sizeof(Candidate) +
                      static_cast<std::size_t>(m_sms) * (1024 + kRescanRowsPerPass * sizeof(RowTop)) +
                      2 * (sizeof(SpecShape) + (d * d + p) * 8) + (n / 2 + 1) * kSlotMoveChunk * 8 + n * 4
                : 0) +
           n * (kRunners * 20 + 12);
}

void MhcaEngine::allocate() {
    m_compactBytes = std::max<std::size_t>(compactTempBytes(m_n), 16);
    const std::size_t needed = requiredBytes();
    std::size_t freeBytes = 0, totalBytes = 0;
    CL_CUDA_TRY(cudaMemGetInfo(&freeBytes, &totalBytes));
    const std::string what = "MHCA of " + std::to_string(m_n) + " points x " + std::to_string(m_d) +
                             " features needs " + gib(needed) + " of GPU memory";
    if (needed > freeBytes)
        throw OutOfDeviceMemory(what + ", but only " + gib(freeBytes) + " of " + gib(totalBytes) +
                                    " are free; use the CPU backend, fewer points or apriori groups",
                                needed, freeBytes);
    try {
        allocateBuffers();
    } catch (const OutOfDeviceMemory&) {
        throw OutOfDeviceMemory(what + " and the device could not provide it (" + gib(freeBytes) + " were free)",
                                needed, freeBytes);
    }
    clearBuffers();
    d_x.copyFromHost(m_hostX, static_cast<std::size_t>(m_n) * static_cast<std::size_t>(m_d));
}

void MhcaEngine::allocateBuffers() {
    const cudaStream_t s = m_stream.get();
    const ArrayCounts c = arrayCounts();
    const std::size_t n = c.n, d = c.d, p = c.p, members = c.members, partials = c.partials, rows = c.rows, h2 = c.h2,
                      shapeWork = c.shapeWork;
    const bool full = c.full;
    d_x = DeviceBuffer<double>(n * d, s);
    d_size = DeviceBuffer<int>(n, s);
    d_pos = DeviceBuffer<int>(n, s);
    d_id = DeviceBuffer<int>(n, s);
    d_birth = DeviceBuffer<int>(n, s);
    d_group = DeviceBuffer<int>(n, s);
    d_nn = DeviceBuffer<int>(n, s);
    d_members = DeviceBuffer<int>(members, s);
    d_mode = DeviceBuffer<signed char>(n, s);
    d_identity = DeviceBuffer<signed char>(n, s);
    d_alive = DeviceBuffer<unsigned char>(n, s);
    d_mu = DeviceBuffer<double>(n * d, s);
    d_metric = DeviceBuffer<double>(n * p, s);
    d_scaled = DeviceBuffer<double>(n * p, s);
    d_scatter = DeviceBuffer<double>(n * p, s);
    d_nmf = DeviceBuffer<double>(n, s);
    d_weight = DeviceBuffer<double>(n, s);
    d_nnKey = DeviceBuffer<double>(n, s);
    d_nnBefore = DeviceBuffer<double>(n, s);
    d_newDist = DeviceBuffer<double>(n, s);
    d_extreme = DeviceBuffer<double>(1, s);
    d_shiftCount = DeviceBuffer<int>(1, s);
    d_shiftTime = DeviceBuffer<int>(n, s);
    d_shiftGroup = DeviceBuffer<int>(n, s);
    d_shiftAmount = DeviceBuffer<double>(n, s);
    d_shiftMaxBefore = DeviceBuffer<double>(n, s);
    if (full) {
        d_start = DeviceBuffer<int>(n, s);
        d_perm = DeviceBuffer<int>(n, s);
        d_pointSlot = DeviceBuffer<int>(n, s);
        d_temp = DeviceBuffer<int>(n, s);
        d_h1 = DeviceBuffer<double>(rows * n, s);
        d_tileParts = DeviceBuffer<double>(rows * static_cast<std::size_t>(m_tiles) * 2, s);
        d_h2 = DeviceBuffer<double>(h2, s);
        d_spec = DeviceBuffer<SpecShape>(2, s);
        d_specParts = DeviceBuffer<RowTop>(2 * static_cast<std::size_t>(m_sms), s);
        d_specArea = DeviceBuffer<double>(2 * shapeSharedBytes(m_d, 0) / sizeof(double), s);
        CL_CUDA_TRY(cudaMemsetAsync(d_spec.data(), 0xff, d_spec.bytes(), s));  // merge -1: none
    }
    d_list = DeviceBuffer<int>(n, s);
    d_listSpare = DeviceBuffer<int>(n, s);
    d_selected = DeviceBuffer<int>(1, s);
    d_compactTemp = DeviceBuffer<unsigned char>(m_compactBytes, s);
    d_step = DeviceBuffer<Step>(1, s);
    d_haltStep = DeviceBuffer<Step>(1, s);
    d_halt = DeviceBuffer<int>(1, s);
    d_groups = DeviceBuffer<GroupState>(n, s);
    d_mergeCount = DeviceBuffer<int>(1, s);
    d_outA = DeviceBuffer<int>(n, s);
    d_outB = DeviceBuffer<int>(n, s);
    d_outSize = DeviceBuffer<int>(n, s);
    d_outGroup = DeviceBuffer<int>(n, s);
    d_outHeight = DeviceBuffer<double>(n, s);
    d_rescanRows = DeviceBuffer<int>(n, s);
    d_runKey = DeviceBuffer<double>(n * kRunners, s);
    d_runSlot = DeviceBuffer<int>(n * kRunners, s);
    d_runPos = DeviceBuffer<int>(n * kRunners, s);
    d_runBirth = DeviceBuffer<int>(n * kRunners, s);
    d_runCount = DeviceBuffer<int>(n, s);
    d_runBound = DeviceBuffer<double>(n, s);
    d_rescanCount = DeviceBuffer<int>(1, s);
    d_partials = DeviceBuffer<RowTop>(partials, s);
    d_counters = DeviceBuffer<unsigned int>(n + 2, s);
    if (shapeWork) d_shapeWork = DeviceBuffer<double>(shapeWork / sizeof(double) + 1, s);
    if (m_persistent.maxBlocks > 0) {
        const std::size_t blocks = static_cast<std::size_t>(m_persistent.maxBlocks);
        d_blockPart = DeviceBuffer<RowTop>(blocks, s);
        d_aPart = DeviceBuffer<RowTop>(blocks, s);
        d_rowPart = DeviceBuffer<RowTop>(blocks * kRescanRowsPerPass, s);

        d_minPart = DeviceBuffer<double>(blocks, s);
        d_lazyPart = DeviceBuffer<double>(blocks, s);
        d_arrive = DeviceBuffer<unsigned int>(2, s);
        d_shiftSeen = DeviceBuffer<int>(2, s);
        d_rowJournal = DeviceBuffer<double>(rowJournalDoubles(static_cast<int>(n)), s);
        d_rowCounter = DeviceBuffer<unsigned int>(kRescanRowsPerPass, s);
        d_rowFinal = DeviceBuffer<Candidate>(n, s);
        d_cmdSpec = DeviceBuffer<SpecShape>(2, s);
        d_cmdSpecPayload = DeviceBuffer<double>(2 * (d * d + p), s);
        d_growthPlans = DeviceBuffer<PlanRecord>(2, s);
        d_growthNearest = DeviceBuffer<unsigned long long>(2 * static_cast<std::size_t>(growthStride()), s);
        d_growthIntents = DeviceBuffer<SpecShape>(2, s);
        d_growthRecords = DeviceBuffer<SpecShape>(2, s);
        d_growthPayload = DeviceBuffer<double>(2 * (d * d + p), s);
        d_growthStop = DeviceBuffer<int>(1, s);
        d_status = DeviceBuffer<int>(3, s);
        d_persistentProfile = DeviceBuffer<unsigned long long>(kPersistentProfileSlots + 2 * kProfileStampSlots, s);
        d_blockProfile = DeviceBuffer<unsigned long long>(m_profile ? blocks * kPhaseSlots : 0, s);
        // compaction moves at most n / 2 live slots
        d_slotScratch = DeviceBuffer<double>((n / 2 + 1) * kSlotMoveChunk, s);
        d_slotMap = DeviceBuffer<int>(n, s);
    }
}

/// Zeroes the arrays whose first values the kernels read, and marks the records "none".
void MhcaEngine::clearBuffers() {
    const cudaStream_t s = m_stream.get();
    CL_CUDA_TRY(cudaMemsetAsync(d_counters.data(), 0, d_counters.bytes(), s));
    if (m_persistent.maxBlocks > 0) {
        CL_CUDA_TRY(cudaMemsetAsync(d_rowCounter.data(), 0, d_rowCounter.bytes(), s));
        CL_CUDA_TRY(cudaMemsetAsync(d_cmdSpec.data(), 0xff, d_cmdSpec.bytes(), s));              // merge -1: none
        CL_CUDA_TRY(cudaMemsetAsync(d_growthNearest.data(), 0xff, d_growthNearest.bytes(), s));  // any value
        CL_CUDA_TRY(cudaMemsetAsync(d_arrive.data(), 0, d_arrive.bytes(), s));
        CL_CUDA_TRY(cudaMemsetAsync(d_shiftSeen.data(), 0, d_shiftSeen.bytes(), s));
        CL_CUDA_TRY(cudaMemsetAsync(d_rowJournal.data(), 0xff, d_rowJournal.bytes(), s));  // stamps -1
        CL_CUDA_TRY(cudaMemsetAsync(d_persistentProfile.data(), 0, d_persistentProfile.bytes(), s));
        if (m_profile) CL_CUDA_TRY(cudaMemsetAsync(d_blockProfile.data(), 0, d_blockProfile.bytes(), s));
    }
    CL_CUDA_TRY(cudaMemsetAsync(d_scatter.data(), 0, d_scatter.bytes(), s));
    // resolveRow loads a row's whole runner-up list at once, entries past its count included, and the
    // rescan pass stages every row's metric and scaled parts, also for rows whose metric is the
    // identity and never written; both ignore those values. Zeroed once here, those loads read defined
    // memory (compute-sanitizer initcheck).
    for (DeviceBuffer<int>* b : {&d_runSlot, &d_runPos, &d_runBirth})
        CL_CUDA_TRY(cudaMemsetAsync(b->data(), 0, b->bytes(), s));
    for (DeviceBuffer<double>* b : {&d_runKey, &d_metric, &d_scaled})
        CL_CUDA_TRY(cudaMemsetAsync(b->data(), 0, b->bytes(), s));
    CL_CUDA_TRY(cudaMemsetAsync(d_rescanCount.data(), 0, sizeof(int), s));
    CL_CUDA_TRY(cudaMemsetAsync(d_halt.data(), 0, sizeof(int), s));
    CL_CUDA_TRY(cudaMemsetAsync(d_mergeCount.data(), 0, sizeof(int), s));
    CL_CUDA_TRY(cudaMemsetAsync(d_shiftCount.data(), 0, sizeof(int), s));
}

MhcaView MhcaEngine::view() {
    MhcaView v{};
    v.cfg = m_cfg;
    MhcaEngine& self = *this;
    v.s.size = self.d_size.data();
    v.s.pos = self.d_pos.data();
    v.s.id = self.d_id.data();
    v.s.birth = self.d_birth.data();
    v.s.group = self.d_group.data();
    v.s.mode = self.d_mode.data();
    v.s.identity = self.d_identity.data();
    v.s.alive = self.d_alive.data();
    v.s.mu = self.d_mu.data();
    v.s.metric = self.d_metric.data();
    v.s.scaled = self.d_scaled.data();
    v.s.scatter = self.d_scatter.data();
    v.s.nmf = self.d_nmf.data();
    v.s.weight = self.d_weight.data();
    v.s.nn = self.d_nn.data();
    v.s.nnKey = self.d_nnKey.data();
    v.s.nnBefore = self.d_nnBefore.data();
    v.s.runKey = self.d_runKey.data();
    v.s.runSlot = self.d_runSlot.data();
    v.s.runPos = self.d_runPos.data();
    v.s.runBirth = self.d_runBirth.data();
    v.s.runCount = self.d_runCount.data();
    v.s.runBound = self.d_runBound.data();
    v.s.members = self.d_members.data();
    v.s.start = self.d_start.data();
    v.s.perm = self.d_perm.data();
    v.s.pointSlot = self.d_pointSlot.data();
    v.w.step = self.d_step.data();
    v.w.groups = self.d_groups.data();
    v.w.mergeCount = self.d_mergeCount.data();
    v.w.outA = self.d_outA.data();
    v.w.outB = self.d_outB.data();
    v.w.outHeight = self.d_outHeight.data();
    v.w.outSize = self.d_outSize.data();
    v.w.outGroup = self.d_outGroup.data();
    v.w.rescanRows = self.d_rescanRows.data();
    v.w.rescanCount = self.d_rescanCount.data();
    v.w.partials = self.d_partials.data();
    v.w.counters = self.d_counters.data();
    v.w.halt = self.d_halt.data();
    v.w.haltStep = self.d_haltStep.data();
    v.w.moved = self.d_temp.data();
    v.w.spec = self.d_spec.data();
    v.w.specArea = self.d_specArea.data();
    v.w.newDist = self.d_newDist.data();
    v.w.extreme = self.d_extreme.data();
    v.w.shiftCount = self.d_shiftCount.data();
    v.w.shiftTime = self.d_shiftTime.data();
    v.w.shiftGroup = self.d_shiftGroup.data();
    v.w.shiftAmount = self.d_shiftAmount.data();
    v.w.shiftMaxBefore = self.d_shiftMaxBefore.data();
    v.x = d_x.data();
    v.list = d_list.data();
    v.listLen = m_listLen;
    v.listIsIdentity = m_listIdentity ? 1 : 0;
    return v;
}

void MhcaEngine::setList(const std::vector<int>& slots) {
    d_list.copyFromHost(slots.data(), slots.size());
    m_listLen = static_cast<int>(slots.size());
    m_listIdentity = true;
    for (std::size_t t = 0; t < slots.size() && m_listIdentity; ++t) m_listIdentity = slots[t] == static_cast<int>(t);
    m_live = m_listLen;
}

void MhcaEngine::startFromPoints(const std::vector<int>& group, int groupCount, const std::vector<int>& ids,
                                 bool neighbours) {
    const cudaStream_t s = m_stream.get();
    PhaseTimes times("start", m_probe);  // (with the profile, each part synchronised)
    auto mark = [&](const char* part) {
        if (!times.on()) return;
        CL_CUDA_TRY(cudaStreamSynchronize(s));
        times.mark(part);
    };
    const std::size_t n = static_cast<std::size_t>(m_n);
    std::vector<int> index(n);
    std::iota(index.begin(), index.end(), 0);
    // The slots' arrays on the device from the points there (building them here cost ~4 ms at 44K).
    if (!ids.empty()) d_id.copyFromHost(ids.data(), n);
    d_group.copyFromHost(group.data(), n);
    launchSinglePointSlots(view(), !ids.empty(), s);
    CL_CUDA_TRY(cudaMemsetAsync(d_mode.data(), kModeRaw, n, s));
    CL_CUDA_TRY(cudaMemsetAsync(d_identity.data(), 1, n, s));
    CL_CUDA_TRY(cudaMemsetAsync(d_alive.data(), 1, n, s));
    mark("cluster arrays");
    if (m_cfg.full) {
        m_initialPerm = index;
        std::stable_sort(m_initialPerm.begin(), m_initialPerm.end(), [&](int a, int b) { return group[a] < group[b]; });
        std::vector<int> start(n);
        for (std::size_t p = 0; p < n; ++p) start[static_cast<std::size_t>(m_initialPerm[p])] = static_cast<int>(p);
        d_perm.copyFromHost(m_initialPerm.data(), n);
        d_start.copyFromHost(start.data(), n);
        d_pointSlot.copyFromHost(index.data(), n);
    }
    mark("point order (FMD)");
    // mhca_agglomerate.cpp: clusters of at least threshold·nFull points count from the start.
    m_groupCount = groupCount;
    std::vector<GroupState> groups(static_cast<std::size_t>(groupCount));
    for (int g : group) ++groups[static_cast<std::size_t>(g)].clusterCount;
    const bool singleFull = 1.0 >= m_options.threshold * static_cast<double>(m_n);
    for (GroupState& gs : groups) {
        gs.fullCount = singleFull ? gs.clusterCount : 0;
        gs.switched = gs.fullCount == gs.clusterCount;
    }
    d_groups.copyFromHost(groups.data(), groups.size());
    CL_CUDA_TRY(cudaMemsetAsync(d_shiftCount.data(), 0, sizeof(int), s));
    setList(index);
    // The groups' maxDist and the rows' neighbours when the run starts (finishStart): the tiled
    // prologue would write the rows again (CMD 200K×14: ~0.1 s), and CMD's takes maxDist too.
    m_singletons = neighbours;
    m_nearestPending = neighbours;
    m_largestPending = neighbours;
    CL_CUDA_TRY(cudaStreamSynchronize(s));
    times.mark("groups and list");
}

void MhcaEngine::finishStart(bool tiled, bool largestByPairs) {
    if (m_largestPending && !largestByPairs) launchNearestPoints(view(), 0, m_n, true, m_stream.get());
    if (m_nearestPending && !tiled) launchNearestPoints(view(), 0, m_n, false, m_stream.get());
    m_largestPending = false;
    m_nearestPending = false;
}

void MhcaEngine::startFromClusters(const std::vector<InitialCluster>& clusters, int initialMode, int firstNewId) {
    const cudaStream_t s = m_stream.get();
    m_singletons = false;
    m_nearestPending = false;
    m_largestPending = false;
    const std::size_t count = clusters.size(), d = static_cast<std::size_t>(m_d);
    const std::size_t p = static_cast<std::size_t>(m_packed);
    std::vector<int> slot(count), pos(count), id(count), start(count), shapeIndex(count, -1), offset(count + 1, 0),
        rows;
    std::vector<signed char> mode(count, static_cast<signed char>(initialMode));
    std::vector<double> nmf(count), weight(count), mu(count * d), metric, scaled;
    std::size_t full = 0;
    for (std::size_t t = 0; t < count; ++t) {
        const InitialCluster& c = clusters[t];
        slot[t] = c.slot;
        pos[t] = static_cast<int>(t);
        id[t] = static_cast<int>(c.id);
        start[t] = c.start;
        nmf[t] = c.nmf;
        weight[t] = c.weight;
        std::copy(c.centroid.begin(), c.centroid.end(), mu.begin() + static_cast<std::ptrdiff_t>(t * d));
        // mhca_clusters.cpp's setShape: the identity is Σ'^-1 == I exactly with nmf == 1.
        bool identity = c.invcov.empty() || c.nmf == 1.0;
        for (std::size_t i = 0; identity && !c.invcov.empty() && i < d * d; ++i)
            identity = c.invcov[i] == (i / d == i % d ? 1.0 : 0.0);
        if (!identity) {
            shapeIndex[t] = static_cast<int>(metric.size() / p);
            for (std::size_t i = 0; i < d; ++i)
                for (std::size_t k = 0; k <= i; ++k) {
                    metric.push_back(c.invcov[i * d + k]);
                    scaled.push_back(c.invcov[i * d + k] / c.nmf);
                }
        }
        rows.insert(rows.end(), c.members.begin(), c.members.end());
        offset[t + 1] = static_cast<int>(rows.size());
        if (static_cast<double>(c.members.size()) >= m_options.threshold * static_cast<double>(m_n)) ++full;
    }
    metric.push_back(0.0);
    scaled.push_back(0.0);
    rows.push_back(0);
    auto upload = [&](auto& buffer, const auto& host) {
        using T = typename std::decay_t<decltype(host)>::value_type;
        buffer = DeviceBuffer<T>(host.size(), s);
        buffer.copyFromHost(host.data(), host.size());
    };
    DeviceBuffer<int> uSlot, uPos, uId, uStart, uShape, uOffset, uRows;
    DeviceBuffer<signed char> uMode;
    DeviceBuffer<double> uNmf, uWeight, uMu, uMetric, uScaled;
    upload(uSlot, slot);
    upload(uPos, pos);
    upload(uId, id);
    upload(uStart, start);
    upload(uShape, shapeIndex);
    upload(uOffset, offset);
    upload(uRows, rows);
    upload(uMode, mode);
    upload(uNmf, nmf);
    upload(uWeight, weight);
    upload(uMu, mu);
    upload(uMetric, metric);
    upload(uScaled, scaled);
    ClusterUpload u{static_cast<int>(count), uSlot.data(),   uPos.data(),    uId.data(),     uStart.data(),
                    uShape.data(),           uMode.data(),   uNmf.data(),    uWeight.data(), uMu.data(),
                    uMetric.data(),          uScaled.data(), uOffset.data(), uRows.data()};
    CL_CUDA_TRY(cudaMemsetAsync(d_alive.data(), 0, static_cast<std::size_t>(m_n), s));
    launchScatterClusters(view(), u, s);
    if (m_cfg.full) d_perm.copyFromHost(m_initialPerm.data(), m_initialPerm.size());
    CL_CUDA_TRY(cudaMemsetAsync(d_shiftCount.data(), 0, sizeof(int), s));
    m_groupCount = 1;
    GroupState top{};
    top.clusterCount = static_cast<int>(count);
    top.fullCount = static_cast<int>(full);
    top.switched = top.fullCount == top.clusterCount;
    d_groups.copyFromHost(&top, 1);
    CL_CUDA_TRY(cudaMemsetAsync(d_mergeCount.data(), 0, sizeof(int), s));
    m_cfg.firstNewId = firstNewId;
    std::vector<int> sorted = slot;
    std::sort(sorted.begin(), sorted.end());
    setList(sorted);
    rescanAll(sorted);
    CL_CUDA_TRY(cudaStreamSynchronize(s));
}

void MhcaEngine::rescanAll(const std::vector<int>& slots) {
    // mhca_agglomerate.cpp's run(): maxDistX over all pairs of the initial clusters, then every row.
    const cudaStream_t s = m_stream.get();
    const int count = static_cast<int>(slots.size());
    d_rescanRows.copyFromHost(slots.data(), slots.size());
    CL_CUDA_TRY(cudaMemcpyAsync(d_rescanCount.data(), &count, sizeof(int), cudaMemcpyHostToDevice, s));
    for (int mode : {1, 0}) {
        if (m_cfg.full) {
            fmdRescans(0, count, mode == 1 ? 2 : 0);
        } else {
            launchCentroidRescan(view(), 2 * m_sms, m_targetItems, m_rowBytes, mode, s);
        }
    }
    CL_CUDA_TRY(cudaMemsetAsync(d_rescanCount.data(), 0, sizeof(int), s));
}

std::vector<MergeRecord> MhcaEngine::downloadMerges(std::size_t merges) {
    int done = 0;
    d_mergeCount.copyToHost(&done, 1);
    if (static_cast<std::size_t>(done) != merges)
        throw CudaError("MHCA on the GPU made " + std::to_string(done) + " of " + std::to_string(merges) +
                        " merges (no finite distance was left)");
    return readRecords(merges);
}

std::vector<MergeRecord> MhcaEngine::readRecords(std::size_t merges) {
    if (m_probe) m_probe->merges += merges;
    std::vector<int> a(merges), b(merges), size(merges), group(merges);
    std::vector<double> height(merges);
    d_outA.copyToHost(a.data(), merges);
    d_outB.copyToHost(b.data(), merges);
    d_outSize.copyToHost(size.data(), merges);
    d_outGroup.copyToHost(group.data(), merges);
    d_outHeight.copyToHost(height.data(), merges);
    std::vector<MergeRecord> records(merges);
    for (std::size_t m = 0; m < merges; ++m) records[m] = {a[m], b[m], height[m], size[m], group[m]};
    return records;
}

}  // namespace clusterlens::cuda::mhca
