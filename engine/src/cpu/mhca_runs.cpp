#include "mhca_runs.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <numeric>

#include "mhca_clusters.hpp"
#include "mhca_linalg.hpp"
#include "cpu/mhca_rules.hpp"

namespace clusterlens::mhca {

namespace {

/// Singletons made between two cancellation checks (~1 ms of work).
constexpr std::size_t kSetupCheckEvery = 65536;

AgglomerationParams paramsFor(const MhcaOptions& options, std::size_t nFull, std::int64_t firstNewId) {
    AgglomerationParams params;
    params.variant = options.variant;
    params.subthreshold = options.subthreshold;
    params.normalize = options.normalize;
    params.threshold = options.threshold;
    params.nFull = nFull;
    params.firstNewId = firstNewId;
    return params;
}

}  // namespace

std::vector<Merge> clusterPoints(const double* x, std::size_t d, std::vector<std::int32_t> rows,
                                 const MhcaOptions& options, std::size_t nFull, WorkerPool& pool,
                                 ProgressTracker& progress) {
    const std::size_t m = rows.size();
    ClusterSet clusters(x, d, std::move(rows), m);
    std::vector<std::int32_t> live(m);
    for (std::size_t k = 0; k < m; ++k) {
        if (k % kSetupCheckEvery == 0) progress.checkCancelled();
        clusters.makeSingleton(k, static_cast<std::int32_t>(k), static_cast<std::int64_t>(k));
        live[k] = static_cast<std::int32_t>(k);
    }
    std::vector<Merge> merges;
    merges.reserve(m > 0 ? m - 1 : 0);
    agglomerate(clusters, std::move(live), paramsFor(options, nFull, static_cast<std::int64_t>(m)), pool, progress,
                merges);
    return merges;
}

namespace {

/// Apriori groups of at least this many points spread each merge over the pool; smaller ones are
/// clustered side by side, one per thread.
constexpr std::size_t kSplitGroupFrom = 4096;

/// mhca's orderVectors: merges two lists, taking from the first while its head is not larger.
std::vector<std::size_t> mergeOrdered(const std::vector<double>& values, const std::vector<std::size_t>& first,
                                      const std::vector<std::size_t>& second) {
    std::vector<std::size_t> out;
    out.reserve(first.size() + second.size());
    std::size_t i = 0, j = 0;
    while (i < first.size() && j < second.size())
        out.push_back(values[first[i]] <= values[second[j]] ? first[i++] : second[j++]);
    out.insert(out.end(), first.begin() + static_cast<std::ptrdiff_t>(i), first.end());
    out.insert(out.end(), second.begin() + static_cast<std::ptrdiff_t>(j), second.end());
    return out;
}

using Group = GroupRun;

/// The apriori group as one cluster of the top level (groupShape).
void makeGroupCluster(ClusterSet& clusters, std::size_t slot, const Group& group, std::int64_t id, const double* x,
                      std::size_t d, const MhcaOptions& options, std::size_t n) {
    const GroupShape shape = groupShape(group, x, n, d, options);
    clusters.makeCluster(slot, group.rows, id, shape.centroid.data(), shape.invcov.data(), shape.nmf, shape.weight);
}

}  // namespace

std::vector<std::size_t> orderStrata(const std::vector<double>& values, const std::vector<std::size_t>& starts) {
    std::vector<std::vector<std::size_t>> lists;
    for (std::size_t s = 0; s < starts.size(); ++s) {
        const std::size_t end = s + 1 < starts.size() ? starts[s + 1] : values.size();
        std::vector<std::size_t> list(end - starts[s]);
        std::iota(list.begin(), list.end(), starts[s]);
        lists.push_back(std::move(list));
    }
    if (lists.empty()) return {};
    while (lists.size() > 1) {
        std::vector<std::vector<std::size_t>> next;
        for (std::size_t i = 0; i < lists.size(); i += 2)
            next.push_back(i + 1 < lists.size() ? mergeOrdered(values, lists[i], lists[i + 1]) : std::move(lists[i]));
        lists = std::move(next);
    }
    return lists.front();
}

std::optional<std::vector<GroupRun>> aprioriGroups(const std::vector<std::int32_t>& ids, std::size_t n) {
    std::map<std::int32_t, std::vector<std::int32_t>> byId;
    for (std::size_t i = 0; i < n; ++i)
        if (ids[i] > 0) byId[ids[i]].push_back(static_cast<std::int32_t>(i));
    const bool allSingle = std::all_of(byId.begin(), byId.end(), [](const auto& kv) { return kv.second.size() == 1; });
    if (byId.empty() || byId.begin()->second.size() == n || allSingle) return std::nullopt;
    std::vector<GroupRun> groups;
    std::size_t offset = 0;
    for (auto& [id, rows] : byId) {
        if (rows.size() < 2) continue;
        GroupRun g;
        g.rows = std::move(rows);
        g.offset = offset;
        offset += g.rows.size() - 1;
        groups.push_back(std::move(g));
    }
    return groups;
}

GroupShape groupShape(const GroupRun& group, const double* x, std::size_t n, std::size_t d,
                      const MhcaOptions& options) {
    const std::size_t m = group.rows.size();
    std::vector<double> rows(m * d), cov(d * d), work(d * d), means(d);
    for (std::size_t k = 0; k < m; ++k)
        std::copy(x + static_cast<std::size_t>(group.rows[k]) * d, x + static_cast<std::size_t>(group.rows[k] + 1) * d,
                  rows.begin() + static_cast<std::ptrdiff_t>(k * d));
    GroupShape shape;
    shape.centroid.resize(d);
    shape.invcov.resize(d * d);
    columnMeansR(rows.data(), m, d, shape.centroid.data());
    shape.weight = clusterWeight(static_cast<long long>(m), static_cast<long long>(n), options.threshold);
    if (m <= 2) {
        setIdentity(cov.data(), d);
    } else {
        sampleCovarianceR(rows.data(), m, d, cov.data(), means.data());
    }
    shape.nmf = clusterShape(cov.data(), d, shape.weight, options.subthreshold, DeterminantRule::Lu,
                             shape.invcov.data(), work.data());
    return shape;
}

std::vector<std::int64_t> placeGroupMerges(const std::vector<GroupRun>& groups, std::size_t n, Linkage& linkage) {
    std::vector<double> heights;
    std::vector<std::size_t> starts;
    for (const GroupRun& g : groups) {
        starts.push_back(heights.size());
        for (const Merge& m : g.merges) heights.push_back(m.height);
    }
    const std::vector<std::size_t> order = orderStrata(heights, starts);
    std::vector<std::size_t> rank(order.size());
    for (std::size_t r = 0; r < order.size(); ++r) rank[order[r]] = r;

    const auto nId = static_cast<std::int64_t>(n);
    std::vector<std::int64_t> groupIds;
    for (const GroupRun& g : groups) {
        const auto m = static_cast<std::int64_t>(g.rows.size());
        auto globalId = [&](std::int64_t local) -> std::int64_t {
            return local < m ? g.rows[static_cast<std::size_t>(local)]
                             : nId + static_cast<std::int64_t>(rank[g.offset + static_cast<std::size_t>(local - m)]);
        };
        for (std::size_t t = 0; t < g.merges.size(); ++t) {
            Merge merge = g.merges[t];
            const std::int64_t a = globalId(merge.a), b = globalId(merge.b);
            merge.a = std::min(a, b);
            merge.b = std::max(a, b);
            linkage.merges[rank[g.offset + t]] = merge;
        }
        groupIds.push_back(nId + static_cast<std::int64_t>(rank[g.offset + g.merges.size() - 1]));
    }
    return groupIds;
}

namespace {

/// Clusters every group alone and places its merges in the rows given by orderStrata over all groups'
/// heights, translating local ids (points, then the group's own merges) to global ones. Returns, per
/// group, the global id of its whole cluster.
std::vector<std::int64_t> clusterInsideGroups(std::vector<Group>& groups, const double* x, std::size_t n, std::size_t d,
                                              const MhcaOptions& options, WorkerPool& pool, ProgressTracker& progress,
                                              Linkage& linkage) {
    // Large groups one after another, each merge's distances spread over the pool; the others side by
    // side, one per thread (a few hundred points give a merge too little work to split). A group's
    // merges do not depend on how its distances were spread.
    std::vector<std::size_t> small;
    for (std::size_t k = 0; k < groups.size(); ++k) {
        if (groups[k].rows.size() >= kSplitGroupFrom || pool.threadCount() == 1) {
            groups[k].merges = clusterPoints(x, d, groups[k].rows, options, n, pool, progress);
        } else {
            small.push_back(k);
        }
    }
    std::mutex progressMutex;
    pool.parallelFor(small.size(), 1, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            Group& g = groups[small[i]];
            WorkerPool single(1);
            ProgressTracker own = ProgressTracker::cancelOnly(progress.control());
            g.merges = clusterPoints(x, d, g.rows, options, n, single, own);
            const std::lock_guard<std::mutex> lock(progressMutex);
            progress.advance(g.merges.size());
        }
    });
    return placeGroupMerges(groups, n, linkage);
}

}  // namespace

/// mhclust.R with g and gIntra = TRUE: (1) every group of >= 2 points is clustered alone (weights
/// still relative to the whole dataset), (2) the groups' merges are interleaved by orderStrata and get
/// the first ids, (3) groups and ungrouped points are clustered as clusters, the groups first in
/// ascending id order, with initial distances normalised when `normalize` or some cluster is below
/// the threshold (then I for every cluster with euclid), as computeMahalDistMat is called there.
std::optional<Linkage> clusterWithApriori(const double* x, std::size_t n, std::size_t d, const MhcaOptions& options,
                                          WorkerPool& pool, ProgressTracker& progress) {
    std::optional<std::vector<Group>> found = aprioriGroups(options.apriori, n);
    if (!found) return std::nullopt;
    std::vector<Group>& groups = *found;
    Linkage linkage;
    linkage.leafCount = n;
    linkage.merges.resize(n - 1);
    const std::vector<std::int64_t> groupIds = clusterInsideGroups(groups, x, n, d, options, pool, progress, linkage);
    std::size_t groupMerges = 0;
    for (const Group& g : groups) groupMerges += g.rows.size() - 1;

    std::vector<char> grouped(n, 0);
    for (const Group& g : groups)
        for (std::int32_t r : g.rows) grouped[static_cast<std::size_t>(r)] = 1;
    std::vector<std::int32_t> singletons;
    for (std::size_t i = 0; i < n; ++i)
        if (!grouped[i]) singletons.push_back(static_cast<std::int32_t>(i));
    std::vector<std::int32_t> identityRows(n);
    std::iota(identityRows.begin(), identityRows.end(), 0);
    const std::size_t slots = groups.size() + singletons.size();
    ClusterSet clusters(x, d, std::move(identityRows), slots);
    for (std::size_t s = 0; s < groups.size(); ++s)
        makeGroupCluster(clusters, s, groups[s], groupIds[s], x, d, options, n);
    for (std::size_t k = 0; k < singletons.size(); ++k)
        clusters.makeSingleton(groups.size() + k, singletons[k], singletons[k]);

    std::size_t full = 0;
    for (std::size_t s = 0; s < slots; ++s)
        if (reachesThreshold(clusters.size(s), static_cast<long long>(n), options.threshold)) ++full;
    const DistanceMode initial = distanceModeFor(options.normalize, full < slots, options.subthreshold);
    std::vector<std::int32_t> live(slots);
    for (std::size_t s = 0; s < slots; ++s) {
        clusters.setStamp(s, -1, initial);
        live[s] = static_cast<std::int32_t>(s);
    }
    std::vector<Merge> top;
    agglomerate(clusters, std::move(live), paramsFor(options, n, static_cast<std::int64_t>(n + groupMerges)), pool,
                progress, top);
    std::copy(top.begin(), top.end(), linkage.merges.begin() + static_cast<std::ptrdiff_t>(groupMerges));
    return linkage;
}

}  // namespace clusterlens::mhca
