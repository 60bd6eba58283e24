#pragma once
// Per-cluster and per-subtree summaries of a dendrogram over the dataset it was computed from:
// size, height and the mean of each active feature. Means need the dataset rows the leaves stand
// for, so they exist only when the tree has as many leaves as the dataset has points.

#include <QStringList>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "clusterlens/job_control.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_layout.hpp"

namespace clusterlens::views {

/// The dataset features whose means are shown (the active features of the dataset panel).
struct FeatureSelection {
    std::shared_ptr<const Dataset> dataset;
    std::vector<std::size_t> columns;
    QStringList names;

    /// True when there are features and the dataset has one row per leaf of `layout`.
    bool fits(const DendrogramLayout& layout) const {
        return dataset && !columns.empty() && dataset->n == layout.leafCount;
    }
};

/// Resolves feature names to columns of `dataset`, dropping names it does not have.
FeatureSelection selectFeatures(std::shared_ptr<const Dataset> dataset, const QStringList& names);

struct ClusterSummary {
    int id = 0;
    int population = 0;         ///< population number; -1 for a small cluster (DendrogramCut::colourOf)
    std::int32_t root = 0;      ///< node of the cluster
    std::int64_t size = 0;      ///< points
    double height = 0.0;        ///< merge height of the root (0 for a single point)
    std::vector<double> means;  ///< one per selected feature; empty when the features do not fit
};

struct ClusterTable {
    QStringList features;  ///< names of the mean columns (empty when the features do not fit)
    std::vector<ClusterSummary> clusters;
};

/// One row per cluster of `cut`. O(N·F) for F selected features (one pass over the rows); polls
/// `control`.
ClusterTable summarizeCut(const DendrogramLayout& layout, const DendrogramCut& cut, const FeatureSelection& features,
                          JobControl* control = nullptr);

/// The name of cluster `id` of a cut, whose population number is `population` (DendrogramCut::colourOf),
/// as the cluster table and the hover texts show it: "cluster p", or "small (cluster id)" for a small
/// cluster (population -1).
QString cutClusterName(int id, int population);

/// Means of the selected features over the leaves of `node`; empty when the features do not fit.
/// O(size·F).
std::vector<double> subtreeMeans(const DendrogramLayout& layout, std::int32_t node, const FeatureSelection& features);

}  // namespace clusterlens::views
