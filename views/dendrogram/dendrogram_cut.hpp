#pragma once
// Flat clusterings cut from a dendrogram. A cut into k clusters undoes the k-1 merges first in
// DendrogramLayout::cutOrder, i.e. those with the highest subtree maxima: for monotonic heights
// this is the horizontal cut of the tree (scipy's fcluster 'maxclust'); with inversions it is
// fcluster's 'distance' criterion on the subtree maxima, which stays well defined. A cut line
// dragged to height t gives the clusters of every subtree whose maximum is at most t.
// Cluster ids run 0..k-1 from left to right in the leaf order, so the same cut always gets the
// same ids and colours.

#include <cstdint>
#include <limits>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "dendrogram/dendrogram_layout.hpp"

namespace clusterlens::views {

struct DendrogramCut {
    int k = 0;
    /// The cut lies between these heights: the highest merge kept and the lowest merge undone
    /// (0 when every merge is undone, +infinity when none is).
    double lower = 0.0;
    double upper = std::numeric_limits<double>::infinity();
    /// k cluster root nodes, by cluster id (left to right).
    std::vector<std::int32_t> roots;
    /// n labels by leaf id, 0..k-1.
    std::vector<std::int32_t> labels;
    /// Minimum cluster size of a population cut (1: every cluster is a population). Smaller
    /// clusters are "small/outliers": drawn grey and listed apart.
    std::size_t minSize = 1;
    /// By cluster id: the population number 0..populations-1 (left to right), -1 for a small
    /// cluster. Empty when every cluster is a population.
    std::vector<std::int32_t> population;
    int populations = 0;
    /// n labels by leaf id as the rest of the application sees the cut: population numbers, -1
    /// for the events of small clusters. Empty when every cluster is a population (then `labels`).
    std::vector<std::int32_t> populationLabels;

    /// Colour index of a cluster (its population number; -1, grey, for a small cluster).
    int colourOf(int cluster) const {
        return population.empty() ? cluster : population[static_cast<std::size_t>(cluster)];
    }
    /// Number of coloured clusters.
    int colourCount() const { return population.empty() ? k : populations; }
    bool isSmall(int cluster) const { return colourOf(cluster) < 0; }
    /// The labels other views colour by.
    const std::vector<std::int32_t>& sharedLabels() const {
        return populationLabels.empty() ? labels : populationLabels;
    }

    /// True when the merge of internal `node` is undone by the cut (drawn above the cut line).
    bool isAbove(const DendrogramLayout& layout, std::int32_t node) const {
        return !layout.isLeaf(node) && layout.cutRank[layout.row(node)] < k - 1;
    }
    /// Cluster of a node below the cut (the cluster of its leftmost leaf).
    int clusterOf(const DendrogramLayout& layout, std::int32_t node) const {
        const auto rank = static_cast<std::size_t>(layout.first[static_cast<std::size_t>(node)]);
        return labels[static_cast<std::size_t>(layout.order[rank])];
    }
};

/// Cut into k clusters, k clamped to 1..n. O(N).
DendrogramCut cutIntoClusters(const DendrogramLayout& layout, int k);

/// Cut into `populations` clusters of at least `minSize` leaves each, plus the smaller clusters
/// that lie between them (clusterlens/hca/linkage_cut.hpp, planPopulationCut, decides how many
/// merges to undo). `linkage` is the tree `layout` was built from. O(N).
DendrogramCut cutIntoPopulations(const Linkage& linkage, const DendrogramLayout& layout, int populations,
                                 std::size_t minSize);

/// Number of clusters of a cut at height t: 1 + the merges whose subtree maximum exceeds t.
/// O(log N).
int clustersAtHeight(const DendrogramLayout& layout, double t);

}  // namespace clusterlens::views
