#pragma once
// Point heights (thesis definition 20) of two hierarchical clusterings of the same points, their
// correlations, and the scatter the point-height view draws of them. Shared by the GUI view (run
// as a job) and `clusterlens-cli plot heights`.

#include <QString>

#include <memory>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/job_control.hpp"
#include "marker_scale.hpp"
#include "scatter/scatter_data.hpp"

namespace clusterlens::views {

/// Heights of every point in clusterings A and B (index = point) with Pearson and Spearman
/// correlations (NaN when one side is constant), and each point's height rank in A minus its rank in
/// B (heightRankDifference: 0 where both trees place the point alike). Memory: 24 bytes per point.
struct HeightsComparison {
    QString nameA, nameB;
    std::vector<double> heightsA, heightsB;
    std::vector<double> rankDifference;
    double pearson = 0.0;
    double spearman = 0.0;

    std::size_t pointCount() const { return heightsA.size(); }
    /// Points whose rank difference is not 0 (placed differently by the two trees). O(N).
    std::size_t discordantCount() const;
};

/// Validates that both linkages cluster the same number of points (InvalidInput naming both
/// otherwise), then computes the heights, O(N), the correlations and rank differences, O(N log N).
HeightsComparison compareHeights(const Linkage& a, const Linkage& b, const QString& nameA, const QString& nameB,
                                 JobControl* control = nullptr);

/// What colours the points of the point-height plot: the density of their neighbourhood, or how
/// differently the two trees place them (|rank difference|, highest drawn last).
enum class HeightsColour { Density, RankDifference };

/// The value of `clusterlens-cli plot heights --colour`: "density", "rank-difference".
QString heightsColourId(HeightsColour colour);

/// The colour scale of |rank difference|: its robust range (1st to 99th percentile) as for a marker,
/// titled "|rank in A − rank in B|". The view's scatter and the figure colour through it. O(N).
MarkerScale discordanceScale(const HeightsComparison& comparison);

/// The data range the plot of `comparison` shows on each axis: the heights' own ranges, or with
/// `equalAxes` one range covering both, so the diagonal y = x runs corner to corner.
struct HeightsRange {
    double xMin = 0.0, xMax = 1.0, yMin = 0.0, yMax = 1.0;
};
HeightsRange heightsRange(const HeightsComparison& comparison, bool equalAxes);

/// Axis titles: "point height in A: <name>".
QString heightsAxisTitle(const QString& name, bool vertical);

/// Drawable scatter of the heights (x = A, y = B) coloured by density or by |rank difference|
/// (discordanceScale), in the range of heightsRange(). O(N), polls `control`.
ScatterData heightsScatter(const HeightsComparison& comparison, bool equalAxes,
                           HeightsColour colour = HeightsColour::Density, JobControl* control = nullptr);

/// "Pearson r = 0.912 · Spearman ρ = 0.887" (n/a for an undefined coefficient).
QString correlationText(const HeightsComparison& comparison);

}  // namespace clusterlens::views
