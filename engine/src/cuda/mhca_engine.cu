// MHCA engine: allocation of the device state (one buffer per array), the two ways a run starts
// (single points, possibly in apriori groups; or the apriori top level's clusters) and the initial
// nearest-neighbour array. The merge loop is in mhca_engine_run.cu.

#include <algorithm>
#include <cmath>
#include <exception>
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
#include "cuda/util/left_work.cuh"
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

}  // namespace

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
    m_cfg.subthreshold = options.subthreshold;
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
    // An error or a cancel between a fork and its join can leave side-stream kernels that read the
    // buffers, which are freed in the main stream's order only.
    const cudaStream_t main = m_stream.get();
    m_fork.joinAtTeardown(main);
    m_growthSide.joinAtTeardown(main);
    m_spec.joinAtTeardown(main);
    if (std::uncaught_exceptions() > 0) leaveQueuedWork(main);  // (a cancel: the launches run on)
}

MhcaSizing MhcaEngine::sizing() const {
    MhcaSizing z;
    z.n = static_cast<std::size_t>(m_n);
    z.d = static_cast<std::size_t>(m_d);
    z.packed = static_cast<std::size_t>(m_packed);
    z.full = m_cfg.full != 0;
    z.memberCap = static_cast<std::size_t>(m_cfg.memberCap);
    z.partials = z.n + static_cast<std::size_t>(m_targetItems) + 1;
    z.fmdRows = static_cast<std::size_t>(m_fmdRowsCap);
    z.tiles = static_cast<std::size_t>(m_tiles);
    z.sms = static_cast<std::size_t>(m_sms);
    z.shapeAreaBytes = shapeSharedBytes(m_d, 0);
    z.shapeInGlobal = m_shapeBytes == 0;
    z.compactBytes = std::max<std::size_t>(compactTempBytes(m_n), 16);
    z.persistentBlocks = static_cast<std::size_t>(std::max(0, m_persistent.maxBlocks));
    z.growthStride = static_cast<std::size_t>(std::max(0, growthStride()));
    z.profiled = m_profile != nullptr;
    return z;
}

std::size_t MhcaEngine::requiredBytes(const MhcaSizing& z) {
    return partBytes<ClusterState>(z) + partBytes<NearestRowState>(z) + partBytes<MergeLogState>(z) +
           partBytes<VisitedListState>(z) + partBytes<MergeScratchState>(z) + partBytes<PersistentState>(z);
}

void MhcaEngine::allocate() {
    const MhcaSizing z = sizing();
    const std::size_t needed = requiredBytes(z);
    std::size_t freeBytes = 0, totalBytes = 0;
    CL_CUDA_TRY(cudaMemGetInfo(&freeBytes, &totalBytes));
    const std::string what = "MHCA of " + std::to_string(m_n) + " points x " + std::to_string(m_d) +
                             " features needs " + gib(needed) + " of GPU memory";
    if (needed > freeBytes)
        throw OutOfDeviceMemory(what + ", but only " + gib(freeBytes) + " of " + gib(totalBytes) +
                                    " are free; use the CPU backend, fewer points or apriori groups",
                                needed, freeBytes);
    const cudaStream_t s = m_stream.get();
    try {
        allocatePart(m_clusters, z, s);
        allocatePart(m_rows, z, s);
        allocatePart(m_log, z, s);
        allocatePart(m_visited, z, s);
        allocatePart(m_scratch, z, s);
        allocatePart(m_persist, z, s);
    } catch (const OutOfDeviceMemory&) {
        throw OutOfDeviceMemory(what + " and the device could not provide it (" + gib(freeBytes) + " were free)",
                                needed, freeBytes);
    }
    m_clusters.clear(s);
    m_rows.clear(s);
    m_log.clear(s);
    m_scratch.clear(s);
    m_persist.clear(s, z.profiled);
    m_clusters.x.copyFromHost(m_hostX, z.n * z.d);
}

MhcaView MhcaEngine::view() {
    return MhcaView{m_cfg,        m_clusters.view(), m_rows.view(),
                    m_log.view(), m_scratch.view(),  m_visited.view(m_listLen, m_listIdentity)};
}

void MhcaEngine::setList(const std::vector<int>& slots) {
    m_visited.list.copyFromHost(slots.data(), slots.size());
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
    if (!ids.empty()) m_clusters.id.copyFromHost(ids.data(), n);
    m_clusters.group.copyFromHost(group.data(), n);
    launchSinglePointSlots(m_cfg, m_clusters.view(), !ids.empty(), s);
    CL_CUDA_TRY(cudaMemsetAsync(m_clusters.mode.data(), kModeRaw, n, s));
    CL_CUDA_TRY(cudaMemsetAsync(m_clusters.identity.data(), 1, n, s));
    CL_CUDA_TRY(cudaMemsetAsync(m_clusters.alive.data(), 1, n, s));
    mark("cluster arrays");
    if (m_cfg.full) {
        m_initialPerm = index;
        std::stable_sort(m_initialPerm.begin(), m_initialPerm.end(), [&](int a, int b) { return group[a] < group[b]; });
        std::vector<int> start(n);
        for (std::size_t p = 0; p < n; ++p) start[static_cast<std::size_t>(m_initialPerm[p])] = static_cast<int>(p);
        m_clusters.perm.copyFromHost(m_initialPerm.data(), n);
        m_clusters.start.copyFromHost(start.data(), n);
        m_clusters.pointSlot.copyFromHost(index.data(), n);
    }
    mark("point order (FMD)");
    // mhca_agglomerate.cpp: clusters of at least threshold·nFull points count from the start.
    m_groupCount = groupCount;
    std::vector<GroupState> groups(static_cast<std::size_t>(groupCount));
    for (int g : group) ++groups[static_cast<std::size_t>(g)].clusterCount;
    const bool singleFull = ::clusterlens::mhca::reachesThreshold(1, m_n, m_options.threshold);
    for (GroupState& gs : groups) {
        gs.fullCount = singleFull ? gs.clusterCount : 0;
        gs.switched = gs.fullCount == gs.clusterCount;
    }
    m_log.groups.copyFromHost(groups.data(), groups.size());
    CL_CUDA_TRY(cudaMemsetAsync(m_log.shiftCount.data(), 0, sizeof(int), s));
    setList(index);
    // The groups' maxDist and the rows' neighbours when the run starts (finishStart): the tiled
    // prologue would write the rows again (CMD 200K×14: ~0.1 s), and CMD's takes maxDist too.
    m_singletons = neighbours;
    m_nearestPending = neighbours;
    m_largestPending = neighbours;
    mark("groups and list");  // (no wait without the profile: the run's first wait is a cancel point)
}

void MhcaEngine::finishStart(bool tiled, bool largestByPairs) {
    if (m_largestPending && !largestByPairs)
        launchNearestPoints(m_cfg, m_clusters.view(), m_rows.view(), m_log.view(), 0, m_n, true, m_stream.get());
    if (m_nearestPending && !tiled)
        launchNearestPoints(m_cfg, m_clusters.view(), m_rows.view(), m_log.view(), 0, m_n, false, m_stream.get());
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
    CL_CUDA_TRY(cudaMemsetAsync(m_clusters.alive.data(), 0, static_cast<std::size_t>(m_n), s));
    launchScatterClusters(m_cfg, m_clusters.view(), m_rows.view(), u, s);
    if (m_cfg.full) m_clusters.perm.copyFromHost(m_initialPerm.data(), m_initialPerm.size());
    CL_CUDA_TRY(cudaMemsetAsync(m_log.shiftCount.data(), 0, sizeof(int), s));
    m_groupCount = 1;
    GroupState top{};
    top.clusterCount = static_cast<int>(count);
    top.fullCount = static_cast<int>(full);
    top.switched = top.fullCount == top.clusterCount;
    m_log.groups.copyFromHost(&top, 1);
    CL_CUDA_TRY(cudaMemsetAsync(m_log.mergeCount.data(), 0, sizeof(int), s));
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
    m_scratch.rescanRows.copyFromHost(slots.data(), slots.size());
    CL_CUDA_TRY(cudaMemcpyAsync(m_scratch.rescanCount.data(), &count, sizeof(int), cudaMemcpyHostToDevice, s));
    for (int mode : {1, 0}) {
        if (m_cfg.full) {
            fmdRescans(0, count, mode == 1 ? 2 : 0);
        } else {
            launchCentroidRescan(m_cfg, m_clusters.view(), m_rows.view(), m_log.view(), m_scratch.view(),
                                 m_visited.view(m_listLen, m_listIdentity), 2 * m_sms, m_targetItems, m_rowBytes, mode,
                                 s);
        }
    }
    CL_CUDA_TRY(cudaMemsetAsync(m_scratch.rescanCount.data(), 0, sizeof(int), s));
}

SlotShapes MhcaEngine::slotShapes(const std::vector<int>& slots) {
    const cudaStream_t s = m_stream.get();
    const std::size_t count = slots.size(), packed = static_cast<std::size_t>(m_packed);
    SlotShapes shapes{std::vector<int>(count), std::vector<double>(count * packed)};
    if (count == 0) return shapes;
    DeviceBuffer<int> d_slots(count, s), d_size(count, s);
    DeviceBuffer<double> d_scatter(count * packed, s);
    d_slots.copyFromHost(slots.data(), count);
    launchSlotShapes(m_cfg, m_clusters.view(), d_slots.data(), static_cast<int>(count), d_size.data(), d_scatter.data(),
                     true, s);
    d_size.copyToHost(shapes.size.data(), count);
    d_scatter.copyToHost(shapes.scatter.data(), count * packed);
    return shapes;
}

void MhcaEngine::setSlotShapes(const std::vector<int>& slots, const SlotShapes& shapes) {
    const cudaStream_t s = m_stream.get();
    const std::size_t count = slots.size(), packed = static_cast<std::size_t>(m_packed);
    if (count == 0) return;
    DeviceBuffer<int> d_slots(count, s), d_size(count, s);
    DeviceBuffer<double> d_scatter(count * packed, s);
    d_slots.copyFromHost(slots.data(), count);
    d_size.copyFromHost(shapes.size.data(), count);
    d_scatter.copyFromHost(shapes.scatter.data(), count * packed);
    launchSlotShapes(m_cfg, m_clusters.view(), d_slots.data(), static_cast<int>(count), d_size.data(), d_scatter.data(),
                     false, s);
    CL_CUDA_TRY(cudaStreamSynchronize(s));  // (the host vectors may go once this returns)
}

std::vector<MergeRecord> MhcaEngine::downloadMerges(std::size_t merges) {
    int done = 0;
    m_log.mergeCount.copyToHost(&done, 1);
    if (static_cast<std::size_t>(done) != merges)
        throw CudaError("MHCA on the GPU made " + std::to_string(done) + " of " + std::to_string(merges) +
                        " merges (no finite distance was left)");
    return readRecords(merges);
}

std::vector<MergeRecord> MhcaEngine::readRecords(std::size_t merges) {
    if (m_probe) m_probe->merges += merges;
    std::vector<int> a(merges), b(merges), size(merges), group(merges);
    std::vector<double> height(merges);
    m_log.outA.copyToHost(a.data(), merges);
    m_log.outB.copyToHost(b.data(), merges);
    m_log.outSize.copyToHost(size.data(), merges);
    m_log.outGroup.copyToHost(group.data(), merges);
    m_log.outHeight.copyToHost(height.data(), merges);
    std::vector<MergeRecord> records(merges);
    for (std::size_t m = 0; m < merges; ++m) records[m] = {a[m], b[m], height[m], size[m], group[m]};
    return records;
}

}  // namespace clusterlens::cuda::mhca
