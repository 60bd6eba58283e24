#pragma once
// The publication figure of a point-height comparison: heights in A (x) against heights in B (y)
// with axes, the diagonal y = x, and the Pearson and Spearman correlations in the title; points are
// coloured by density or by |rank difference| (how differently the two trees place them). Up to
// vectorPointLimit points are drawn one by one (vector output); larger comparisons are drawn as a
// density image inside the vector frame, so a figure of 10^6 points stays small and fast. The
// GUI's export and `clusterlens-cli plot heights` both paint this figure.

#include <QImage>

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "compare/heights_comparison.hpp"
#include "figure/figure.hpp"

namespace clusterlens::views {

class HeightsFigure : public Figure {
public:
    static constexpr std::size_t vectorPointLimit = 50'000;

    /// `equalAxes`: one range on both axes (heights in the same unit), else each axis its own range.
    explicit HeightsFigure(std::shared_ptr<const HeightsComparison> comparison, bool equalAxes = false,
                           HeightsColour colour = HeightsColour::Density);

    void paint(QPainter& painter, const QRectF& area) const override;
    QSize defaultSize() const override { return {640, 600}; }
    QString ownTitle() const override;
    LegendPosition preferredLegend() const override { return LegendPosition::Top; }

    /// The plot frame inside `area`; axes, titles and tick labels lie outside it.
    QRectF plotRect(const QRectF& area) const;
    /// Position of the point with heights (a, b) inside `plot`.
    QPointF mapToPlot(double a, double b, const QRectF& plot) const;
    /// True when the points are drawn as a density image.
    bool drawsDensityImage() const { return m_comparison->pointCount() > vectorPointLimit; }

private:
    XYLayout layout(const QRectF& area) const;
    QString subtitle() const;
    AxisSpec xAxis() const;
    AxisSpec yAxis() const;
    FigureLegend legend() const;
    void paintPoints(QPainter& painter, const QRectF& plot) const;
    void paintDensityImage(QPainter& painter, const QRectF& plot) const;
    /// Per point, its pixel (y·w + x) in a w × h image of the plot; -1 for non-finite heights.
    std::vector<std::ptrdiff_t> pixelsOf(int w, int h) const;
    /// Points in drawing order with their colour positions in [0, 1], by density or discordance.
    std::vector<std::pair<std::size_t, double>> pointColours(const QRectF& plot) const;
    void paintDiagonal(QPainter& painter, const QRectF& plot) const;

    std::shared_ptr<const HeightsComparison> m_comparison;
    HeightsRange m_range;  // heights range widened by a small margin
    HeightsColour m_colour;
    MarkerScale m_discordance;  // the colour scale of |rank difference| (RankDifference only)
};

}  // namespace clusterlens::views
