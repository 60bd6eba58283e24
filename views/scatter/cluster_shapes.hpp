#pragma once
// The shape of each cluster of a labeling on the data scatter: its mean and sample covariance in the
// two plotted coordinates, drawn as the ellipse that holds 95 % of a Gaussian cluster. For a cut of an
// MHCA tree this is the shape the algorithm's Mahalanobis distance used (the cluster's sample
// covariance; MHCA GPU thesis, clusters above the size threshold), seen in the plotted pair of
// markers. The view and the scatter figure draw it alike.

#include <QPointF>
#include <QPolygonF>

#include <cstddef>
#include <functional>
#include <vector>

namespace clusterlens::views {

/// One cluster in the scatter's normalised coordinates (u, v in [0, 1] over the data range).
struct ClusterShape {
    int label = 0;
    std::size_t count = 0;  ///< points of the cluster that are drawn (finite coordinates)
    double meanU = 0.0, meanV = 0.0;
    double cuu = 0.0, cuv = 0.0, cvv = 0.0;  ///< sample covariance (divided by count − 1)
};

/// The chi-square quantile of 2 degrees of freedom at 95 % (−2 ln 0.05): the squared Mahalanobis
/// radius of the ellipse drawn.
constexpr double kShapeRadius2 = 5.991464547107979;

/// Mean and sample covariance of every label >= 0 with at least 3 points, ascending by label, from
/// `count` points at `positions` (u, v pairs) with `labels` (one value per point, as ScatterData holds
/// them in labels mode). Two passes (mean, then centred sums). O(count) time, O(labels) memory.
std::vector<ClusterShape> clusterShapes(const std::vector<float>& positions, const std::vector<float>& labels,
                                        std::size_t count);

/// The ellipse (p − mean)ᵀ Σ⁻¹ (p − mean) = kShapeRadius2 through `segments` points, each mapped from
/// normalised coordinates by `map` (so an anisotropic plot keeps it exact). Computed as
/// mean + √kShapeRadius2 · L · (cos t, sin t) with Σ = L Lᵀ (Cholesky); a degenerate cluster (a line
/// or a point) gives the segment or point it spans.
QPolygonF shapeOutline(const ClusterShape& shape, const std::function<QPointF(double u, double v)>& map,
                       int segments = 96);

}  // namespace clusterlens::views
