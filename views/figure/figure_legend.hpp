#pragma once
// The legend of a figure: coloured swatches with names (clusters, classes, populations) or a
// continuous colour bar, placed on one side of the figure. The figure first reserves the legend's
// room with reserveLegend(), so the legend never lies over the data, then paints it into that box.
// Left and right legends are a column; top and bottom legends flow their items into rows.

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QString>

#include <functional>
#include <vector>

#include "figure/figure_style.hpp"

class QPainter;

namespace clusterlens::views {

/// How an item's sample looks: a square of colour, a dot (points of a scatter), a dashed line
/// (a reference line), or a ramp of the continuous colour map (a density).
enum class LegendSwatch { Square, Dot, DashedLine, Ramp };

struct LegendItem {
    QColor colour;
    QString text;
    LegendSwatch swatch = LegendSwatch::Square;
};

class FigureLegend {
public:
    QString heading;                ///< optional first line, e.g. "k = 4 clusters"
    std::vector<LegendItem> items;  ///< swatches, in order
    std::size_t maxItems = 24;      ///< more items end in "… N more"
    /// A colour bar instead of items when set: t in [0,1] to colour, and the texts at its ends.
    std::function<QColor(double)> colourBar;
    QString barLow, barHigh;

    bool isEmpty() const { return items.empty() && !colourBar && heading.isEmpty(); }
    /// Room the legend needs with `font`: a column for Left/Right, rows at most `across` wide for
    /// Top/Bottom.
    QSizeF size(const QFont& font, LegendPosition position, double across) const;
    /// Paints into `box` (from reserveLegend()); items that do not fit are summarised.
    void paint(QPainter& painter, const QRectF& box, const QFont& font, LegendPosition position) const;

private:
    std::size_t shownItems() const;
    QString moreText(std::size_t shown) const;
};

/// Splits `area` into the legend's box and the rest, the legend on the side `position` names and a
/// gap of half a line between; returns the rest. `box` receives the legend's rectangle (empty for
/// None or an empty legend).
QRectF reserveLegend(const QRectF& area, const FigureLegend& legend, const QFont& font, LegendPosition position,
                     QRectF* box);

}  // namespace clusterlens::views
