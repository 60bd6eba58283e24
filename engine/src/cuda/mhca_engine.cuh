#pragma once
// The device state of one MHCA run and its merge loop (thesis sections 2.4 and 2.5): cluster slots,
// nearest-neighbour array and scratch, one allocation per array, on a stream the engine owns.

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/hca/mhca_cuda_policy.hpp"
#include "clusterlens/hca/mhca_probe.hpp"
#include "clusterlens/job_control.hpp"
#include "cuda/mhca_engine_state.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/mhca_types.cuh"
#include "cuda/util/cuda_event.cuh"
#include "cuda/util/device_buffer.cuh"
#include "cuda/util/owned_stream_graph.cuh"
#include "share_group.hpp"

namespace clusterlens::cuda::mhca {

/// A side stream for the branches of a merge step that may overlap: fork() makes it wait for the work
/// queued so far on the main stream, join() makes the main stream wait for it. Works the same while
/// the main stream is being captured into a graph (the events become the graph's edges; the side
/// stream's greatest priority becomes its kernel nodes' priority).
class StreamFork {
public:
    /// `highest`: the side stream has the device's greatest priority.
    explicit StreamFork(bool highest);
    ~StreamFork();
    StreamFork(const StreamFork&) = delete;
    StreamFork& operator=(const StreamFork&) = delete;
    cudaStream_t side() const { return m_side.get(); }
    void fork(cudaStream_t main);
    void join(cudaStream_t main);
    /// Teardown: the main stream waits for the side stream's work, so that the buffers freed on the
    /// main stream afterwards outlive it (without blocking the host; errors cannot be reported there).
    void joinAtTeardown(cudaStream_t main) noexcept {
        try {
            join(main);
        } catch (...) {  // (a failed join: the context is lost, nothing runs on)
        }
    }

private:
    OwnedStream m_side;
    cudaEvent_t m_forked = nullptr;
    cudaEvent_t m_joined = nullptr;
};

/// Progress over all merges of one mhcaCuda call and its cancellation point.
class MergeProgress {
public:
    MergeProgress(JobControl* control, std::size_t total) : m_control(control), m_total(total), m_done(&m_ownDone) {}
    /// The progress of another thread of the same run (a device of its own, a share of `run`'s
    /// merges): merges counted by either count for both; a failure of another share of `team` stops it
    /// at its next advance.
    MergeProgress(MergeProgress& run, const detail::ShareGroup* team)
        : m_control(run.m_control), m_total(run.m_total), m_done(run.m_done), m_team(team) {}
    MergeProgress(const MergeProgress&) = delete;
    MergeProgress& operator=(const MergeProgress&) = delete;

    void check() const {
        if (m_control) m_control->checkCancelled();
    }
    /// Waits for the work queued on `stream` so far, a cancellation point while it waits: a cancel
    /// lands within microseconds even while a long launch runs (the launch runs on, in the background).
    void waitFor(cudaStream_t stream) {
        CL_CUDA_TRY(cudaEventRecord(m_queued.get(), stream));
        waitForEvent(m_queued.get(), m_control);
    }
    void advance(std::size_t merges) {
        if (m_team) m_team->checkAborted();
        const std::size_t done = m_done->fetch_add(merges) + merges;
        if (m_control) m_control->setProgress(m_total ? static_cast<double>(done) / static_cast<double>(m_total) : 1.0);
    }

private:
    JobControl* m_control;
    std::size_t m_total;
    std::atomic<std::size_t> m_ownDone{0};
    std::atomic<std::size_t>* m_done;
    const detail::ShareGroup* m_team = nullptr;
    CudaEvent m_queued{cudaEventDisableTiming};
};

/// One merge as recorded on the device: cluster ids (a < b), height, size, group of the run.
struct MergeRecord {
    int a;
    int b;
    double height;
    int size;
    int group;
};

/// The sizes and scatter matrices of some slots (scatter: slots x packed), as another engine made them.
struct SlotShapes {
    std::vector<int> size;
    std::vector<double> scatter;
};

/// A cluster the apriori top level starts from (mhca_runs.cpp's makeGroupCluster / makeSingleton).
struct InitialCluster {
    int slot = 0;                       ///< slot it occupies after the group phase
    int start = 0;                      ///< FMD: first position of its members in perm
    std::vector<std::int32_t> members;  ///< data rows in member order
    std::vector<double> centroid;       ///< d values
    std::vector<double> invcov;         ///< d*d Σ'^-1; empty = identity
    double nmf = 1.0;
    double weight = 0.0;
    std::int64_t id = 0;
};

class MhcaEngine {
public:
    /// Uploads the n x d points and allocates every array; throws OutOfDeviceMemory naming the bytes.
    /// Runs options.cudaPolicy, or chooseMhcaCudaPolicy's for this device; fills options.probe if set.
    MhcaEngine(const double* x, std::size_t n, std::size_t d, const MhcaOptions& options);
    ~MhcaEngine();

    /// Device bytes of every array of a run sized by `z`: the sum of the state objects' own counts.
    static std::size_t requiredBytes(const MhcaSizing& z);

    /// Every point its own cluster; points with equal `group` (>= 0, < groupCount) may merge, others
    /// never (an apriori group each, or all 0). `ids`: the id of each slot's point in the merge
    /// records (empty: the slot). With `neighbours`, computes the initial nearest neighbours (runGroups
    /// computes its groups' own).
    void startFromPoints(const std::vector<int>& group, int groupCount, const std::vector<int>& ids = {},
                         bool neighbours = true);

    /// Whether runGroups can take groups of at most `largest` points: CMD, below the threshold, and the
    /// group kernel's shared memory fits.
    bool groupPhaseFits(std::size_t largest) const;

    /// CMD apriori group phase, a block per group, after startFromPoints(..., neighbours = false):
    /// group g's slots are [listStart[g], listStart[g + 1]) (at least 2 each), its merges are recorded
    /// from listStart[g] - g on with ids from firstNewId there. Returns every group's merges, group by
    /// group. O(Σ k²·d) to start, O(k·d²) per merge of a group of k. With `only` (group numbers, not empty), runs
    /// those groups alone; the records of the others are then left as they were (another device's
    /// share: a group's records do not depend on the groups run beside it).
    std::vector<MergeRecord> runGroups(const std::vector<int>& listStart, MergeProgress& progress,
                                       const std::vector<int>& only = {});

    /// The sizes and scatter matrices of `slots`, which startFromClusters does not upload: the group
    /// phase leaves them in the groups' slots. slotShapes reads them from this engine, setSlotShapes
    /// writes them into it, so that groups clustered by another device's engine are this one's as if it
    /// had clustered them. O(|slots| · d²) device work and transfer.
    SlotShapes slotShapes(const std::vector<int>& slots);
    void setSlotShapes(const std::vector<int>& slots, const SlotShapes& shapes);

    /// The apriori top level after startFromPoints' groups were merged: the given clusters (every
    /// other slot is dead) in this order of positions, distances of `initialMode`, new ids from
    /// firstNewId. Computes the nearest neighbours of all pairs.
    void startFromClusters(const std::vector<InitialCluster>& clusters, int initialMode, int firstNewId);

    /// Runs `merges` merge steps; returns their records in merge order.
    std::vector<MergeRecord> run(std::size_t merges, MergeProgress& progress);

    /// The FMD member order of the group phase (perm sorted by group, then point).
    const std::vector<int>& initialPerm() const { return m_initialPerm; }

private:
    MhcaView view();
    /// Checks requiredBytes() against the free device memory, then allocates, clears and uploads.
    void allocate();
    /// What sizes this run's arrays (set by the constructor's plan).
    MhcaSizing sizing() const;
    void allocateBuffers();
    void clearBuffers();
    void uploadPoints(const std::vector<int>& group, int groupCount);
    void setList(const std::vector<int>& slots);
    /// Drops the dead entries of the list once at most compactBelow() are alive; with `slots`
    /// (single-group CMD runs of the persistent kernel) the live clusters move to slots 0 .. live-1 as
    /// well (moveLiveSlots).
    void compactIfSparse(bool slots = false);
    /// The live count at or below which the visited list is compacted: half of its length (compacting
    /// earlier measured slower).
    int compactBelow() const { return m_listLen / 2; }
    void moveLiveSlots();
    void rescanAll(const std::vector<int>& slots);
    /// The rows' nearest neighbours that startFromPoints deferred, unless the run's tiled prologue
    /// (launchSingletonRows, which writes every row's) replaces them: `tiled`.
    void finishStart(bool tiled, bool largestByPairs = false);
    /// A batch over rows[0 .. rowCount), or sized on the device by *rowLimit (chunks for kFmdRowBlocks rows).
    FmdBatch fmdBatch(const int* rows, int rowCount, const int* rowLimit = nullptr);
    void fmdRowsPass(const int* rows, int rowCount, int mode);
    /// Host-sized passes over the marked rows [first, end).
    void fmdRescans(int first, int end, int mode);
    void mergeStepCentroid();
    /// FMD: batches of merge steps queued without a host round trip, a sync per batch.
    std::vector<MergeRecord> runFull(std::size_t merges, MergeProgress& progress);
    void mergeStepFull();
    /// Blocks of a pass over the list of about one row per 1024 (closest pair, speculation scan).
    int closestPairBlocks() const { return std::min((m_listLen + 1023) / 1024, 2 * m_sms); }
    /// `batch` per-stage merge steps (FMD or CMD) as one CUDA graph, captured again only when the
    /// batch or the list changed (the steps' launches depend on nothing else: the device's step
    /// record drives them); a graph's kernels follow each other with shorter gaps than launches.
    void launchStepBatch(std::size_t batch, bool full);
    /// Captures and instantiates the graph of `batch` steps unless the one kept fits. The run makes its
    /// first batch's graph before it queues the start's passes: the first instantiation of a process
    /// waited for the device's queued work (CUDA 13.0, H200: 5.4 s behind the two passes of an FMD run
    /// at 1M points, where no cancel lands); later ones did not.
    void prepareStepGraph(std::size_t batch, bool full);
    /// The merges of the next batch: at most `every` of the `left` (a progress check after each batch),
    /// ending where the list would be compacted (compactBelow).
    std::size_t nextBatch(std::size_t left, std::size_t every) const;
    /// FMD: the step that halted the loop (its all-pairs switch, or its marked rows past the device pass).
    void finishHaltedStep();
    /// CMD through the persistent kernel: batches of merges between compactions and progress checks.
    std::vector<MergeRecord> runPersistent(std::size_t merges, MergeProgress& progress);
    /// One launch of at most `merges` merges; returns the merges completed and whether it stopped at a
    /// switch step (then finished here by the per-stage kernels).
    /// With `prologue`, every live row is rescanned first, for its runners-up.
    std::size_t persistentBatch(int merges, bool& switched, bool prologue, MergeProgress& progress);
    void finishSwitchStep();
    /// With a timed probe: the persistent kernel's stage times into it (and its sums reset).
    void reportPersistentProfile();
    /// Whether the probe asks for phase and stage times (synchronising).
    bool timed() const { return m_probe != nullptr && m_probe->timeStages; }
    /// Entries of one merge in d_growthNearest: every warp of the most blocks a persistent launch has.
    int growthStride() const { return m_persistent.maxBlocks * (kPersistentThreads / 32); }
    std::vector<MergeRecord> downloadMerges(std::size_t merges);
    std::vector<MergeRecord> readRecords(std::size_t merges);

    /// With a timed probe, device time of each merge stage of the per-stage kernels (CMD, or FMD) on
    /// every kEvery-th merge (events around the launches, a sync on sampled merges only), written to
    /// the probe's report at the end.
    class StageProfile {
    public:
        static constexpr int kEvery = 64;
        StageProfile(bool full, MhcaProbe& probe);
        ~StageProfile();
        bool sampleThisMerge();
        void mark(int k, cudaStream_t s);
        void finish(int k, cudaStream_t s);

    private:
        cudaEvent_t m_events[6]{};
        double m_ms[5]{};
        int m_merge = 0;
        int m_samples = 0;
        bool m_full;
        MhcaProbe& m_probe;
    };

    OwnedStream m_stream;            // declared first: destroyed after every buffer freed on it
    StreamFork m_fork{true};         // FMD: the merged cluster's shape beside the member move and sums
    StreamFork m_spec{false};        // FMD: the next merge's speculated shape beside the step's later kernels
    StreamFork m_growthSide{false};  // CMD: the growth kernel beside the persistent one
    OwnedGraph m_stepGraph;          // launchStepBatch's graph and what it was captured for
    std::size_t m_stepGraphBatch = 0;
    bool m_stepGraphFull = false;
    const int* m_stepGraphList = nullptr;
    int m_stepGraphListLen = -1;
    std::unique_ptr<StageProfile> m_profile;
    const double* m_hostX;
    int m_n, m_d, m_packed;
    MhcaOptions m_options;
    MhcaCudaPolicy m_policy;       // options.cudaPolicy, or the production choice for this device
    MhcaProbe* m_probe = nullptr;  // options.probe
    MhcaConfig m_cfg{};
    int m_sms = 1;
    std::size_t m_l2Bytes = 0;      // the device's L2 cache
    bool m_listIdentity = false;    // d_list holds 0 .. m_listLen-1 (VisitedListView::isIdentity)
    bool m_singletons = false;      // every cluster a single point and no merge made yet
    bool m_nearestPending = false;  // startFromPoints left the rows' nearest neighbours to the run
    bool m_largestPending = false;  // ... and the groups' maxDistX (CMD's pass over the pairs takes it)
    int m_targetItems = 1;
    int m_listLen = 0;
    int m_groupCount = 1;
    int m_live = 0;
    int m_stageRows = 0;
    std::size_t m_shapeBytes = 0;
    std::size_t m_rowBytes = 0;
    int m_fmdRowsCap = 16;
    int m_tiles = 0;
    std::vector<int> m_initialPerm;
    PersistentShape m_persistent;  // maxBlocks == 0: the per-stage kernels run CMD
    GroupPhaseShape m_groupPhase;  // maxBlocks == 0: apriori groups run through run()

    // The device state, one object per concern (mhca_engine_state.cuh).
    ClusterState m_clusters;
    NearestRowState m_rows;
    MergeLogState m_log;
    VisitedListState m_visited;
    MergeScratchState m_scratch;
    PersistentState m_persist;
};

}  // namespace clusterlens::cuda::mhca
