#pragma once
// The contingency heatmap of a flat comparison as a Figure: rows = clusters of A, columns =
// clusters of B, both in the matching's order so matched pairs lie on the diagonal (outlined).
// A cell's colour is the share of the row's cluster that falls into the column's cluster
// (white: no shared points); counts are written into cells large enough to read them. Tables of
// more than vectorCellLimit cells are drawn as an image, one pixel per cell, scaled. The heatmap
// widget paints this figure and the export writes it to SVG/PDF/PNG.

#include <QColor>

#include <memory>

#include "compare/flat_comparison.hpp"
#include "figure/figure.hpp"

namespace clusterlens::views {

/// A cell of the heatmap in display order; row = -1 when none.
struct HeatmapCell {
    int row = -1;
    int col = -1;
    bool isValid() const { return row >= 0 && col >= 0; }
    bool operator==(const HeatmapCell&) const = default;
};

class ContingencyFigure : public Figure {
public:
    static constexpr std::size_t vectorCellLimit = 10'000;

    explicit ContingencyFigure(std::shared_ptr<const FlatComparison> comparison);

    void paint(QPainter& painter, const QRectF& area) const override;
    QSize defaultSize() const override { return {720, 620}; }
    QString ownTitle() const override;

    /// Outlines `cell` as the current choice (the GUI's clicked cell); invalid: none.
    void setHighlight(HeatmapCell cell) { m_highlight = cell; }
    HeatmapCell highlight() const { return m_highlight; }

    /// The rectangle of all cells inside `area`.
    QRectF gridRect(const QRectF& area) const;
    QRectF cellRect(const QRectF& area, int row, int col) const;
    /// The cell under `pos`, or an invalid cell.
    HeatmapCell cellAt(const QRectF& area, QPointF pos) const;
    /// Colour of a cell with the given row share and count, as painted.
    static QColor cellColor(double rowShare, std::int64_t count);

private:
    void paintTitle(QPainter& painter, const QRectF& area) const;
    void paintCells(QPainter& painter, const QRectF& grid) const;
    void paintCellImage(QPainter& painter, const QRectF& grid) const;
    void paintCounts(QPainter& painter, const QRectF& grid) const;
    void paintLabels(QPainter& painter, const QRectF& grid) const;
    void paintColourBar(QPainter& painter, const QRectF& area, const QRectF& grid) const;
    double rowLabelWidth() const;

    std::shared_ptr<const FlatComparison> m_comparison;
    HeatmapCell m_highlight;
};

}  // namespace clusterlens::views
