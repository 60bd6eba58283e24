#pragma once
// The clustermap under a dendrogram: one row per active marker, one column per cluster of the cut
// (or, without a cut, per block of consecutive leaves), each cell the marker's median over the
// column's events, scaled per marker (z-score or min-max) so that markers of different ranges share
// one colour scale. A column spans its leaves' range, so it sits exactly under its subtree.
// The medians come from the engine (clusterlens/cluster/cluster_medians.hpp). The widget under
// the interactive dendrogram and the figure both paint it with paintClustermap.

#include <QColor>
#include <QRectF>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <vector>

#include "clusterlens/cluster/cluster_medians.hpp"
#include "clusterlens/job_control.hpp"
#include "dendrogram/dendrogram_clusters.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_view.hpp"

class QFont;
class QPainter;

namespace clusterlens::views {

struct Clustermap {
    QStringList markers;              ///< rows, top to bottom
    std::vector<std::int32_t> first;  ///< per column: rank of its leftmost leaf
    std::vector<std::int32_t> size;   ///< per column: leaves
    std::vector<std::uint8_t> small;  ///< per column: 1 for a small cluster (drawn grey)
    ClusterMedians medians;           ///< columns x markers
    std::vector<double> scaled;       ///< columns x markers, as medians, scaled per marker
    MarkerScaling scaling = MarkerScaling::ZScore;
    bool perCluster = false;  ///< columns are the cut's clusters (else leaf blocks)

    std::size_t columnCount() const { return first.size(); }
    double scaledAt(std::size_t column, std::size_t marker) const { return scaled[column * markers.size() + marker]; }
};

/// Leaf blocks of a clustermap without a cut.
inline constexpr int kClustermapBlocks = 64;

/// The clustermap of `cut` (null: kClustermapBlocks blocks of consecutive leaves) over the selected
/// features. Small clusters keep their columns (grey) and do not take part in the scaling.
/// Null when the features do not fit the tree. O(N·F) (engine medians); polls `control`.
std::shared_ptr<const Clustermap> buildClustermap(const DendrogramLayout& layout, const DendrogramCut* cut,
                                                  const FeatureSelection& features, MarkerScaling scaling,
                                                  JobControl* control = nullptr);

/// Colour of a scaled value: z-scores on a blue-white-red scale clipped at +-kClustermapZClip,
/// min-max values on the continuous colormap; NaN light grey.
QColor clustermapColor(double value, MarkerScaling scaling);
inline constexpr double kClustermapZClip = 2.0;

/// Height of a clustermap band of `rows` markers in `font` (one text line per row, at most).
double clustermapHeight(int rows, const QFont& font);

/// Paints the cells into `band` (the x extent of the dendrogram's plot: columns follow `view`'s
/// leaf window) and the marker names right-aligned into `labels` (left of the band). Cells of small
/// clusters are grey. Rows and cells are whole rectangles: an SVG holds one per visible cell.
void paintClustermap(QPainter& painter, const Clustermap& map, const DendrogramView& view, const QRectF& band,
                     const QRectF& labels, const QFont& font);

/// A legend of the colour scale ("z-score of median" from -2 to 2, or "min-max of median") into `box`.
void paintClustermapScale(QPainter& painter, MarkerScaling scaling, const QRectF& box, const QFont& font);

/// Vertical room a figure gives the clustermap under its leaf axis: the cells and the scale.
double clustermapFigureExtent(const Clustermap& map, const QFont& font);

/// The clustermap of a figure: cells under the x extent of `plot` from `top` down, marker names
/// between `labelsLeft` and the plot's left edge, the colour scale under the cells.
void paintClustermapFigure(QPainter& painter, const Clustermap& map, const DendrogramView& view, const QRectF& plot,
                           double top, double labelsLeft, const QFont& font);

}  // namespace clusterlens::views
