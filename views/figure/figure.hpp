#pragma once
// A publication figure: something that paints itself with QPainter into any rectangle, so the same
// drawing goes to the screen, PNG, SVG (real paths and text) and PDF (vector, real text).

#include <QRectF>
#include <QSize>
#include <QString>

class QPainter;

namespace clusterlens::views {

class Figure {
public:
    virtual ~Figure() = default;
    /// Draws the whole figure (axes, labels, legend) into `area`, in device-independent units.
    virtual void paint(QPainter& painter, const QRectF& area) const = 0;
    /// Size in points (1/72 inch) used when the caller gives none.
    virtual QSize defaultSize() const { return {800, 600}; }
};

/// Export options: size in points (PDF/SVG) or pixels (PNG, where dpi scales fonts and lines).
struct FigureExportOptions {
    QSize size;      ///< empty: figure.defaultSize()
    int dpi = 96;    ///< PNG only: pixel size = size, text scaled by dpi / 96
};

/// Writes `figure` to `path`, format chosen by extension (.svg, .pdf, .png). Throws
/// clusterlens::InvalidInput naming the path on an unknown extension or a write failure.
void exportFigure(const Figure& figure, const QString& path, const FigureExportOptions& options = {});

} // namespace clusterlens::views
