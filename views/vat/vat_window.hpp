#pragma once
// The square window of the VAT matrix in view: rows [row0, row0 + span) by columns
// [col0, col0 + span) of ordered positions, fractional so zoom and pan are continuous, always inside
// [0, n]². The plot is square, so a cell is square and the matrix diagonal stays a diagonal.

#include <QPointF>
#include <QSize>
#include <QSizeF>

#include <cstddef>

#include "clusterlens/vat/viewport.hpp"

namespace clusterlens::views {

class VatWindow {
public:
    /// The whole matrix of n positions.
    void reset(std::size_t n);
    std::size_t n() const { return m_n; }
    double row0() const { return m_row0; }
    double col0() const { return m_col0; }
    double span() const { return m_span; }
    double row1() const { return m_row0 + m_span; }
    double col1() const { return m_col0 + m_span; }
    bool isWhole() const { return m_span >= static_cast<double>(m_n) && m_row0 == 0.0 && m_col0 == 0.0; }

    /// Sets the window, clamped: span within [min(n, minSpan), n], corners inside the matrix.
    void setWindow(double row0, double col0, double span);
    /// Moves the content by `delta` pixels of a plot of `plot` pixels (it follows the mouse).
    void panPixels(QPointF delta, QSizeF plot);
    /// Magnifies by `factor` (> 1 zooms in) keeping the position under `plotPos` in place.
    void zoomAt(QPointF plotPos, double factor, QSizeF plot);

    /// Fractional (column, row) positions under a point of the plot (origin: its top-left corner).
    QPointF positionsAt(QPointF plotPos, QSizeF plot) const;
    /// Plot point of fractional (column, row) positions.
    QPointF plotPoint(double column, double row, QSizeF plot) const;

    /// The viewport of this window at `pixels` image size.
    VatViewport viewport(QSize pixels, VatImageKind kind, VatPixelMode mode) const;

    /// Smallest span: zoomed in further, a pixel would show a small part of one cell.
    static constexpr double minSpan = 4.0;

    bool operator==(const VatWindow&) const = default;

private:
    std::size_t m_n = 0;
    double m_row0 = 0.0;
    double m_col0 = 0.0;
    double m_span = 0.0;
};

}  // namespace clusterlens::views
