#include "figure/composed_figure.hpp"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace clusterlens::views {

namespace {

constexpr double kCellGap = 6.0;  // between cells, logical pixels

}  // namespace

ComposedFigure::ComposedFigure(std::vector<std::unique_ptr<Figure>> panels, int columns)
    : m_columns(std::max(1, columns)) {
    for (auto& panel : panels)
        if (panel) m_panels.push_back(std::move(panel));
    m_columns = std::min(m_columns, std::max(1, static_cast<int>(m_panels.size())));
}

int ComposedFigure::rows() const {
    return std::max(1, static_cast<int>((m_panels.size() + static_cast<std::size_t>(m_columns) - 1) /
                                        static_cast<std::size_t>(m_columns)));
}

QSize ComposedFigure::defaultSize() const {
    // Cells as wide as the widest panel's own size, as high as its aspect asks.
    int width = 320, height = 240;
    for (const auto& panel : m_panels) {
        width = std::max(width, panel->defaultSize().width());
        height = std::max(height, panel->defaultSize().height());
    }
    return {m_columns * width, rows() * height + static_cast<int>(titleHeight())};
}

QString ComposedFigure::panelLetter(std::size_t index) {
    QString letters;
    for (std::size_t i = index + 1; i > 0; i = (i - 1) / 26)
        letters.prepend(QChar(u'A' + static_cast<char16_t>((i - 1) % 26)));
    return letters;
}

double ComposedFigure::titleHeight() const {
    return title().isEmpty() ? 0.0 : QFontMetricsF(font(16, true)).height() + 2 * kCellGap;
}

QRectF ComposedFigure::cellRect(const QRectF& area, std::size_t index) const {
    const double top = area.top() + titleHeight();
    const double width = (area.width() - (m_columns - 1) * kCellGap) / m_columns;
    const double height = (area.bottom() - top - (rows() - 1) * kCellGap) / rows();
    const auto row = static_cast<int>(index / static_cast<std::size_t>(m_columns));
    const auto column = static_cast<int>(index % static_cast<std::size_t>(m_columns));
    return {area.left() + column * (width + kCellGap), top + row * (height + kCellGap), width, height};
}

FigureStyle ComposedFigure::panelStyle() const {
    FigureStyle panels = style();
    panels.title.clear();
    panels.xLabel.clear();
    panels.yLabel.clear();
    panels.transparent = true;
    return panels;
}

QRectF ComposedFigure::panelRect(const QRectF& area, std::size_t index) const {
    // The letter has a column of its own, so no panel's title or label runs under it.
    const QFontMetricsF letterMetrics(font(18, true));
    return cellRect(area, index).adjusted(letterMetrics.horizontalAdvance(panelLetter(index)) + 2, 0, 0, 0);
}

void ComposedFigure::paint(QPainter& painter, const QRectF& area) const {
    painter.save();
    paintBackground(painter, area);
    if (!title().isEmpty()) {
        painter.setFont(font(16, true));
        painter.setPen(Qt::black);
        painter.drawText(QRectF(area.left(), area.top() + kCellGap, area.width(), titleHeight() - kCellGap),
                         Qt::AlignHCenter | Qt::AlignTop,
                         QFontMetricsF(painter.font()).elidedText(title(), Qt::ElideRight, area.width()));
    }
    const QFont letterFont = font(18, true);
    const QFontMetricsF letterMetrics(letterFont);
    for (std::size_t i = 0; i < m_panels.size(); ++i) {
        const QRectF cell = cellRect(area, i);
        const QRectF panel = panelRect(area, i);
        m_panels[i]->setStyle(panelStyle());
        painter.save();
        painter.setClipRect(panel);
        m_panels[i]->paint(painter, panel);
        painter.restore();
        painter.setFont(letterFont);
        painter.setPen(Qt::black);
        painter.drawText(QPointF(cell.left(), cell.top() + letterMetrics.ascent()), panelLetter(i));
    }
    painter.restore();
}

}  // namespace clusterlens::views
