#pragma once
// Per-cluster summaries of marker expression for clustermaps: the median of each chosen feature
// in each cluster, and the per-marker scaling that makes markers of different ranges comparable
// on one colour scale.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

/// Medians of `columns` per cluster: `clusters` x `columns` values, row-major.
struct ClusterMedians {
    std::size_t clusters = 0;
    std::size_t columns = 0;
    std::vector<double> values;       ///< clusters*columns; NaN for a cluster without points
    std::vector<std::int64_t> sizes;  ///< points per cluster

    double at(std::size_t cluster, std::size_t column) const { return values[cluster * columns + column]; }
};

/// Median of each of `columns` of `data` over the points of each cluster 0..clusterCount-1
/// (labels[i] is the cluster of point i; labels outside that range, such as -1 for small clusters
/// or noise, are left out). An even count gives the mean of the two middle values (numpy's
/// median). O(N·F) expected time (one selection per cluster and column), O(N) extra memory.
/// Throws InvalidInput when labels.size() != data.n or a column is out of range; Cancelled when
/// `control` is cancelled.
ClusterMedians clusterMedians(const Dataset& data, std::span<const std::size_t> columns,
                              std::span<const std::int32_t> labels, std::size_t clusterCount,
                              JobControl* control = nullptr);

enum class MarkerScaling {
    ZScore,  ///< (v - mean) / standard deviation over the clusters; a constant marker gives 0
    MinMax,  ///< (v - min) / (max - min) over the clusters, in [0, 1]; a constant marker gives 0.5
};

/// Scales every column of a rows x columns matrix (row-major) over its rows, as `scaling` says,
/// so that each marker spans the colour scale of a clustermap. NaN entries are skipped and stay
/// NaN. The standard deviation divides by the number of finite entries. O(rows·columns).
std::vector<double> scalePerColumn(std::span<const double> matrix, std::size_t rows, std::size_t columns,
                                   MarkerScaling scaling);

}  // namespace clusterlens
