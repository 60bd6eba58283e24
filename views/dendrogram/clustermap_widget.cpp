#include "dendrogram/clustermap_widget.hpp"

#include <QEvent>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

#include "dendrogram/dendrogram_widget.hpp"

namespace clusterlens::views {

namespace {

constexpr double kClustermapGap = 3.0;  // between the dendrogram's leaf axis and the cells

}  // namespace

ClustermapWidget::ClustermapWidget(DendrogramWidget* dendrogram, QWidget* parent)
    : QWidget(parent), m_dendrogram(dendrogram) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setToolTip(
        tr("Median of each active marker per cluster of the cut (per block of leaves without a cut), "
           "scaled per marker; grey columns are small clusters"));
    // Every repaint of the tree (pan, zoom, resize, new cut) repaints the band under it.
    m_dendrogram->installEventFilter(this);
    hide();
}

void ClustermapWidget::setClustermap(std::shared_ptr<const Clustermap> map) {
    m_map = std::move(map);
    setVisible(m_map && !m_map->markers.isEmpty() && m_map->columnCount() > 0);
    updateGeometry();
    update();
}

QSize ClustermapWidget::sizeHint() const {
    const int rows = m_map ? static_cast<int>(m_map->markers.size()) : 0;
    const QFontMetricsF metrics(font());
    return {200, static_cast<int>(kClustermapGap + clustermapHeight(rows, font()) + 2 * metrics.height() + 4)};
}

QSize ClustermapWidget::minimumSizeHint() const {
    const int rows = m_map ? static_cast<int>(m_map->markers.size()) : 0;
    const QFontMetricsF metrics(font());
    return {200, static_cast<int>(kClustermapGap + rows * kMinRowHeight + 2 * metrics.height() + 4)};
}

QRectF ClustermapWidget::bandRect() const {
    const QRectF plot = m_dendrogram->plotRect();
    const QPointF left = mapFromGlobal(m_dendrogram->mapToGlobal(plot.topLeft().toPoint()));
    const QPointF right = mapFromGlobal(m_dendrogram->mapToGlobal(plot.topRight().toPoint()));
    // The cells take what the scale below them leaves.
    const QFontMetricsF metrics(font());
    return QRectF(left.x(), kClustermapGap, right.x() - left.x(),
                  std::max(1.0, height() - kClustermapGap - 2 * metrics.height() - 4));
}

bool ClustermapWidget::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_dendrogram && (event->type() == QEvent::Paint || event->type() == QEvent::Resize) && isVisible())
        update();
    return QWidget::eventFilter(watched, event);
}

void ClustermapWidget::paintEvent(QPaintEvent*) {
    if (!m_map || !m_dendrogram->tree()) return;
    QPainter painter(this);
    const QRectF band = bandRect();
    paintClustermap(painter, *m_map, m_dendrogram->view(), band, QRectF(0, band.top(), band.left(), band.height()),
                    font());
    const QFontMetricsF metrics(font());
    paintClustermapScale(painter, m_map->scaling,
                         QRectF(band.left(), band.bottom() + 2, std::min(260.0, band.width()), 2 * metrics.height()),
                         font());
}

}  // namespace clusterlens::views
