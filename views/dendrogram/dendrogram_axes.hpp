#pragma once
// Axes of a dendrogram painted with QPainter, shared by the widget's overlay and the exported
// figure so both read the same: the height axis (linear or logarithmic ticks) left of the plot and
// the leaf axis below it (leaf names when they fit, else the range of leaves shown).

#include <QString>

#include <string>
#include <vector>

#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_view.hpp"

class QFont;
class QPainter;
class QRectF;

namespace clusterlens::views {

struct AxisTick {
    double axis = 0.0;  ///< position in axis units
    QString label;
};

/// Round ticks inside the axis range [lo, hi]: 1-2-5 steps on a linear axis, powers of ten (or
/// 1-2-5 steps of the height when the range spans less than two decades) on a logarithmic one.
std::vector<AxisTick> heightTicks(double lo, double hi, const HeightScale& scale, int maxTicks);

/// "1 inversion", "52 inversions".
QString inversionText(std::size_t count);

/// Width the height axis needs left of the plot with `font`.
double heightAxisWidth(const QFont& font);

/// Ticks, tick labels and the rotated title left of `plot`, grid lines across it.
void paintHeightAxis(QPainter& painter, const QRectF& plot, const DendrogramView& view, const HeightScale& scale,
                     const QString& title);

/// Below `plot`: leaf names (point names when given, else ids) when every visible leaf has room
/// for its name, otherwise "leaves a–b of N (leaf order)".
void paintLeafAxis(QPainter& painter, const QRectF& plot, const DendrogramView& view, const DendrogramLayout& layout,
                   const std::vector<std::string>* pointNames);

}  // namespace clusterlens::views
