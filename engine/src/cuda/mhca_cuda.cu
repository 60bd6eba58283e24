// mhcaCuda: input checks, the run from single points, and mhclust.R's apriori groups (gIntra = TRUE)
// as mhcaCpu does them (mhca_runs.cpp): all groups are clustered at once on the device, each with
// its own mhclust.c bookkeeping and no pair across groups (CMD groups below the threshold: a block
// per group; otherwise one merge loop over all groups); their merges are interleaved by
// orderStrata; then groups and ungrouped points are clustered as clusters.

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/mhca_cuda.hpp"
#include "cpu/mhca_parallel.hpp"
#include "cpu/mhca_runs.hpp"
#include "cpu/mhca_rules.hpp"
#include "cuda/mhca_engine.cuh"
#include "cuda/mhca_phase_times.hpp"
#include "cuda/util/current_device.cuh"
#include "cuda/util/left_work.cuh"
#include "cuda/mhca_types.cuh"
#include "share_group.hpp"

namespace clusterlens {
namespace {

using cuda::mhca::InitialCluster;
using cuda::mhca::MergeProgress;
using cuda::mhca::MergeRecord;
using cuda::mhca::MhcaEngine;
using cuda::mhca::PhaseTimes;

using Group = mhca::GroupRun;

/// The group as one top-level cluster (mhca_runs.cpp's groupShape, as mhcaCpu shapes it).
InitialCluster groupCluster(const Group& group, int start, const double* x, std::size_t n, std::size_t d,
                            const MhcaOptions& options) {
    mhca::GroupShape shape = mhca::groupShape(group, x, n, d, options);
    InitialCluster c;
    c.centroid = std::move(shape.centroid);
    c.weight = shape.weight;
    c.nmf = shape.nmf;
    c.invcov = std::move(shape.invcov);
    c.members = group.rows;
    c.slot = group.rows.front();
    c.start = start;
    return c;
}

/// The merges of each group with local ids, from the records of the group phase (joint ids).
void splitGroupMerges(const std::vector<MergeRecord>& records, std::vector<Group>& groups, std::size_t n) {
    std::vector<int> localOfPoint(n, -1);
    for (const Group& g : groups)
        for (std::size_t k = 0; k < g.rows.size(); ++k)
            localOfPoint[static_cast<std::size_t>(g.rows[k])] = static_cast<int>(k);
    std::vector<std::int64_t> localOfMerge(records.size());
    for (std::size_t m = 0; m < records.size(); ++m) {
        const MergeRecord& r = records[m];
        Group& g = groups[static_cast<std::size_t>(r.group)];
        auto local = [&](int id) -> std::int64_t {
            return static_cast<std::size_t>(id) < n ? localOfPoint[static_cast<std::size_t>(id)]
                                                    : localOfMerge[static_cast<std::size_t>(id) - n];
        };
        Merge merge;
        merge.a = std::min(local(r.a), local(r.b));
        merge.b = std::max(local(r.a), local(r.b));
        merge.height = r.height;
        merge.size = r.size;
        localOfMerge[m] = static_cast<std::int64_t>(g.rows.size() + g.merges.size());
        g.merges.push_back(merge);
    }
}

/// The apriori groups of two points or more (ascending id) and the ungrouped points; each of those a
/// group of the device run.
struct AprioriLayout {
    std::vector<Group> groups;
    std::vector<int> groupOf;              ///< per point: its group of the device run
    std::vector<std::int32_t> singletons;  ///< the ungrouped points, ascending
    int groupCount = 0;                    ///< groups and ungrouped points
    std::size_t groupMerges = 0;           ///< merges inside the groups
};

/// The groups of options.apriori, or nothing when mhclust ignores them (no positive id, one group
/// holding every point, or only groups of one point).
std::optional<AprioriLayout> aprioriLayout(const std::vector<std::int32_t>& apriori, std::size_t n) {
    std::optional<std::vector<Group>> groups = mhca::aprioriGroups(apriori, n);
    if (!groups) return std::nullopt;
    AprioriLayout a;
    a.groups = std::move(*groups);
    a.groupOf.assign(n, -1);
    for (std::size_t k = 0; k < a.groups.size(); ++k) {
        for (std::int32_t r : a.groups[k].rows) a.groupOf[static_cast<std::size_t>(r)] = static_cast<int>(k);
        a.groupMerges += a.groups[k].rows.size() - 1;
    }
    a.groupCount = static_cast<int>(a.groups.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (a.groupOf[i] >= 0) continue;
        a.singletons.push_back(static_cast<std::int32_t>(i));
        a.groupOf[i] = a.groupCount++;
    }
    return a;
}

/// Where the group phase keeps each point. CMD permutes the points so that each group's slots are
/// contiguous (group by group in id order, ascending within, then the ungrouped points): a group's
/// cluster arrays are then read coalesced, and the group kernel takes a group as a range of slots. The
/// merge records name points by their index (slot ids); FMD keeps the identity.
struct SlotLayout {
    bool permuted = false;
    std::vector<int> pointOfSlot, slotOf, groupOfSlot;
    std::vector<int> listStart;     ///< permuted: group g's slots are [listStart[g], listStart[g + 1])
    std::size_t largest = 0;        ///< permuted: the largest group's points
    std::vector<double> permutedX;  ///< permuted: the points in slot order
};

SlotLayout slotLayout(const AprioriLayout& a, const double* x, std::size_t n, std::size_t d, bool permuted) {
    SlotLayout s;
    s.permuted = permuted;
    s.pointOfSlot.resize(n);
    s.slotOf.resize(n);
    if (permuted) {
        std::size_t next = 0;
        for (const Group& g : a.groups) {
            s.listStart.push_back(static_cast<int>(next));
            s.largest = std::max(s.largest, g.rows.size());
            for (std::int32_t r : g.rows) s.pointOfSlot[next++] = r;
        }
        s.listStart.push_back(static_cast<int>(next));
        for (std::int32_t r : a.singletons) s.pointOfSlot[next++] = r;
    } else {
        std::iota(s.pointOfSlot.begin(), s.pointOfSlot.end(), 0);
    }
    for (std::size_t slot = 0; slot < n; ++slot)
        s.slotOf[static_cast<std::size_t>(s.pointOfSlot[slot])] = static_cast<int>(slot);
    if (permuted) {
        s.permutedX.resize(n * d);
        for (std::size_t slot = 0; slot < n; ++slot)
            std::copy(x + static_cast<std::size_t>(s.pointOfSlot[slot]) * d,
                      x + static_cast<std::size_t>(s.pointOfSlot[slot] + 1) * d,
                      s.permutedX.begin() + static_cast<std::ptrdiff_t>(slot * d));
    }
    s.groupOfSlot.resize(n);
    for (std::size_t slot = 0; slot < n; ++slot)
        s.groupOfSlot[slot] = a.groupOf[static_cast<std::size_t>(s.pointOfSlot[slot])];
    return s;
}

/// The top level's clusters: the groups in ascending id order (their shapes, O(n·d²) in all, on every
/// host core), then the ungrouped points (mhca_runs.cpp).
std::vector<InitialCluster> topLevelClusters(const AprioriLayout& a, const SlotLayout& s, const std::vector<int>& perm,
                                             const std::vector<std::int64_t>& groupIds, const double* x, std::size_t n,
                                             std::size_t d, const MhcaOptions& options) {
    std::vector<int> position(n, 0);
    for (std::size_t p = 0; p < perm.size(); ++p) position[static_cast<std::size_t>(perm[p])] = static_cast<int>(p);
    std::vector<InitialCluster> clusters(a.groups.size());
    mhca::WorkerPool pool;
    pool.parallelFor(a.groups.size(), 8, [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k) {
            const Group& g = a.groups[k];
            const int start = position[static_cast<std::size_t>(s.slotOf[static_cast<std::size_t>(g.rows.front())])];
            InitialCluster c = groupCluster(g, start, x, n, d, options);
            c.id = groupIds[k];
            c.slot = s.slotOf[static_cast<std::size_t>(g.rows.front())];
            for (std::int32_t& member : c.members) member = s.slotOf[static_cast<std::size_t>(member)];
            clusters[k] = std::move(c);
        }
    });
    for (std::int32_t point : a.singletons) {
        InitialCluster c;
        c.slot = s.slotOf[static_cast<std::size_t>(point)];
        c.start = position[static_cast<std::size_t>(c.slot)];
        c.members = {c.slot};
        c.centroid.assign(x + static_cast<std::size_t>(point) * d, x + static_cast<std::size_t>(point + 1) * d);
        c.id = point;
        clusters.push_back(std::move(c));
    }
    return clusters;
}

/// The top level's initial distances: normalised when `normalize` or some cluster is below the
/// threshold (then the identity with euclid), as mhclust.R calls computeMahalDistMat.
int topLevelMode(const std::vector<InitialCluster>& clusters, std::size_t n, const MhcaOptions& options) {
    std::size_t full = 0;
    for (const InitialCluster& c : clusters)
        if (mhca::reachesThreshold(static_cast<long long>(c.members.size()), static_cast<long long>(n),
                                   options.threshold))
            ++full;
    return cuda::mhca::distanceModeCode(
        mhca::distanceModeFor(options.normalize, full < clusters.size(), options.subthreshold));
}

/// The group kernel's merges on options.cudaDevices: `engine` (on the calling thread's device, the
/// first) and an engine of the same points on each other device, each running a share of the groups
/// about equal in work (groups largest first, each to the share with the least Σ k² so far), each on
/// a host thread of its own. A group's records lie at its merge offset whichever device ran it, and
/// do not depend on the groups run beside it, so the merges are those of one device.
std::vector<MergeRecord> groupsOnDevices(MhcaEngine& engine, const SlotLayout& s, int groupCount, std::size_t n,
                                         std::size_t d, const MhcaOptions& options, MergeProgress& progress) {
    const std::vector<int>& devices = options.cudaDevices;
    if (devices.size() <= 1) return engine.runGroups(s.listStart, progress);
    const auto sizeOf = [&](int g) {
        return static_cast<double>(s.listStart[static_cast<std::size_t>(g) + 1] -
                                   s.listStart[static_cast<std::size_t>(g)]);
    };
    std::vector<int> bySize(s.listStart.size() - 1);
    std::iota(bySize.begin(), bySize.end(), 0);
    std::stable_sort(bySize.begin(), bySize.end(), [&](int a, int b) { return sizeOf(a) > sizeOf(b); });
    std::vector<std::vector<int>> share(devices.size());
    std::vector<double> work(devices.size(), 0.0);
    for (int g : bySize) {
        const auto k = static_cast<std::size_t>(std::min_element(work.begin(), work.end()) - work.begin());
        share[k].push_back(g);
        work[k] += sizeOf(g) * sizeOf(g);
    }
    MhcaOptions alone = options;
    alone.probe = nullptr;  // (the first device's engine fills the probe)
    int first = 0;
    CL_CUDA_TRY(cudaGetDevice(&first));
    // A group's cluster ends in the slot of its first point, listStart[g] (topLevelClusters' slot).
    std::vector<std::vector<int>> slots(devices.size());
    for (std::size_t k = 0; k < devices.size(); ++k)
        for (int g : share[k]) slots[k].push_back(s.listStart[static_cast<std::size_t>(g)]);
    std::vector<std::vector<MergeRecord>> records(devices.size());
    std::vector<cuda::mhca::SlotShapes> shapes(devices.size());
    detail::ShardTeam team(devices.size());
    team.run([&](std::size_t k) {
        CL_CUDA_TRY(cudaSetDevice(k == 0 ? first : devices[k]));
        MergeProgress mine(progress, &team);  // (its event belongs to the device)
        if (k == 0) {
            records[0] = engine.runGroups(s.listStart, mine, share[0]);  // (never empty: it takes the largest)
            return;
        }
        if (share[k].empty()) return;  // more devices than groups
        MhcaEngine other(s.permutedX.data(), n, d, alone);
        other.startFromPoints(s.groupOfSlot, groupCount, s.pointOfSlot, false);
        records[k] = other.runGroups(s.listStart, mine, share[k]);
        shapes[k] = other.slotShapes(slots[k]);
    });
    // The first engine takes the other devices' groups: their records, and the sizes and scatter
    // matrices their clusters leave in their slots for the top level.
    std::vector<MergeRecord> merged = std::move(records[0]);
    for (std::size_t k = 1; k < devices.size(); ++k) {
        for (int g : share[k]) {
            const auto from = static_cast<std::ptrdiff_t>(s.listStart[static_cast<std::size_t>(g)] - g);
            const auto to = static_cast<std::ptrdiff_t>(s.listStart[static_cast<std::size_t>(g) + 1] - g - 1);
            std::copy(records[k].begin() + from, records[k].begin() + to, merged.begin() + from);
        }
        engine.setSlotShapes(slots[k], shapes[k]);
    }
    return merged;
}

std::optional<Linkage> clusterWithApriori(const double* x, std::size_t n, std::size_t d, const MhcaOptions& options,
                                          MergeProgress& progress) {
    PhaseTimes times("apriori", options.probe);
    std::optional<AprioriLayout> found = aprioriLayout(options.apriori, n);
    if (!found) return std::nullopt;
    AprioriLayout& a = *found;
    const SlotLayout s = slotLayout(a, x, n, d, options.variant != MhcaVariant::Full);

    times.mark("groups and permutation");
    MhcaEngine engine(s.permuted ? s.permutedX.data() : x, n, d, options);
    times.mark("device arrays");
    const bool groupKernel = s.permuted && engine.groupPhaseFits(s.largest);
    engine.startFromPoints(s.groupOfSlot, a.groupCount, s.pointOfSlot, !groupKernel);
    times.mark("start");
    const std::vector<MergeRecord> records = groupKernel
                                                 ? groupsOnDevices(engine, s, a.groupCount, n, d, options, progress)
                                                 : engine.run(a.groupMerges, progress);
    times.mark("group phase");
    splitGroupMerges(records, a.groups, n);

    Linkage linkage;
    linkage.leafCount = n;
    linkage.merges.resize(n - 1);
    const std::vector<std::int64_t> groupIds = mhca::placeGroupMerges(a.groups, n, linkage);
    const std::vector<InitialCluster> clusters =
        topLevelClusters(a, s, engine.initialPerm(), groupIds, x, n, d, options);
    const int mode = topLevelMode(clusters, n, options);
    times.mark("merge order and group shapes");
    engine.startFromClusters(clusters, mode, static_cast<int>(n + a.groupMerges));
    times.mark("top-level start");
    const std::vector<MergeRecord> top = engine.run(clusters.size() - 1, progress);
    times.mark("top level");
    for (std::size_t t = 0; t < top.size(); ++t) {
        Merge& merge = linkage.merges[a.groupMerges + t];
        merge.a = top[t].a;
        merge.b = top[t].b;
        merge.height = top[t].height;
        merge.size = top[t].size;
    }
    return linkage;
}

}  // namespace

Linkage mhcaCuda(const double* x, std::size_t n, std::size_t d, const MhcaOptions& options, JobControl* control) {
    validateMhcaInput(x, n, d, options);
    if (!cudaAvailable()) throw CudaError("MHCA on CUDA: no CUDA device is available on this machine");
    if (control) control->checkCancelled();
    cuda::checkDevices(options.cudaDevices);
    const cuda::CurrentDevice device(options.cudaDevices.empty() ? -1 : options.cudaDevices.front());
    MergeProgress progress(control, n - 1);  // (after the device is chosen: its event belongs to it)
    cuda::waitForLeftWork(control);          // (also done by runOnBackend: this entry is public)
    if (!options.apriori.empty()) {
        if (auto linkage = clusterWithApriori(x, n, d, options, progress)) return *linkage;
    }
    PhaseTimes times("plain", options.probe);
    std::vector<MergeRecord> records;
    {
        MhcaEngine engine(x, n, d, options);
        times.mark("device arrays");
        progress.check();
        engine.startFromPoints(std::vector<int>(n, 0), 1);
        times.mark("start");
        progress.check();
        records = engine.run(n - 1, progress);
        times.mark("merges");
    }
    times.mark("teardown");
    Linkage linkage;
    linkage.leafCount = n;
    linkage.merges.resize(n - 1);
    for (std::size_t m = 0; m + 1 < n; ++m) {
        linkage.merges[m].a = records[m].a;
        linkage.merges[m].b = records[m].b;
        linkage.merges[m].height = records[m].height;
        linkage.merges[m].size = records[m].size;
    }
    return linkage;
}

}  // namespace clusterlens
