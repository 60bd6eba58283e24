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

/// mhca's orderStrata ('log' method): an order of `values` sorted increasingly that keeps the order
/// inside each stratum (strata are consecutive ranges [starts[s], starts[s+1]), the last ending at
/// values.size()). Strata are merged pairwise (1 with 2, 3 with 4, ...) and again until one is
/// left; on ties the earlier stratum comes first.
std::vector<std::size_t> orderStrata(const std::vector<double>& values, const std::vector<std::size_t>& starts);

}  // namespace clusterlens::mhca
