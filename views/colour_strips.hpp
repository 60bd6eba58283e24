#pragma once
// Colour strips: rows of colour, one cell per data point in a view's own order, drawn under the
// dendrogram's leaves and along the VAT image's axes so that the tree's or the matrix's blocks can
// be read against a labeling (cut, DPC, the file's classes), the population set or one marker's
// expression. At most maxColourStrips strips; the same painter serves the screen and the figures.

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "scatter/scatter_data.hpp"

class QPainter;

namespace clusterlens::views {

inline constexpr int maxColourStrips = 3;

struct ColourStrip {
    QString title;              ///< "class", "cut of average linkage (k=5)", "CD3 (arcsinh/5)"
    std::vector<QRgb> colours;  ///< one per data point (dataset row)
};
using ColourStrips = std::vector<ColourStrip>;

/// A labeling's strip: its own colours (populations) where the style has them, else the palette's;
/// label -1 is the noise grey. O(N).
ColourStrip labelingStrip(const QString& title, const std::vector<std::int32_t>& labels, const LabelStyle* style);
/// A marker's strip: its expression on the continuous colormap over the robust range
/// (marker_scale.hpp). O(N) time and temporary memory; InvalidInput when `column` is not a feature.
ColourStrip markerStrip(const Dataset& dataset, std::size_t column);

/// Height of one strip and the gap below it, in the units of `painter`'s font (logical pixels on
/// screen, points in a figure).
double colourStripHeight(const QFont& font);
/// Room that `count` strips take across their band (0 for none).
double colourStripsExtent(const QFont& font, std::size_t count);

/// Where and how strips are painted. The strips lie one below the other (side by side when
/// vertical), the first at the band's top (left) edge, next to the data. Rank r (the r-th point
/// shown) spans [r - first, r + 1 - first] / (last - first) of the band's length; `first` and
/// `last` may be fractional (a zoomed view).
struct StripBand {
    QRectF rect;  ///< colourStripsExtent() tall (wide when vertical), shared evenly by the strips
    double first = 0.0;
    double last = 0.0;
    bool vertical = false;
    /// With a positive width each strip's title is written, elided to it, just left of a
    /// horizontal band.
    double titleWidth = 0.0;
};

/// Paints `strips` along `band`; `idAt(r)` is the dataset row shown at rank r (< count). Strips whose
/// size is not `stripSize` are skipped. A strip is drawn from at most 8192 samples, so a band over
/// 10^6 points stays one small image per strip in PDF and SVG.
void paintColourStrips(QPainter& painter, const StripBand& band, const ColourStrips& strips, std::size_t count,
                       std::size_t stripSize, const std::function<std::size_t(std::size_t)>& idAt);

/// The strips of `strips` that have a colour for each of `size` points.
std::size_t fittingStripCount(const ColourStrips* strips, std::size_t size);

}  // namespace clusterlens::views
