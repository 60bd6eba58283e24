// QPainter part of ScatterWidget::paintGL(): frame, ticks, tick labels and axis titles around the
// GL-drawn plot area, the optional diagonal, or a message when there is nothing to draw.

#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "figure/figure_axes.hpp"
#include "palette.hpp"
#include "scatter/scatter_widget.hpp"

namespace clusterlens::views {

namespace {

const QColor kScatterAxisColor(0x40, 0x40, 0x40);
const QColor kScatterGridColor(0x00, 0x00, 0x00, 22);
const QColor kDiagonalColor(0xd0, 0x30, 0x30);
constexpr int kScatterTickLength = 5;
constexpr int kMaxLegendLabels = 12;

QString tickLabel(double t, double step, bool log) {
    if (!log) return formatTick(t, step);
    const double value = std::pow(10.0, t);
    return std::abs(t - std::round(t)) < 1e-9 ? QString::number(value, 'g', 3) : formatTick(t, step);
}

}  // namespace

void ScatterWidget::paintOverlay(QPainter&) const {}

void ScatterWidget::paintMessage(QPainter& painter, const QString& text) const {
    painter.setPen(QColor(0x60, 0x60, 0x60));
    painter.drawText(rect().adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap, text);
}

void ScatterWidget::paintAxes(QPainter& painter) const {
    const QRectF plot = plotRect();
    const QFontMetrics metrics(font());
    const double xLo = m_data->toDataX(m_view.x0()), xHi = m_data->toDataX(m_view.x1());
    const double yLo = m_data->toDataY(m_view.y0()), yHi = m_data->toDataY(m_view.y1());
    const int maxXTicks =
        std::max(2, static_cast<int>(plot.width() / (metrics.horizontalAdvance(QStringLiteral("-888.88")) + 24)));
    const int maxYTicks = std::max(2, static_cast<int>(plot.height() / (2.5 * metrics.height())));
    const std::vector<double> xTicks = axisTicks(xLo, xHi, maxXTicks, m_data->xLog);
    const std::vector<double> yTicks = axisTicks(yLo, yHi, maxYTicks, m_data->yLog);
    const double xStep = xTicks.size() > 1 ? xTicks[1] - xTicks[0] : xHi - xLo;
    const double yStep = yTicks.size() > 1 ? yTicks[1] - yTicks[0] : yHi - yLo;

    painter.setFont(font());
    for (double t : xTicks) {
        const double px = mapFromData(t, yLo).x();
        painter.setPen(kScatterGridColor);
        painter.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
        painter.setPen(kScatterAxisColor);
        painter.drawLine(QPointF(px, plot.bottom()), QPointF(px, plot.bottom() + kScatterTickLength));
        const QString label = tickLabel(t, xStep, m_data->xLog);
        const double w = metrics.horizontalAdvance(label);
        painter.drawText(QPointF(px - w / 2, plot.bottom() + kScatterTickLength + metrics.ascent() + 2), label);
    }
    for (double t : yTicks) {
        const double py = mapFromData(xLo, t).y();
        painter.setPen(kScatterGridColor);
        painter.drawLine(QPointF(plot.left(), py), QPointF(plot.right(), py));
        painter.setPen(kScatterAxisColor);
        painter.drawLine(QPointF(plot.left() - kScatterTickLength, py), QPointF(plot.left(), py));
        const QString label = tickLabel(t, yStep, m_data->yLog);
        const double w = metrics.horizontalAdvance(label);
        painter.drawText(QPointF(plot.left() - kScatterTickLength - 3 - w, py + metrics.ascent() / 2.0 - 1), label);
    }
    painter.setPen(kScatterAxisColor);
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);

    QFont titleFont = font();
    titleFont.setBold(true);
    painter.setFont(titleFont);
    const QRectF xTitle(plot.left(), height() - metrics.height() - 4, plot.width(), metrics.height() + 2);
    painter.drawText(xTitle, Qt::AlignHCenter | Qt::AlignVCenter, m_data->xName);
    painter.save();
    painter.translate(4, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), metrics.height() + 2),
                     Qt::AlignHCenter | Qt::AlignTop, m_data->yName);
    painter.restore();

    if (m_data->pointCount < m_data->datasetSize) {
        painter.setFont(font());
        painter.setPen(QColor(0xa0, 0x50, 0x00));
        painter.drawText(
            plot.adjusted(6, 4, -6, -4), Qt::AlignTop | Qt::AlignRight,
            tr("%1 points with non-finite coordinates not shown").arg(m_data->datasetSize - m_data->pointCount));
    }
}

void ScatterWidget::paintDiagonal(QPainter& painter) const {
    // y = x across the visible window: from the larger lower bound to the smaller upper bound.
    const double lo = std::max(m_data->toDataX(m_view.x0()), m_data->toDataY(m_view.y0()));
    const double hi = std::min(m_data->toDataX(m_view.x1()), m_data->toDataY(m_view.y1()));
    if (!(lo < hi)) return;
    painter.save();
    painter.setClipRect(plotRect());
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(kDiagonalColor, 1.5, Qt::DashLine));
    painter.drawLine(mapFromData(lo, lo), mapFromData(hi, hi));
    painter.restore();
}

void ScatterWidget::paintShapes(QPainter& painter) const {
    if (m_data->mode != ColourMode::Labels || m_data->shapes.empty()) return;
    painter.save();
    painter.setClipRect(plotRect());
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setBrush(Qt::NoBrush);
    const auto map = [this](double u, double v) { return mapFromData(m_data->toDataX(u), m_data->toDataY(v)); };
    for (const ClusterShape& shape : m_data->shapes) {
        const QPolygonF outline = shapeOutline(shape, map);
        painter.setPen(QPen(QColor(255, 255, 255, 220), 3.6));  // a light rim keeps it visible over dense points
        painter.drawPolyline(outline);
        painter.setPen(QPen(labelColour(*m_data, shape.label).darker(125), 1.8));
        painter.drawPolyline(outline);
    }
    painter.restore();
}

QSizeF ScatterWidget::legendSize() const {
    if (!m_legend || !m_data || !m_glError.isEmpty()) return {};
    const QFontMetrics metrics(font());
    if (m_data->mode != ColourMode::Labels)
        return {0.0, (m_data->mode == ColourMode::Marker ? 2 : 1) * metrics.height() + 26.0};
    const auto shown = std::min<std::size_t>(m_data->labelValues.size(), kMaxLegendLabels);
    // Wide enough for the names of a labeling's own labels (populations), within reason.
    int widest = 0;
    for (std::size_t i = 0; i < shown; ++i)
        widest = std::max(widest, metrics.horizontalAdvance(labelName(*m_data, m_data->labelValues[i])));
    return {std::clamp(widest + 30.0, 110.0, 240.0) + 8.0, 0.0};
}

void ScatterWidget::paintLegend(QPainter& painter) const {
    const QRectF plot = plotRect();
    const QFontMetrics metrics(font());
    const int line = metrics.height();
    if (m_data->mode != ColourMode::Labels) {
        paintColourBar(painter, plot, metrics);
        return;
    }
    const auto shown = std::min<std::size_t>(m_data->labelValues.size(), kMaxLegendLabels);
    const bool more = m_data->labelValues.size() > shown;
    QRectF box(0, 0, legendSize().width() - 8.0, (static_cast<double>(shown) + (more ? 1 : 0)) * line + 8);
    box.moveTopLeft(QPointF(plot.right() + 8, plot.top()));
    painter.setPen(QColor(0xc0, 0xc0, 0xc0));
    painter.setBrush(QColor(255, 255, 255, 220));
    painter.drawRect(box);
    painter.setFont(font());
    double y = box.top() + 4;
    for (std::size_t i = 0; i < m_data->labelValues.size() && i < kMaxLegendLabels; ++i, y += line) {
        const int label = m_data->labelValues[i];
        painter.setPen(Qt::NoPen);
        painter.setBrush(labelColour(*m_data, label));
        painter.drawEllipse(QRectF(box.left() + 8, y + line / 2.0 - 4, 8, 8));
        painter.setPen(kScatterAxisColor);
        painter.drawText(QRectF(box.left() + 22, y, box.width() - 26, line), Qt::AlignLeft | Qt::AlignVCenter,
                         labelName(*m_data, label));
    }
    if (more)
        painter.drawText(QRectF(box.left() + 22, y, box.width() - 26, line), Qt::AlignLeft | Qt::AlignVCenter,
                         tr("\u2026 %1 more").arg(m_data->labelValues.size() - kMaxLegendLabels));
}

QRectF ScatterWidget::colourBarRect() const {
    if (!m_data || m_data->mode == ColourMode::Labels || !m_legend) return {};
    const int line = QFontMetrics(font()).height();
    const bool marker = m_data->mode == ColourMode::Marker;
    const double width =
        marker ? std::clamp(QFontMetrics(font()).horizontalAdvance(m_data->markerTitle) + 16.0, 160.0, 260.0) : 140.0;
    QRectF box(0, 0, width, (marker ? 2 : 1) * line + 22);
    box.moveBottomRight(plotRect().topRight() + QPointF(0, -4));
    const double top = box.top() + 6 + (marker ? line : 0);
    return QRectF(box.left() + 8, top, box.width() - 16, 8);
}

void ScatterWidget::paintColourBar(QPainter& painter, const QRectF& plot, const QFontMetrics& metrics) const {
    Q_UNUSED(plot);
    const int line = metrics.height();
    const bool marker = m_data->mode == ColourMode::Marker;
    const QRectF bar = colourBarRect();
    const QRectF box(bar.left() - 8, bar.top() - 6 - (marker ? line : 0), bar.width() + 16,
                     (marker ? 2 : 1) * line + 22);
    painter.setPen(QColor(0xc0, 0xc0, 0xc0));
    painter.setBrush(QColor(255, 255, 255, 220));
    painter.drawRect(box);
    painter.setFont(font());
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 8; ++i) gradient.setColorAt(i / 8.0, Palette::colormap(i / 8.0));
    painter.fillRect(bar, gradient);
    painter.setPen(kScatterAxisColor);
    const QRectF text(bar.left(), bar.bottom() + 2, bar.width(), line);
    if (!marker) {
        painter.drawText(text, Qt::AlignLeft | Qt::AlignTop, tr("low"));
        painter.drawText(text, Qt::AlignHCenter | Qt::AlignTop, tr("density"));
        painter.drawText(text, Qt::AlignRight | Qt::AlignTop, tr("high"));
        return;
    }
    painter.drawText(QRectF(bar.left(), box.top() + 3, bar.width(), line), Qt::AlignHCenter | Qt::AlignTop,
                     metrics.elidedText(m_data->markerTitle, Qt::ElideMiddle, static_cast<int>(bar.width())));
    const double step = (m_data->markerHigh - m_data->markerLow) / 4.0;
    painter.drawText(text, Qt::AlignLeft | Qt::AlignTop, formatTick(m_data->markerLow, step));
    painter.drawText(text, Qt::AlignRight | Qt::AlignTop, formatTick(m_data->markerHigh, step));
}

}  // namespace clusterlens::views
