#pragma once
// The two ways mhclust starts (tsieger/mhca R/mhclust.R): from single points, or from apriori groups
// that are first clustered on their own (gIntra = TRUE) and then merged as clusters.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "mhca_agglomerate.hpp"
#include "mhca_parallel.hpp"

namespace clusterlens::mhca {

/// Clusters the data rows `rows` (in this order) from single points, weighting clusters by their size
/// over threshold·nFull. Returns rows.size()-1 merges with local ids: leaf k is rows[k], merge t
/// creates rows.size()+t.
std::vector<Merge> clusterPoints(const double* x, std::size_t d, std::vector<std::int32_t> rows,
                                 const MhcaOptions& options, std::size_t nFull, WorkerPool& pool,
                                 ProgressTracker& progress);

/// mhclust with apriori groups (options.apriori, n ids). Returns nothing when mhclust would ignore
/// the groups: no positive id, one group holding every point, or only groups of one point.
std::optional<Linkage> clusterWithApriori(const double* x, std::size_t n, std::size_t d, const MhcaOptions& options,
                                          WorkerPool& pool, ProgressTracker& progress);

/// An apriori group: its data rows (ascending), once clustered its merges with local ids (leaf k is
/// rows[k], merge t creates rows.size()+t), and the first index of its merges among all groups' merges.
struct GroupRun {
    std::vector<std::int32_t> rows;
    std::vector<Merge> merges;
    std::size_t offset = 0;
};

/// mhclust.R's groups (gt, gIntra = TRUE): the groups of >= 2 points of `ids` (n entries; 0 and less:
/// no group) by ascending id, with their offsets; nothing when mhclust ignores the groups (no positive
/// id, one group holding every point, or only groups of one point). O(n log n).
std::optional<std::vector<GroupRun>> aprioriGroups(const std::vector<std::int32_t>& ids, std::size_t n);

/// The stitching of the groups' linkages into one, as mhclust.R does it: the merges of every clustered
/// group, interleaved by orderStrata over their heights, become linkage.merges[0 .. Σ(rows - 1)) with
/// global ids (points by index, merges from n on). Returns each group's cluster id (its last merge's).
/// Both mhcaCpu and mhcaCuda stitch with this.
std::vector<std::int64_t> placeGroupMerges(const std::vector<GroupRun>& groups, std::size_t n, Linkage& linkage);

/// An apriori group as one cluster of the top level, shaped as mhclust.R does it in R: R's colMeans, cov
/// and det (DeterminantRule::Lu); a group of two points gets weight 0 and the identity covariance.
/// centroid: d values; invcov: d×d Σ'^-1. O(|group|·d² + d³).
struct GroupShape {
    std::vector<double> centroid;
    std::vector<double> invcov;
    double nmf = 1.0;
    double weight = 0.0;
};
GroupShape groupShape(const GroupRun& group, const double* x, std::size_t n, std::size_t d, const MhcaOptions& options);

/// mhca's orderStrata ('log' method): an order of `values` sorted increasingly that keeps the order
/// inside each stratum (strata are consecutive ranges [starts[s], starts[s+1]), the last ending at
/// values.size()). Strata are merged pairwise (1 with 2, 3 with 4, ...) and again until one is
/// left; on ties the earlier stratum comes first.
std::vector<std::size_t> orderStrata(const std::vector<double>& values, const std::vector<std::size_t>& starts);

}  // namespace clusterlens::mhca
