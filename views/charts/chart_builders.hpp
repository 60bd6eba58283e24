#pragma once
// Qt Charts of the chart data (chart_data.hpp). Each function returns a new QChart the caller owns
// (or hands to a QChartView or a QGraphicsScene); the Charts dock and the figures build their
// charts with the same function, so a figure shows what the dock shows.

#include <QString>

#include "charts/chart_data.hpp"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace clusterlens::views {

/// Titles of the charts' axes, replaced by a figure's own axis labels when given.
struct ChartAxisTitles {
    QString x;
    QString y;
};

/// Bars of cluster sizes (a stacked series of one set per bar, so that each bar has its colour).
QChart* makeClusterSizeChart(const BarChartData& bars, const ChartAxisTitles& titles);
/// Merge height against the number of clusters, the current cut marked.
QChart* makeMergeProfileChart(const MergeProfile& profile, const ChartAxisTitles& titles);
/// Overlaid step outlines of the populations' histograms of one marker.
QChart* makeHistogramChart(const HistogramData& histogram, const ChartAxisTitles& titles);

ChartAxisTitles clusterSizeTitles();
ChartAxisTitles mergeProfileTitles();
ChartAxisTitles histogramTitles(const QString& marker);

}  // namespace clusterlens::views
