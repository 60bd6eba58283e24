#pragma once
// Point heights (thesis definition 20) of two hierarchical clusterings of the same points, their
// correlations, and the scatter the point-height view draws of them. Shared by the GUI view (run
// as a job) and `clusterlens-cli plot heights`.

#include <QString>

#include <memory>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/job_control.hpp"
#include "scatter/scatter_data.hpp"

namespace clusterlens::views {

/// Heights of every point in clusterings A and B (index = point) with Pearson and Spearman
/// correlations (NaN when one side is constant). Memory: 16 bytes per point.
struct HeightsComparison {
    QString nameA, nameB;
    std::vector<double> heightsA, heightsB;
    double pearson = 0.0;
    double spearman = 0.0;

    std::size_t pointCount() const { return heightsA.size(); }
};

/// Validates that both linkages cluster the same number of points (InvalidInput naming both
/// otherwise), then computes the heights, O(N), and the correlations, O(N log N).
HeightsComparison compareHeights(const Linkage& a, const Linkage& b, const QString& nameA, const QString& nameB,
                                 JobControl* control = nullptr);

/// The data range the plot of `comparison` shows on each axis: the heights' own ranges, or with
/// `equalAxes` one range covering both, so the diagonal y = x runs corner to corner.
struct HeightsRange {
    double xMin = 0.0, xMax = 1.0, yMin = 0.0, yMax = 1.0;
};
HeightsRange heightsRange(const HeightsComparison& comparison, bool equalAxes);

/// Axis titles: "point height in A: <name>".
QString heightsAxisTitle(const QString& name, bool vertical);

/// Drawable scatter of the heights (x = A, y = B) with density colours, in the range of
/// heightsRange(). O(N), polls `control`.
ScatterData heightsScatter(const HeightsComparison& comparison, bool equalAxes, JobControl* control = nullptr);

/// "Pearson r = 0.912 · Spearman ρ = 0.887" (n/a for an undefined coefficient).
QString correlationText(const HeightsComparison& comparison);

}  // namespace clusterlens::views
