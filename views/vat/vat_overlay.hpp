#pragma once
// Marks drawn over a VAT/iVAT image, shared by the widget and the exported figure: position ticks
// along the top (columns) and left (rows), the cluster boxes of the k largest cuts on the diagonal with
// their labels (as clusiVAT shows them), and strips along the axes showing per pixel the label of
// the representative point (the labeling that colours every view) or whether a selected point lies
// in the pixel's block of positions.

#include <QColor>
#include <QImage>
#include <QRectF>

#include <cstdint>
#include <vector>

#include "analysis_session.hpp"
#include "clusterlens/vat/vat.hpp"
#include "vat/vat_window.hpp"

class QPainter;

namespace clusterlens::views {

/// Tick positions every nice step (1, 2 or 5 times a power of ten) with about `targetCount` ticks.
double vatTickStep(double span, int targetCount);

/// Ticks and position labels left of and above `plot`.
void paintVatAxes(QPainter& painter, const QRectF& plot, const VatWindow& window);

/// Boxes of the blocks between consecutive `cuts` (positions, ascending) on the diagonal, outlined in
/// each block's label colour; labels where the box is large enough. Clipped to `plot`.
void paintVatCutBoxes(QPainter& painter, const QRectF& plot, const VatWindow& window,
                      const std::vector<std::size_t>& cuts);

/// `pixels` colours along an axis covering positions [start, end): the label colour of each pixel's
/// representative point (labels indexed by point, order from the VAT result). As a pixels x 1 image.
QImage vatLabelStrip(const VatResult& vat, const LabelVector& labels, double start, double end, int pixels);

/// `pixels` flags along an axis covering [start, end): `color` where a marked position (ascending)
/// lies in the pixel's block, transparent elsewhere. As a pixels x 1 image.
QImage vatMarkStrip(const std::vector<std::int64_t>& marked, double start, double end, int pixels, QColor color);

/// Draws a pixels x 1 strip image along the top edge (`horizontal`) or the left edge of `rect`.
void drawVatStrip(QPainter& painter, const QRectF& rect, const QImage& strip, bool horizontal);

}  // namespace clusterlens::views
