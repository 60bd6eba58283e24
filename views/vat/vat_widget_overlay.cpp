// VatWidget: what QPainter draws over the image (axes, strips, cut boxes, selection, hover) and the
// hover text.

#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "clusterlens/vat/metric.hpp"
#include "palette.hpp"
#include "vat/vat_frame_renderer.hpp"
#include "vat/vat_overlay.hpp"
#include "vat/vat_run.hpp"
#include "vat/vat_widget.hpp"

namespace clusterlens::views {

namespace {

constexpr double kStripWidth = 6.0;
constexpr double kStripGap = 2.0;

QString countText(std::size_t value) {
    return QLocale().toString(static_cast<qulonglong>(value));
}

}  // namespace

QString VatWidget::describeAt(QPointF widgetPos) const {
    if (!m_run || !plotRect().contains(widgetPos)) return {};
    const QPointF at = positionsAt(widgetPos);
    const std::size_t n = m_run->n();
    const auto clampPosition = [n](double p) { return std::min(static_cast<std::size_t>(std::max(0.0, p)), n - 1); };
    const std::size_t row = clampPosition(at.y()), column = clampPosition(at.x());
    const VatResult& vat = *m_run->vat;
    const VatRenderSource& source = m_run->renderer->source();
    double distance = 0.0;
    if (m_display.kind == VatImageKind::Ivat) {
        distance = source.ivat.ivat(row, column);
    } else {
        const float* a = source.ordered.data() + row * source.d;
        const float* b = source.ordered.data() + column * source.d;
        distance = metricDistance(a, b, source.d, source.metric);
    }
    return tr("row %1 (point %2) \u00d7 column %3 (point %4)\n%5 distance %6 (%7)")
        .arg(countText(row), countText(static_cast<std::size_t>(vat.order[row])), countText(column),
             countText(static_cast<std::size_t>(vat.order[column])), vatKindName(m_display.kind))
        .arg(distance, 0, 'g', 6)
        .arg(QString::fromLatin1(metricName(source.metric)));
}

void VatWidget::paintOverlay(QPainter& painter) const {
    painter.setRenderHint(QPainter::Antialiasing, false);
    if (!m_glError.isEmpty()) return paintMessage(painter, m_glError);
    if (!m_run) return paintMessage(painter, tr("No VAT image yet: choose the metric and press Compute."));
    paintStrips(painter);
    paintStripBands(painter);
    paintAxes(painter);
    paintCutBoxes(painter);
    paintSelection(painter);
    paintHover(painter);
}

void VatWidget::paintAxes(QPainter& painter) const {
    paintVatAxes(painter, plotRect(), m_window);
}

void VatWidget::paintStrips(QPainter& painter) const {
    const QRectF plot = plotRect();
    const int pixels = plotDeviceRect().width();
    const QRectF top(plot.left(), plot.top() - kStripGap - kStripWidth, plot.width(), kStripWidth);
    const QRectF left(plot.left() - kStripGap - kStripWidth, plot.top(), kStripWidth, plot.height());
    if (m_labels) {
        drawVatStrip(painter, top, vatLabelStrip(*m_run->vat, *m_labels, m_window.col0(), m_window.col1(), pixels),
                     true);
        drawVatStrip(painter, left, vatLabelStrip(*m_run->vat, *m_labels, m_window.row0(), m_window.row1(), pixels),
                     false);
    }
    if (m_marked) {
        const QColor colour = Palette::selectionColor();
        const double shift = kStripGap + kStripWidth;
        drawVatStrip(painter, top.translated(0, -shift),
                     vatMarkStrip(*m_marked, m_window.col0(), m_window.col1(), pixels, colour), true);
        drawVatStrip(painter, left.translated(-shift, 0),
                     vatMarkStrip(*m_marked, m_window.row0(), m_window.row1(), pixels, colour), false);
    }
}

double VatWidget::stripsExtent() const {
    return colourStripsExtent(font(), m_run ? fittingStripCount(m_strips.get(), m_run->n()) : 0);
}

QRectF VatWidget::bottomStripsRect() const {
    const double extent = stripsExtent();
    if (extent <= 0) return {};
    const QRectF plot = plotRect();
    return {plot.left(), plot.bottom() + 2, plot.width(), extent};
}

QRectF VatWidget::rightStripsRect() const {
    const double extent = stripsExtent();
    if (extent <= 0) return {};
    const QRectF plot = plotRect();
    return {plot.right() + 2, plot.top(), extent, plot.height()};
}

void VatWidget::paintStripBands(QPainter& painter) const {
    const QRectF bottom = bottomStripsRect();
    if (bottom.isEmpty()) return;
    const auto& order = m_run->vat->order;
    const auto idAt = [&order](std::size_t position) { return static_cast<std::size_t>(order[position]); };
    const std::size_t n = m_run->n();
    painter.setFont(font());
    paintColourStrips(painter, {bottom, m_window.col0(), m_window.col1(), false, bottom.left() - 4}, *m_strips, n, n,
                      idAt);
    paintColourStrips(painter, {rightStripsRect(), m_window.row0(), m_window.row1(), true, 0.0}, *m_strips, n, n, idAt);
}

void VatWidget::paintCutBoxes(QPainter& painter) const {
    paintVatCutBoxes(painter, plotRect(), m_window, m_cuts);
}

void VatWidget::paintSelection(QPainter& painter) const {
    const QRectF plot = plotRect();
    painter.save();
    painter.setClipRect(plot);
    QColor fill = Palette::selectionColor();
    fill.setAlpha(50);
    const auto drawBlock = [&](double first, double end) {
        painter.setPen(QPen(Palette::selectionColor(), 2.0, Qt::DashLine));
        painter.setBrush(fill);
        painter.drawRect(QRectF(widgetPoint(first, first), widgetPoint(end, end)));
    };
    if (m_drag == Drag::Select) {
        const auto [first, last] = diagonalBlock(m_dragStart, m_dragLast);
        drawBlock(static_cast<double>(first), static_cast<double>(last + 1));
    } else if (m_block) {
        drawBlock(static_cast<double>(m_block->first), static_cast<double>(m_block->second + 1));
    }
    painter.restore();
}

void VatWidget::paintHover(QPainter& painter) const {
    if (m_hoverText.isEmpty() || m_drag != Drag::None) return;
    const QFontMetricsF metrics(font());
    const QRectF bounds = metrics.boundingRect(QRectF(0, 0, 1000, 1000), Qt::AlignLeft, m_hoverText);
    QRectF box(m_hoverPos + QPointF(14, 14), bounds.size() + QSizeF(12, 8));
    if (box.right() > width()) box.moveRight(m_hoverPos.x() - 8);
    if (box.bottom() > height()) box.moveBottom(m_hoverPos.y() - 8);
    painter.save();
    painter.setPen(QColor(120, 120, 120));
    painter.setBrush(QColor(255, 255, 240, 235));
    painter.drawRect(box);
    painter.setPen(Qt::black);
    painter.drawText(box.adjusted(6, 4, -6, -4), Qt::AlignLeft, m_hoverText);
    painter.restore();
}

void VatWidget::paintMessage(QPainter& painter, const QString& text) const {
    painter.save();
    painter.setPen(QColor(90, 90, 90));
    painter.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, text);
    painter.restore();
}

}  // namespace clusterlens::views
