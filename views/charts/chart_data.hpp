#pragma once
// What the small statistical charts show, computed apart from Qt Charts so that the charts on
// screen, their figures and the tests read the same numbers: the sizes of a dendrogram cut's
// clusters (small clusters grey), the merge-height profile for choosing k, and histograms of one
// marker over several populations.

#include <QColor>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_layout.hpp"

namespace clusterlens::views {

struct BarChartData {
    QStringList categories;  ///< one per bar, left to right
    std::vector<double> values;
    std::vector<QColor> colours;
    std::size_t omitted = 0;  ///< clusters past the bar limit, not shown
};

/// One bar per cluster of `cut` in the tree's left-to-right order, at most `maxBars`: populations
/// named "0".."k-1" in their colours, small clusters "s1", "s2", ... in grey. O(k).
BarChartData clusterSizeBars(const DendrogramLayout& layout, const DendrogramCut& cut, std::size_t maxBars = 80);

struct MergeProfile {
    /// (c, h): h is the highest merge left when the tree is cut into c clusters, i.e. the height
    /// the cut line must go below to get more than c clusters; c = 1..maxClusters. A large drop
    /// from c-1 to c means c clusters stand well apart.
    std::vector<QPointF> points;
    int current = 0;  ///< clusters of the current cut (0: none)
};

/// The profile of `layout` for c = 1..min(maxClusters, N-1). O(maxClusters).
MergeProfile mergeHeightProfile(const DendrogramLayout& layout, int currentClusters, int maxClusters = 40);

/// A population as the charts need it.
struct ChartPopulation {
    QString name;
    QColor colour;
    std::shared_ptr<const std::vector<std::int64_t>> members;  ///< ascending event indices
};

struct HistogramData {
    QString marker;
    double low = 0.0;    ///< left edge of the first bin
    double width = 1.0;  ///< bin width
    int bins = 0;
    struct Series {
        QString name;
        QColor colour;
        std::size_t count = 0;
        std::vector<double> fractions;  ///< per bin: share of the population's events, sums to 1
    };
    std::vector<Series> series;
};

/// Histograms of `column` of `data` with `bins` bins over the range of every event's value, one
/// per population (its share of events per bin, so populations of any size overlay). Members
/// outside the data are skipped; non-finite values are left out. O(N + total members).
HistogramData markerHistograms(const Dataset& data, std::size_t column, const std::vector<ChartPopulation>& populations,
                               int bins = 64);

}  // namespace clusterlens::views
