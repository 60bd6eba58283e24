#include "compare/contingency_heatmap.hpp"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace clusterlens::views {

namespace {

constexpr int kMinColumnWidth = 8;
constexpr int kColumnMargins = 160;  // row labels, A's title and the colour bar

}  // namespace

ContingencyHeatmap::ContingencyHeatmap(QWidget* parent) : QWidget(parent) {
    setMinimumSize(minimumSizeHint());
    setAttribute(Qt::WA_OpaquePaintEvent);
    setCursor(Qt::PointingHandCursor);
}

void ContingencyHeatmap::setComparison(std::shared_ptr<const FlatComparison> comparison) {
    m_comparison = std::move(comparison);
    if (m_comparison)
        m_figure.emplace(m_comparison, 0);  // every column: the view scrolls instead of summing
    else
        m_figure.reset();
    // Columns at least kMinColumnWidth wide: in a scroll area, many clusters scroll sideways.
    const int columns = m_comparison ? static_cast<int>(m_comparison->cols()) : 0;
    setMinimumWidth(std::max(minimumSizeHint().width(), kColumnMargins + columns * kMinColumnWidth));
    update();
}

QRectF ContingencyHeatmap::cellRect(int row, int col) const {
    return m_figure ? m_figure->cellRect(QRectF(rect()), row, col) : QRectF();
}

void ContingencyHeatmap::setHighlightedCell(HeatmapCell cell) {
    if (!m_figure || m_figure->highlight() == cell) return;
    m_figure->setHighlight(cell);
    update();
}

void ContingencyHeatmap::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::TextAntialiasing);
    if (m_figure) {
        m_figure->paint(painter, QRectF(rect()));
        return;
    }
    painter.fillRect(rect(), Qt::white);
    painter.setPen(QColor(0x60, 0x60, 0x60));
    painter.drawText(rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap,
                     tr("Choose two labelings above (a dendrogram cut, density peaks, k-means or the file's ground "
                        "truth) to see how their clusters overlap."));
}

void ContingencyHeatmap::mousePressEvent(QMouseEvent* event) {
    if (!m_figure || event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    const HeatmapCell cell = m_figure->cellAt(QRectF(rect()), event->position());
    if (!cell.isValid()) return QWidget::mousePressEvent(event);
    m_figure->setHighlight(cell);
    update();
    Q_EMIT cellClicked(cell);
    event->accept();
}

}  // namespace clusterlens::views
