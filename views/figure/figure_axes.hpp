#pragma once
// The parts every x-y figure shares (decision graph, point heights, data scatter, γ-rank): the
// title block, where title, legend and plot frame go, and the axes with round ticks, a light grid
// and the axis titles. One layout, so every figure leaves its legend beside the data, never over it.

#include <QFont>
#include <QRectF>
#include <QString>

#include <vector>

#include "figure/figure_legend.hpp"

class QPainter;

namespace clusterlens::views {

/// One axis: the plotted range (log10 of the quantity when `log`) and its title.
struct AxisSpec {
    double lo = 0.0;
    double hi = 1.0;
    bool log = false;
    QString title;
};

/// The fonts of an x-y figure.
struct AxesFonts {
    QFont title;  ///< the figure's title
    QFont text;   ///< subtitle, tick labels, legend
    QFont label;  ///< axis titles
};

/// Where the parts of an x-y figure go inside `area`.
struct XYLayout {
    QRectF title;   ///< title and subtitle lines
    QRectF legend;  ///< empty when there is no legend
    QRectF plot;    ///< the frame of the data
};

/// Title lines on top (none when both texts are empty), the legend on the side `position` names,
/// and the plot frame with room for the tick labels of `x` and `y` and their titles.
XYLayout layoutXY(const QRectF& area, const AxesFonts& fonts, const QString& title, const QString& subtitle,
                  const AxisSpec& x, const AxisSpec& y, const FigureLegend& legend, LegendPosition position);

/// Draws the title (bold, centred) and the subtitle under it into `box`, both elided to fit.
void paintTitleBlock(QPainter& painter, const QRectF& box, const AxesFonts& fonts, const QString& title,
                     const QString& subtitle);

/// Tick positions inside [lo, hi]: round numbers, or whole decades on a log axis.
std::vector<double> axisTicks(double lo, double hi, int maxTicks, bool log);

/// Position of plotted value `v` of `axis` along [from, to].
inline double axisPosition(const AxisSpec& axis, double v, double from, double to) {
    return from + (v - axis.lo) / (axis.hi - axis.lo) * (to - from);
}

/// Grid, ticks, tick labels and axis titles around `plot` (the frame itself: paintFrame()).
void paintAxes(QPainter& painter, const QRectF& plot, const AxisSpec& x, const AxisSpec& y, const AxesFonts& fonts);

/// The plot's frame, drawn after the data.
void paintFrame(QPainter& painter, const QRectF& plot);

}  // namespace clusterlens::views
