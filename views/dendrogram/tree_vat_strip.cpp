#include "dendrogram/tree_vat_strip.hpp"

#include <QEvent>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <utility>

#include "dendrogram/dendrogram_widget.hpp"

namespace clusterlens::views {

namespace {

constexpr double kGap = 3.0;           // between the dendrogram's leaf axis and the image
constexpr int kMaxImagePixels = 4096;  // per side; a screen never shows more

int pixelsFor(double logical, double ratio) {
    return std::clamp(static_cast<int>(std::lround(logical * ratio)), 1, kMaxImagePixels);
}

}  // namespace

TreeVatStrip::TreeVatStrip(DendrogramWidget* dendrogram, QWidget* parent) : QWidget(parent), m_dendrogram(dendrogram) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setToolTip(
        tr("iVAT image of the VAT run on the same events with rows and columns in the tree's leaf order: "
           "a cluster of the tree that is a dark block is one the data's distances support"));
    // Every repaint of the tree (pan, zoom, resize) repaints the image under it.
    m_dendrogram->installEventFilter(this);
    hide();
}

void TreeVatStrip::setSource(std::shared_ptr<const VatRenderSource> source) {
    m_source = std::move(source);
    m_image = VatImage();
    m_coloured = QImage();
    update();
}

void TreeVatStrip::setStatus(const QString& text) {
    m_status = text;
    update();
}

QRectF TreeVatStrip::imageRect() const {
    if (!m_source || !m_dendrogram->tree() || m_source->n != m_dendrogram->tree()->leafCount) return {};
    const QRectF plot = m_dendrogram->plotRect();
    const double left = mapFromGlobal(m_dendrogram->mapToGlobal(plot.topLeft().toPoint())).x();
    const DendrogramView& view = m_dendrogram->view();
    const auto n = static_cast<double>(m_source->n);
    const double x0 = std::clamp(view.x0(), 0.0, n), x1 = std::clamp(view.x1(), 0.0, n);
    if (x1 <= x0) return {};
    const double perLeaf = plot.width() / (view.x1() - view.x0());
    const double a = left + (x0 - view.x0()) * perLeaf, b = left + (x1 - view.x0()) * perLeaf;
    return QRectF(a, kGap, b - a, std::max(1.0, std::min(b - a, height() - 2 * kGap)));
}

void TreeVatStrip::render(const QRectF& rect) {
    const DendrogramView& view = m_dendrogram->view();
    const auto n = static_cast<double>(m_source->n);
    VatViewport viewport;
    viewport.row0 = viewport.col0 = std::clamp(view.x0(), 0.0, n);
    viewport.row1 = viewport.col1 = std::clamp(view.x1(), 0.0, n);
    viewport.width = pixelsFor(rect.width(), devicePixelRatioF());
    viewport.height = pixelsFor(rect.height(), devicePixelRatioF());
    viewport.kind = VatImageKind::Ivat;
    if (!m_image.pixels.empty() && sameViewport(viewport, m_image.viewport)) return;
    const VatDisplay display;
    m_image.viewport = viewport;
    m_image.pixels.assign(static_cast<std::size_t>(viewport.width) * static_cast<std::size_t>(viewport.height), 0.0f);
    renderVatViewportCpu(*m_source, viewport, m_image.pixels.data());
    std::tie(m_image.lo, m_image.hi) =
        imagePercentiles(m_image.pixels.data(), m_image.pixels.size(), display.lowPercent, display.highPercent);
    m_coloured = colouriseVatImage(m_image, vatColourTable(display), display.gamma);
}

bool TreeVatStrip::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_dendrogram && (event->type() == QEvent::Paint || event->type() == QEvent::Resize) && isVisible())
        update();
    return QWidget::eventFilter(watched, event);
}

void TreeVatStrip::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRectF rect = imageRect();
    if (rect.isEmpty()) {
        painter.setPen(QColor(0x60, 0x60, 0x60));
        painter.drawText(this->rect().adjusted(12, 4, -12, -4), Qt::AlignCenter | Qt::TextWordWrap, m_status);
        return;
    }
    render(rect);
    painter.drawImage(rect, m_coloured);
    // The title in the margin the dendrogram's height axis takes above.
    const QFontMetricsF metrics(font());
    painter.setPen(QColor(0x40, 0x40, 0x40));
    painter.translate(std::max(0.0, rect.left() - metrics.height() - 6), rect.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-rect.height() / 2, 0, rect.height(), metrics.height() + 2), Qt::AlignHCenter,
                     metrics.elidedText(tr("iVAT in tree order"), Qt::ElideRight, rect.height()));
}

}  // namespace clusterlens::views
