#pragma once
// Plain structures shared by the MHCA host code and its kernels: the per-slot cluster arrays, the
// record of one merge step and the scratch of the reductions. Kernels get the views of the state
// objects (mhca_engine_state.cuh) they use by value; the whole-merge kernels get all of them (MhcaView).
// The per-stage kernels take their views as const __grid_constant__ parameters: read from the
// parameter space where used, as the single view before them was (copied into registers at the
// start, small views raised the registers of some kernels, up to 32 -> 64); fmdMemberPassKernel,
// which reads its views once at the start, keeps fewer registers with them by value.
//
// A slot holds one live cluster (thesis section 2.4.1: centroid, inverse covariance and neighbour
// arrays). Its `pos` is its place in mhclust's cluster list, which decides ties; the merged cluster
// keeps the slot and position of the first (lower-position) cluster, as mhclust.c does.
// Matrices are packed lower triangles, entry (i, k), k <= i, at i(i+1)/2 + k, stored "structure of
// arrays": entry e of slot s at [e * n + s], so neighbouring threads read neighbouring slots.

#include <cstddef>

#include "clusterlens/hca/mhca.hpp"
#include "cpu/mhca_rules.hpp"

namespace clusterlens::cuda::mhca {

/// How a stored distance uses Σ'^-1 (mhca_clusters.hpp's DistanceMode).
enum DistanceModeCode : int { kModeRaw = 0, kModeScaled = 1, kModeIdentity = 2 };

/// The code of a DistanceMode (mhca_rules.hpp's distanceModeFor): the identity, else scaled when
/// normalised, else raw.
__host__ __device__ inline int distanceModeCode(const ::clusterlens::mhca::DistanceMode& m) {
    return m.identity ? kModeIdentity : (m.normalized ? kModeScaled : kModeRaw);
}

/// A candidate partner: ordered by key (mhca's maxDistX - d: larger is nearer, NaN after every
/// number), then position.
struct Candidate {
    double key;
    int pos;
    int slot;
};

/// Runner-up partners a row keeps besides its best (mhca_runner_device.cuh).
constexpr int kRunners = 8;
/// A rescanned row's best partner and runners-up.
constexpr int kRowListLength = kRunners + 1;
/// nn of a lazy row (persistent CMD kernel): its best partner died and its runners-up could not
/// answer, and its rescan waits until its nnKey, an upper bound of the keys of all its partners,
/// could reach the closest pair's key (most such rows merge before that).
constexpr int kLazyRow = -2;

/// A row's best candidate and an upper bound of the keys of its other partners (mhca_agglomerate's
/// `before`: only needed to find rows whose best may tie with an earlier partner after a shift).
struct RowTop {
    Candidate best;
    double second;
};

/// Per apriori group (or the single top-level run): mhclust.c's clusterCount, fullMahalClusterCount
/// and switchedToFullMahal.
struct GroupState {
    int clusterCount;
    int fullCount;
    int switched;
    int unused;
    double maxDist;  ///< mhclust.c's maxDistX (keys are maxDistX - d)
};

/// The merge chosen by the argmin step, read by every later kernel of the same step.
struct Step {
    int a;  ///< slot of the merged cluster (lower position), keeps it
    int b;  ///< slot that dies
    int sizeA;
    int sizeB;
    int merge;  ///< merge index within this run
    int group;
    int switchNow;  ///< every cluster of the group reached the threshold: all distances anew
    int valid;      ///< 0 when no finite pair was left (never in a correct run)
    int startA;     ///< FMD: first member position of a and b in perm before the merge
    int startB;
    int shifted;         ///< this step's new distances shifted every key (mhclust.c: minNewDistX < 0)
    int bMoved;          ///< FMD: b's members lie in w.moved after the step's rotation, not at startB in perm
    double weight;       ///< wf of the merged cluster
    double shiftAmount;  ///< the (negative) smallest new key
    double maxBefore;    ///< maxDistX before the shift
};

struct MhcaConfig {
    int n;  ///< slots (= points of the dataset)
    int d;
    int packed;        ///< d(d+1)/2
    int memberCap;     ///< clusters up to this size keep an ordered member list (CMD) / exact covariance
    int nFull;         ///< size of the whole dataset
    double threshold;  ///< the relative threshold; a cluster reaches it at threshold * nFull points
    SubthresholdMode subthreshold;
    int normalize;
    int full;  ///< FMD
    int postSwitchMode;
    int firstNewId;  ///< id of the cluster made by merge 0
    int stage;       ///< the row kernels copy a row's mean and metrics into shared memory (they fit)
};

/// ClusterState's arrays (mhca_engine_state.cuh): the points and the clusters' moments and members,
/// by slot.
struct ClusterView {
    const double* x;  ///< n x d, row-major
    int* size;
    int* pos;
    int* id;
    int* birth;  ///< merge index that made the cluster, -1 for initial clusters
    int* group;
    signed char* mode;      ///< DistanceModeCode of distances computed when the cluster was born
    signed char* identity;  ///< Σ'^-1 == I and nmf == 1 exactly
    unsigned char* alive;
    double* mu;       ///< d x n
    double* metric;   ///< packed x n: Σ'^-1
    double* scaled;   ///< packed x n: Σ'^-1 / nmf
    double* scatter;  ///< packed x n: Σ (x - mean)(x - mean)ᵀ
    double* nmf;
    double* weight;
    int* members;      ///< memberCap x n, slot-major: members of slot s at [s * memberCap]
    int* start;        ///< FMD: first position of the slot's members in `perm`
    int* perm;         ///< FMD: points, every cluster contiguous and in member order
    int* pointSlot;    ///< FMD: slot of each point
    const int* moved;  ///< FMD: perm positions [endA, endA + sizeB) after the step's rotation (when b moved)
};

/// NearestRowState's arrays: each row's best later partner, its key, the bound of the others, and its
/// runners-up (mhca_runner_device.cuh), by slot.
struct NearestRowView {
    int* nn;
    double* nnKey;     ///< key of the best later partner
    double* nnBefore;  ///< bound of the keys of the other partners
    double* runKey;    ///< kRunners x n, slot-major: the row's runners-up, best first
    int* runSlot;
    int* runPos;
    int* runBirth;  ///< birth of the partner when offered (a reused slot invalidates the entry)
    int* runCount;
    double* runBound;  ///< upper bound of the keys of the partners neither best nor listed; +inf: unknown
};

/// FMD: the shape of a pair computed ahead of its merge (fmdSpeculativeShapeKernel); it stands for the
/// step with this merge index that merges slots a and b. Two alternate (merge index parity), each with
/// an area of MergeScratchView::specArea (a ShapeLayout{d, 0}: newMu, scatter and Σ'^-1 at their offsets).
struct SpecShape {
    int merge;  ///< -1: none
    int a;
    int b;
    int shaped;
    int identity;
    int pad;
    double nmf;
};

/// MergeLogState's arrays: the step being made, the groups' state, the merge records and the key-shift
/// log.
struct MergeLogView {
    Step* step;
    Step* haltStep;  ///< FMD: the step the host finishes: the switch, or more rows than a device pass
    int* halt;       ///< FMD: non-zero while the merge loop waits for the host (haltStep)
    GroupState* groups;
    int* mergeCount;
    int* outA;
    int* outB;
    double* outHeight;
    int* outSize;
    int* outGroup;
    int* shiftCount;  ///< shift log (mhca_agglomerate.cpp's recordShift), in merge order
    int* shiftTime;
    int* shiftGroup;
    double* shiftAmount;
    double* shiftMaxBefore;
};

/// MergeScratchState's arrays: the rescan list, the reductions' partials and counters, the new
/// distances and FMD's speculated shapes.
struct MergeScratchView {
    int* rescanRows;
    int* rescanCount;
    RowTop* partials;        ///< per block / per (row, chunk) results
    double* newDist;         ///< distances of the merged cluster to the visited list (by list index)
    double* extreme;         ///< accumulator of the all-pairs largest distance / smallest key
    unsigned int* counters;  ///< arrival counters of the last-block reductions (kept zero between uses)
    SpecShape* spec;         ///< FMD: the two speculated shapes (null: none kept, CMD)
    double* specArea;        ///< their two areas
};

/// The visited list (VisitedListState's list): the slots a pass visits, ascending; dead ones are skipped.
struct VisitedListView {
    const int* list;
    int length;
    /// list[t] == t for every t < length (a single-group run's list, from the start and after each
    /// slot compaction): the persistent kernel's passes take the slot from the position, one
    /// dependent round trip fewer per entry.
    int isIdentity;
};

/// Initial clusters of a run that starts from clusters (mhclust.R's apriori top level), compact host
/// arrays scattered into their slots by scatterClustersKernel. Shapes (metric, scaled: packed per
/// shaped cluster) are indexed by shapeIndex (-1 = identity); members by memberOffset (count + 1).
struct ClusterUpload {
    int count;
    const int* slot;
    const int* pos;
    const int* id;
    const int* start;
    const int* shapeIndex;
    const signed char* mode;
    const double* nmf;
    const double* weight;
    const double* mu;      ///< count x d
    const double* metric;  ///< shaped x packed
    const double* scaled;  ///< shaped x packed
    const int* memberOffset;
    const int* memberRows;
};

/// FMD: one batch of rows whose distances to every live cluster are evaluated from the members.
/// Its rows are rows[0 .. rowCount), or, sized on the device, the first min(rowCount, *rowLimit); a
/// gated batch evaluates nothing unless the step is valid and no switch (a halted loop's empty step,
/// or the switch, whose all-pairs pass the host runs).
struct FmdBatch {
    const int* rows;      ///< slots of the rows (device)
    int rowCount;         ///< rows, or the most rows of a device-sized batch
    const int* rowLimit;  ///< null, or the device count of the rows
    int gated;
    int haltOnRest;     ///< the merge loop's rescans: a step with more rows, or the switch, halts the loop
    int chunks;         ///< member chunks per row in the member pass
    int tiles;          ///< 256-point tiles of perm
    int stage;          ///< member points staged in shared memory at a time (member pass)
    int laterOnly;      ///< only the rows' later partners (position after the row) are summed
    double* h1;         ///< [row][slot]: Σ over the slot's members of m(x, row)
    double* tileParts;  ///< [row][tile][2]: sums of segments crossing tile borders
    double* h2;         ///< [row][chunk][list index]: Σ over the row's members of m(x, cluster)
};

/// Threads of a block of the persistent CMD kernel (mhca_persistent_kernels.cuh), one block per
/// multiprocessor at most. 12 warps leave each thread 168 registers (16 warps: 128, and the merge
/// loop spilled); its chains of round trips want registers more than warps (docs/benchmarks.md).
constexpr int kPersistentThreads = 384;
/// Rescanned rows per pass of the persistent kernel (partials rowPart[i * blocks + block]).
constexpr int kRescanRowsPerPass = 16;
/// Entries of its phase profile (nanosecond sums of block 0): closest pair + plan, shape, new
/// distances, barrier S3, row update, barrier S4, rescans, their barriers; then the rescanned rows,
/// the merges timed, the time and count of bare barriers, the shape's member sums, factorisations
/// and rest; the rescan passes, the time and count of their final selections (any block), and block
/// 0's time in the passes' row loops; the parts of block 0's row update (grid minimum, commit, its
/// thread 0's rows, the wait for the block's other rows), the spread of the blocks' arrivals at
/// barrier S4 and the merges where block 0 arrived last; the blocks with rows whose partner was a or b
/// (summed over merges), the lazy rows, and the merges whose last block had such rows, or lazy ones;
/// the merges whose shape block 0 took from a speculation record, and the records written; block 0's
/// shape phase: its time in those merges, the team's time to load the record, the first selecting
/// warp's time (when it selected), the merged mean's time, and the merges it selected in; the last
/// warp's end of streaming in those merges, block 1's shape phase in them and their count there; the
/// merges where the speculating block arrived last at S4, and its arrival after the first block's;
/// the merges whose shape block 0 took from a growth record (mhca_growth_kernel.cuh); block 0's wait
/// for the count past the shape phase and the merges it waited in, its commit's time, and block 1's
/// wait and merges waited in; the speculating block's phases (kSpecPhaseProfile on: kPhaseSlots, its
/// merge count last); block 0's wait for the records in its shape team, and the speculating block's
/// time from its arrival at S4 to its record's release.
constexpr int kPersistentProfileSlots = 58;
/// Where the speculating block's phase sums start in the profile.
constexpr int kSpecPhaseProfile = 47;
/// Arrival stamps at barrier S4 (one per block, up to this many blocks) after the profile's sums, then
/// the blocks' counts of stale and lazy rows.
constexpr int kProfileStampSlots = 256;
/// The first 8 entries (the merge's phases and barrier waits) are also summed per block, with the
/// block's merge count last.
constexpr int kPhaseSlots = 9;

/// The entries of the persistent kernel's profile by name, in the order of the comment above:
/// nanosecond sums unless named a count (of merges, rows, blocks or records).
namespace persistent_profile {
enum Slot : int {
    // block 0's phases (kPhaseSlots - 1 of them, also summed per block); rescanned rows and merges timed
    kClosestPairAndPlan,
    kMergeShape,
    kNewDistances,
    kBarrierS3,
    kRowUpdate,
    kBarrierS4,
    kRescans,
    kRescanBarriers,
    kRescannedRows,
    kMerges,
    // bare grid barriers (time, count); the shape's parts (mergedShapeBlock's profile[0 .. 2])
    kBareBarrier,
    kBareBarriers,
    kShapeMemberSums,
    kShapeFactorisations,
    kShapeRest,
    // rescan passes (count), their final selections (time, rows) and block 0's row loops
    kRescanPasses,
    kRescanSelection,
    kRescanSelectedRows,
    kRescanRowLoops,
    // block 0's row update and the arrivals at barrier S4
    kRowGridMinimum,
    kRowCommit,
    kRowThreadZero,
    kRowOtherRows,
    kArrivalSpreadS4,
    kBlockZeroLastAtS4,
    // stale rows: blocks with rows whose partner was a or b, lazy rows, and the last block's
    kBlocksWithPartnerRows,
    kLazyRows,
    kLastBlockHadPartnerRows,
    kLastBlockHadLazyRows,
    // speculation records taken by block 0 and written; block 0's shape phase when it took one
    kSpeculatedTaken,
    kSpeculatedWritten,
    kShapeWhenSpeculated,
    kRecordLoaded,
    kSelectionDone,
    kMergedMean,
    kSelections,
    kStreamingDone,
    kBlockOneShapeSpeculated,
    kBlockOneSpeculatedMerges,
    // the speculating block at S4; growth records taken by block 0
    kSpeculatorLastAtS4,
    kSpeculatorArrivalAfterFirst,
    kGrowthTaken,
    // the count past the shape phase: waits of blocks 0 and 1 (time, merges) and block 0's commit
    kBlockZeroCountWait,
    kBlockZeroCountWaits,
    kBlockZeroCommit,
    kBlockOneCountWait,
    kBlockOneCountWaits,
    // the speculating block's phases (kPhaseSlots entries, its merge count last)
    kSpeculatorPhases,
    // block 0's wait for the records; the speculating block's S4 arrival to its record's release
    kBlockZeroRecordWait = kSpeculatorPhases + kPhaseSlots,
    kSpeculatorRecordRelease,
    kSlotCount
};
static_assert(kMerges == 9 && kSpeculatedTaken == 29 && kGrowthTaken == 41, "the kernel's entries");
static_assert(kSpeculatorPhases == kSpecPhaseProfile && kSlotCount == kPersistentProfileSlots,
              "every profile entry has a name");
}  // namespace persistent_profile

/// A merge's plan as the persistent CMD kernel publishes it for the growth kernel beside it
/// (mhca_growth_kernel.cuh): merge -1 none; valid 0 when the merge makes no growth record (no pair,
/// or a switch step).
struct PlanRecord {
    int merge;
    int a;
    int b;
    int sizeA;
    int sizeB;
    int valid;
};

/// Slots a growth kernel's nearest key holds (20 bits; mhca_growth_shared.cuh's nearestKey): the host
/// runs the growth kernel only up to this many points.
constexpr int kNearestSlots = 1 << 20;

/// What the persistent CMD kernel and the growth kernel beside it share (mhca_growth_kernel.cuh);
/// null `plans` when there is no growth kernel. The host resets plans, intents, records and stop before
/// each pair of launches; the nearest keys carry their merge's tag instead.
struct GrowthShared {
    PlanRecord* plans;            ///< [2] the speculating block's plan of each merge, by parity
    unsigned long long* nearest;  ///< [2][stride] each worker warp's nearest partner of the merged cluster
                                  ///< (nearestKey, tagged with the merge), by parity; any value at first
    int stride;                   ///< warps of the most blocks a launch has
    SpecShape* intents;           ///< [2] the pair of merge m the growth kernel shapes (fields a, b), by parity
    SpecShape* records;           ///< [2] its finished shapes, as speculation records
    double* payload;              ///< [2][specPayloadDoubles(d)]
    int* stop;                    ///< set when the persistent kernel ends its launch
};

/// Scratch and outcome of one launch of the persistent CMD kernel.
struct PersistentArgs {
    int merges;                   ///< merges to run in this launch
    int prologue;                 ///< rescan the rows already in the rescan list before the first merge
    int stageRows;                ///< member rows the shape area stages
    int areaDoubles;              ///< ShapeLayout{d, stageRows}.doubles()
    int streamEvictFirst;         ///< the shape phase and the rescans stream the metrics evict-first
                                  ///< (they exceed L2)
    int speculate;                ///< the last block shapes the likely next merge (mhca_persistent_speculation.cuh)
    int elideS3;                  ///< rows update without barrier S3 (mhca_row_journal.cuh; needs speculate and
                                  ///< an identity list)
    int oneGroup;                 ///< the run has a single group (no apriori groups)
    SpecShape* spec;              ///< [2] speculation records by merge parity
    double* specPayload;          ///< [2][specPayloadDoubles(d)] their shapes
    double* lazyPart;             ///< [blocks] the largest bound of each range's lazy rows (or kNoKey)
    RowTop* blockPart;            ///< [blocks] best candidate of each block's range (RowTop.best)
    RowTop* aPart;                ///< [blocks] the merged row's partial best over each range
    double* minPart;              ///< [blocks] smallest new key of each range
    RowTop* rowPart;              ///< [kRescanRowsPerPass * blocks] rescan partials
    unsigned int* rowCounter;     ///< [kRescanRowsPerPass] arrivals, zero between uses
    Candidate* rowFinal;          ///< [n] the rescanned rows' candidates for the next closest pair
    unsigned int* arrive;         ///< [2] without S3: blocks past the shape phase and blocks arrived at barrier S4,
                                  ///< each summed over the launch's merges
    int* shiftSeen;               ///< [2] a block saw a negative new key (without S3; zero between uses)
    double* journal;              ///< rowJournalDoubles(n): the row journal (without S3)
    int* status;                  ///< [0] merges completed, [1] stopped at a switch step (plan written),
                                  ///< [2] merges whose rows were updated again for a shift
    unsigned long long* profile;  ///< kPersistentProfileSlots sums, or null
    unsigned long long* blockProfile;  ///< [blocks][kPhaseSlots] phase sums of every block (with profile)
    GrowthShared growth;               ///< with the growth kernel beside (without S3 only), else plans null
};

/// One launch of the CMD group phase (mhca_group_kernels.cuh): a block per group. Group g's slots are
/// list[listStart[g] .. listStart[g + 1]), ascending; it makes listStart[g + 1] - listStart[g] - 1
/// merges, recorded from index listStart[g] - g on.
struct GroupPhaseArgs {
    int groups;                       ///< groups of this launch (order[0 .. groups))
    const int* order;                 ///< the groups in the order blocks take them
    const int* listStart;             ///< [all groups + 1]
    Step* steps;                      ///< [all groups]
    int* mergeCounts;                 ///< [all groups] merges made
    int* shiftCounts;                 ///< [all groups] key shifts logged
    int* rescanCounts;                ///< [all groups]
    int* next;                        ///< next entry of order to take (zero at launch)
    int* failed;                      ///< set when a group met a step the kernel does not take (never when admitted)
    int stageRows;                    ///< member rows the shape area stages
    int areaDoubles;                  ///< dynamic shared memory in doubles
    unsigned long long* nanoseconds;  ///< [all groups] time each group took, or null (profile)
    RowTop* rowParts;                 ///< [all groups][warps of a block] a row's best per warp
};

/// Every part of the engine's state, for the kernels that run whole merges (the persistent CMD kernel,
/// the growth kernel beside it and the group phase). The per-stage kernels take only the parts they
/// read or write.
struct MhcaView {
    MhcaConfig cfg;
    ClusterView clusters;
    NearestRowView nearest;
    MergeLogView mergeLog;
    MergeScratchView scratch;
    VisitedListView visited;
};

}  // namespace clusterlens::cuda::mhca
