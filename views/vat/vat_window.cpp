#include "vat/vat_window.hpp"

#include <algorithm>

namespace clusterlens::views {

void VatWindow::reset(std::size_t n) {
    m_n = n;
    m_row0 = m_col0 = 0.0;
    m_span = static_cast<double>(n);
}

void VatWindow::setWindow(double row0, double col0, double span) {
    const auto n = static_cast<double>(m_n);
    m_span = std::clamp(span, std::min(n, minSpan), n);
    m_row0 = std::clamp(row0, 0.0, n - m_span);
    m_col0 = std::clamp(col0, 0.0, n - m_span);
}

void VatWindow::panPixels(QPointF delta, QSizeF plot) {
    if (plot.isEmpty()) return;
    setWindow(m_row0 - delta.y() * m_span / plot.height(), m_col0 - delta.x() * m_span / plot.width(), m_span);
}

void VatWindow::zoomAt(QPointF plotPos, double factor, QSizeF plot) {
    if (plot.isEmpty() || factor <= 0.0) return;
    const QPointF at = positionsAt(plotPos, plot);
    const double span =
        std::clamp(m_span / factor, std::min(static_cast<double>(m_n), minSpan), static_cast<double>(m_n));
    const double fx = plotPos.x() / plot.width(), fy = plotPos.y() / plot.height();
    setWindow(at.y() - fy * span, at.x() - fx * span, span);
}

QPointF VatWindow::positionsAt(QPointF plotPos, QSizeF plot) const {
    return {m_col0 + plotPos.x() / plot.width() * m_span, m_row0 + plotPos.y() / plot.height() * m_span};
}

QPointF VatWindow::plotPoint(double column, double row, QSizeF plot) const {
    return {(column - m_col0) / m_span * plot.width(), (row - m_row0) / m_span * plot.height()};
}

VatViewport VatWindow::viewport(QSize pixels, VatImageKind kind, VatPixelMode mode) const {
    VatViewport v;
    v.row0 = m_row0;
    v.row1 = std::min(row1(), static_cast<double>(m_n));
    v.col0 = m_col0;
    v.col1 = std::min(col1(), static_cast<double>(m_n));
    v.width = pixels.width();
    v.height = pixels.height();
    v.kind = kind;
    v.mode = mode;
    return v;
}

}  // namespace clusterlens::views
