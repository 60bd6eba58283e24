#pragma once
// A publication figure: something that paints itself with QPainter into any rectangle, so the same
// drawing goes to the screen, PNG, TIFF, SVG (real paths and text) and PDF (vector, real text).
//
// Units. A figure is laid out in logical pixels of 1/96 inch (its defaultSize() and the font sizes
// of font() are in them). A size in millimetres is that physical size in every format: a PNG
// 85 mm wide at 600 dpi is 2008 pixels, a PDF 85 mm wide is 240.9 points, an SVG says width="85mm".
// A size in pixels is exact for PNG and TIFF (text scaled by dpi / 96) and, as before, gives
// SVG and PDF that many points.

#include <QRectF>
#include <QSize>
#include <QString>

#include "figure/figure_axes.hpp"
#include "figure/figure_provenance.hpp"
#include "figure/figure_style.hpp"

class QFont;
class QImage;
class QPainter;

namespace clusterlens::views {

class Figure {
public:
    virtual ~Figure() = default;
    /// Draws the whole figure (axes, labels, legend) into `area`, in logical pixels.
    virtual void paint(QPainter& painter, const QRectF& area) const = 0;
    /// Size in logical pixels used when the caller gives none.
    virtual QSize defaultSize() const { return {800, 600}; }
    /// The figure's own title (the view's wording); the style's title replaces it.
    virtual QString ownTitle() const { return {}; }
    /// Where the legend goes when the style says Auto.
    virtual LegendPosition preferredLegend() const { return LegendPosition::Right; }

    void setStyle(const FigureStyle& style) { m_style = style; }
    const FigureStyle& style() const { return m_style; }
    /// The title drawn and written into the file's metadata: the style's, else ownTitle().
    QString title() const { return FigureStyle::pick(m_style.title, ownTitle()); }
    /// The style's legend position with Auto resolved.
    LegendPosition legendPosition() const {
        return m_style.legend == LegendPosition::Auto ? preferredLegend() : m_style.legend;
    }

protected:
    /// A font of `pixels` logical pixels times the style's font scale.
    QFont font(double pixels, bool bold = false) const;
    /// The title, text and axis-title fonts of x-y figures (14, 11 and 11 bold pixels, scaled).
    AxesFonts axesFonts() const { return {font(14, true), font(11), font(11, true)}; }
    /// Fills `area` white unless the style asks for a transparent background.
    void paintBackground(QPainter& painter, const QRectF& area) const;
    /// Colour of cluster `label` among `labelCount` in the style's palette (noise grey).
    QColor labelColor(int label, int labelCount) const;

private:
    FigureStyle m_style;
};

enum class FigureUnit { Pixels, Millimetres };

/// Export options: size, resolution and the provenance written into the file.
struct FigureExportOptions {
    FigureExportOptions() = default;
    /// `{size, dpi}` as callers have always written it.
    FigureExportOptions(QSizeF requested, int resolution = 96, FigureUnit sizeUnit = FigureUnit::Pixels)
        : size(requested), dpi(resolution), unit(sizeUnit) {}

    QSizeF size;   ///< in `unit`; empty: figure.defaultSize() pixels
    int dpi = 96;  ///< pixels per inch of PNG/TIFF (and of a millimetre size)
    FigureUnit unit = FigureUnit::Pixels;
    FigureProvenance provenance;  ///< title, command, data hashes for the metadata
};

/// What an export produces for `options`: the logical area the figure paints into, the page in
/// points (PDF, SVG) and the pixels (PNG, TIFF). Throws InvalidInput for sizes outside 1..20000
/// pixels (or points), or dpi outside 10..2400.
struct FigureGeometry {
    QSizeF logical;  ///< logical pixels (1/96 inch of the physical size)
    QSizeF points;   ///< page size in points
    QSize pixels;    ///< raster size
};
FigureGeometry figureGeometry(const Figure& figure, const FigureExportOptions& options);

/// The formats by file extension: "png", "tif"/"tiff", "svg", "pdf".
bool isFigureFormat(const QString& suffix);

/// Writes `figure` to `path`, format chosen by extension (.png, .tif/.tiff, .svg, .pdf), with the
/// provenance in the file's metadata. The file appears complete or not at all (written to a
/// temporary in the same folder, then renamed). Throws clusterlens::InvalidInput naming the path on
/// an unknown extension, a bad size, or a folder that cannot be written.
void exportFigure(const Figure& figure, const QString& path, const FigureExportOptions& options = {});

/// The figure as an image at `options`' pixel size, with the provenance as image texts (the
/// clipboard's copy and the PNG/TIFF writers use it).
QImage renderFigureImage(const Figure& figure, const FigureExportOptions& options);

}  // namespace clusterlens::views
