#pragma once
// A multi-panel figure: other figures on a grid, row by row, each with its panel letter (A, B, C…)
// in its top left corner, drawn at one size for a journal's column. The panels take the composed
// figure's style (font size, palette, legend, background) and keep their own titles; the
// composed figure's title, when given, goes above the grid.

#include <memory>
#include <vector>

#include "figure/figure.hpp"

namespace clusterlens::views {

class ComposedFigure : public Figure {
public:
    /// `panels` in reading order (null entries are skipped), `columns` per row (at least 1).
    ComposedFigure(std::vector<std::unique_ptr<Figure>> panels, int columns);

    void paint(QPainter& painter, const QRectF& area) const override;
    QSize defaultSize() const override;
    QString ownTitle() const override { return {}; }

    std::size_t panelCount() const { return m_panels.size(); }
    int columns() const { return m_columns; }
    int rows() const;
    /// The letter of panel `index`: A..Z, then AA, AB, ...
    static QString panelLetter(std::size_t index);
    /// The cell of panel `index` inside `area` (below the title, if any).
    QRectF cellRect(const QRectF& area, std::size_t index) const;
    /// The style the panels are drawn with: the composed figure's, without its title and axis labels
    /// (each panel keeps its own), on a transparent background (the composed figure paints the one).
    FigureStyle panelStyle() const;
    /// Where panel `index` is drawn: its cell right of the column of its letter.
    QRectF panelRect(const QRectF& area, std::size_t index) const;

private:
    double titleHeight() const;

    std::vector<std::unique_ptr<Figure>> m_panels;
    int m_columns;
};

}  // namespace clusterlens::views
