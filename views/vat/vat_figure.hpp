#pragma once
// The VAT/iVAT image as a publication figure: title, the image re-rendered at the output's own
// resolution (a PNG of any size gets a pixel of the matrix per pixel of the file, a PDF or SVG a
// sharp image three times its size in points), position ticks, the cluster boxes of the cuts with
// their labels, a colour bar with the contrast levels and up to three colour strips (labelings,
// populations or markers) along the bottom and right edges. Painting renders the image, so exports
// run as jobs.

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "colour_strips.hpp"
#include "figure/figure.hpp"
#include "vat/vat_image.hpp"
#include "vat/vat_window.hpp"

namespace clusterlens::views {

class VatFrameRenderer;

struct VatFigureOptions {
    QString title;
    VatDisplay display;
    VatWindow window;               ///< the part of the matrix shown (the whole matrix by default)
    std::vector<std::size_t> cuts;  ///< cluster boundaries, positions ascending
    /// Levels to colour with instead of the rendered image's percentiles (the view's held levels).
    std::optional<std::pair<float, float>> levels;
    /// Colour strips along the bottom (columns, titled on the left) and right (rows) edges, a colour
    /// per point index of the run; null: none.
    std::shared_ptr<const ColourStrips> strips;
    /// The point index at each position of the order (VatResult::order); needed with strips.
    std::shared_ptr<const std::vector<std::int64_t>> order;
};

class VatFigure : public Figure {
public:
    VatFigure(std::shared_ptr<const VatFrameRenderer> renderer, VatFigureOptions options);

    void paint(QPainter& painter, const QRectF& area) const override;
    QSize defaultSize() const override { return {760, 680}; }
    QString ownTitle() const override { return m_options.title; }

    /// Where the image goes inside `area`.
    QRectF plotRect(const QRectF& area) const;

private:
    void paintColourBar(QPainter& painter, const QRectF& bar, const VatImage& image) const;
    std::size_t stripCount() const;
    double stripsExtent() const;

    std::shared_ptr<const VatFrameRenderer> m_renderer;
    VatFigureOptions m_options;
};

/// The options of `plot vat` that give `display` (besides --image and --colormap, written apart):
/// `--pixel mean` (VAT only: iVAT images draw representatives), `--reverse`, `--gamma G`,
/// `--clip LOW,HIGH` where they differ from the defaults, and `--levels LO,HI` for held contrast levels
/// (distances). Numbers as the shortest text that reads back to the same value, so the command redraws
/// the same pixels.
QStringList vatDisplayWords(const VatDisplay& display, const std::optional<std::pair<float, float>>& levels);

/// `--rows A:B --cols C:D` of `plot vat` for `window`: the ordered positions of its rows and columns,
/// as text that reads back to the same numbers.
QStringList vatWindowWords(const VatWindow& window);

/// The window of `n` ordered positions showing rows [rows.first, rows.second) and the columns from
/// cols.first on, as many as rows (the image is square): what `plot vat --rows --cols` shows, clamped
/// as VatWindow::setWindow clamps.
VatWindow vatWindowOf(std::size_t n, std::pair<double, double> rows, std::pair<double, double> cols);

/// `window` as `plot vat` reads it back from vatWindowWords(window): the GUI's figure of the part in
/// view shows this one, so the figure and its command agree to the last bit.
VatWindow vatWindowAsWritten(const VatWindow& window);

}  // namespace clusterlens::views
