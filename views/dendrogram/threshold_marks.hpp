#pragma once
// Threshold-size marks of an MHCA tree: where on the height axis clusters reach T·N leaves, the size
// from which MHCA's distance uses a cluster's full Mahalanobis shape (clusterlens/hca/mhca.hpp).
// Triangles on the height axis at the merges that make such a cluster from two smaller ones, and a
// dotted line at the height from which every cluster of the cut is that large
// (clusterlens/hca/threshold_crossings.hpp). Shared by the widget, its tooltip and the figure.

#include <QColor>
#include <QPointF>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "dendrogram/dendrogram_view.hpp"

class QPainter;
class QRectF;

namespace clusterlens::views {

struct ThresholdMarks {
    double threshold = 0.0;            ///< T, the run's MhcaOptions::threshold
    std::size_t minSize = 0;           ///< ceil(T·N) leaves
    std::vector<double> crossings;     ///< merge heights at which a cluster reaches minSize
    std::optional<double> allReached;  ///< height from which every cluster of the cut has minSize
};

/// The MHCA threshold of a stored clustering: from its name ("MHCA full t=0.5", hcaResultName, with or
/// without a population suffix or copy number), else from its description, the command line the CLI
/// stored ("clusterlens-cli hca ... --linkage mahalanobis [--threshold T]", T 0.5 when absent) or the
/// clustering panel's text ("MHCA full (FMD); threshold 0.5; ..."). None for other trees (classic
/// linkages, imported trees) and for a threshold outside (0, 1].
std::optional<double> mhcaThresholdOf(const QString& linkageName, const QString& description);

/// The marks of `linkage` (valid) for threshold T in (0, 1]: minSize = ceil(T·leaves). O(N).
/// Throws InvalidInput for a threshold outside (0, 1].
std::shared_ptr<const ThresholdMarks> buildThresholdMarks(const Linkage& linkage, double threshold);

/// "cluster reaches T·N = 3,026 events (T = 0.5): full Mahalanobis from here"
QString thresholdCrossingText(const ThresholdMarks& marks);
/// "every cluster has T·N = 3,026 events or more from here"
QString thresholdAllReachedText(const ThresholdMarks& marks);
/// The one-line legend a figure writes: both texts with the marks' symbols.
QString thresholdLegendText(const ThresholdMarks& marks);
QColor thresholdMarkColor();

/// A mark at a position of the plot: pixel position of its tip and its text.
struct ThresholdMarkPosition {
    QPointF tip;
    bool allReached = false;  ///< the height from which every cluster is large enough
    QString text;
};
/// Where the marks of `marks` lie in `plot` for `view` on `scale`, those inside the plot only (the
/// all-reached line's mark last).
std::vector<ThresholdMarkPosition> thresholdMarkPositions(const ThresholdMarks& marks, const QRectF& plot,
                                                          const DendrogramView& view, const HeightScale& scale);
/// Paints the marks inside `plot` (triangles on the height axis, the all-reached line across).
void paintThresholdMarks(QPainter& painter, const ThresholdMarks& marks, const QRectF& plot, const DendrogramView& view,
                         const HeightScale& scale, double lineWidth);

}  // namespace clusterlens::views
