#pragma once
// The contingency heatmap of a flat comparison as a Figure: rows = clusters of A, columns =
// clusters of B, both in the matching's order so matched pairs lie on the diagonal (outlined).
// A cell's colour is the share of the row's cluster that falls into the column's cluster
// (white: no shared points); counts are written into cells large enough to read them. Tables of
// more than vectorCellLimit cells are drawn as an image, one pixel per cell, scaled. A figure of more
// than figureColumnLimit columns keeps the matched columns and the largest others and sums the rest
// into one "other" column, so a 20 x 400 table stays readable on a page; labels that would overlap
// are thinned. The heatmap widget (which scrolls instead) paints this figure without a limit, and the
// export and `clusterlens-cli plot contingency` write it with the limit to SVG/PDF/PNG.

#include <QColor>

#include <memory>
#include <vector>

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
    static constexpr std::size_t figureColumnLimit = 40;

    /// `columnLimit` 0: every column drawn.
    explicit ContingencyFigure(std::shared_ptr<const FlatComparison> comparison,
                               std::size_t columnLimit = figureColumnLimit);

    /// Columns drawn: the kept ones in display order, then the "other" column when some were summed.
    std::size_t shownColumns() const { return m_shown.size() + (m_other.empty() ? 0 : 1); }
    /// Clusters of B summed into the "other" column (0: none).
    std::size_t otherClusterCount() const { return m_other.size(); }
    /// Count of drawn cell (row, col) and its share of the row's cluster; the "other" column sums.
    std::int64_t countAt(std::size_t row, std::size_t col) const;
    double rowShareAt(std::size_t row, std::size_t col) const;
    /// The label over drawn column `col` ("3", "noise", "other").
    QString columnLabel(std::size_t col) const;

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
    std::vector<std::size_t> m_shown;  ///< display columns of the comparison drawn one by one
    std::vector<std::size_t> m_other;  ///< display columns summed into "other"
    HeatmapCell m_highlight;
};

}  // namespace clusterlens::views
