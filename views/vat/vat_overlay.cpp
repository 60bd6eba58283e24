#include "vat/vat_overlay.hpp"

#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "palette.hpp"

namespace clusterlens::views {

namespace {

constexpr double kMinLabelledBox = 18.0;  // pixels: smaller boxes are outlined without a label

QString positionText(double position) {
    return QLocale().toString(static_cast<qlonglong>(std::llround(position)));
}

}  // namespace

double vatTickStep(double span, int targetCount) {
    const double raw = span / std::max(1, targetCount);
    if (!(raw > 0.0)) return 1.0;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= raw) return std::max(1.0, m * power);
    return std::max(1.0, 10.0 * power);
}

void paintVatAxes(QPainter& painter, const QRectF& plot, const VatWindow& window) {
    if (window.n() == 0) return;
    const QFontMetricsF metrics(painter.font());
    const int target =
        std::max(2, static_cast<int>(plot.width() / (metrics.horizontalAdvance(QStringLiteral("0 000 000")) + 12)));
    const double step = vatTickStep(window.span(), target);
    painter.save();
    painter.setPen(QPen(QColor(60, 60, 60), 1.0));
    const double gap = 16.0;  // the strips lie between the plot and the ticks
    double free = -1e300;     // labels that would overlap the previous one are left out
    for (double p = std::ceil(window.col0() / step) * step; p <= window.col1() + 1e-9; p += step) {
        const double x = plot.left() + (p - window.col0()) / window.span() * plot.width();
        painter.drawLine(QPointF(x, plot.top() - gap), QPointF(x, plot.top() - gap - 4));
        const QString text = positionText(p);
        const double w = metrics.horizontalAdvance(text);
        const double left = std::clamp(x - w / 2, plot.left() - gap, plot.right() - w);
        if (left < free) continue;
        painter.drawText(QPointF(left, plot.top() - gap - 6 - metrics.descent()), text);
        free = left + w + 6;
    }
    for (double p = std::ceil(window.row0() / step) * step; p <= window.row1() + 1e-9; p += step) {
        const double y = plot.top() + (p - window.row0()) / window.span() * plot.height();
        painter.drawLine(QPointF(plot.left() - gap, y), QPointF(plot.left() - gap - 4, y));
        const QString text = positionText(p);
        painter.drawText(QPointF(plot.left() - gap - 6 - metrics.horizontalAdvance(text), y + metrics.ascent() / 2 - 1),
                         text);
    }
    painter.setPen(QPen(QColor(90, 90, 90), 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot.adjusted(-0.5, -0.5, 0.5, 0.5));
    painter.restore();
}

void paintVatCutBoxes(QPainter& painter, const QRectF& plot, const VatWindow& window,
                      const std::vector<std::size_t>& cuts) {
    if (cuts.empty() || window.n() == 0) return;
    painter.save();
    painter.setClipRect(plot);
    const QFontMetricsF metrics(painter.font());
    const auto scale = plot.width() / window.span();
    const auto begin = [&](std::size_t b) { return b == 0 ? 0.0 : static_cast<double>(cuts[b - 1]); };
    const auto end = [&](std::size_t b) {
        return b == cuts.size() ? static_cast<double>(window.n()) : static_cast<double>(cuts[b]);
    };
    // Only blocks that meet the window on both axes can show: skip the others by binary search.
    const double lo = std::max(window.row0(), window.col0()), hi = std::min(window.row1(), window.col1());
    std::size_t first = static_cast<std::size_t>(
        std::upper_bound(cuts.begin(), cuts.end(), static_cast<std::size_t>(std::max(0.0, lo))) - cuts.begin());
    for (std::size_t b = first; b <= cuts.size() && begin(b) < hi; ++b) {
        const QRectF box(
            QPointF(plot.left() + (begin(b) - window.col0()) * scale, plot.top() + (begin(b) - window.row0()) * scale),
            QPointF(plot.left() + (end(b) - window.col0()) * scale, plot.top() + (end(b) - window.row0()) * scale));
        const QColor colour = Palette::labelColor(static_cast<int>(b));
        painter.setPen(QPen(colour, 2.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(box);
        if (box.width() < kMinLabelledBox) continue;
        const QString text = QString::number(b);
        const QRectF chip(box.left() + 3, std::max(box.top(), plot.top()) + 3, metrics.horizontalAdvance(text) + 8,
                          metrics.height() + 2);
        if (chip.right() > box.right() || chip.bottom() > box.bottom()) continue;
        painter.setPen(Qt::NoPen);
        painter.setBrush(colour);
        painter.drawRoundedRect(chip, 3, 3);
        painter.setPen(colour.lightnessF() > 0.6 ? Qt::black : Qt::white);
        painter.drawText(chip, Qt::AlignCenter, text);
    }
    painter.restore();
}

QImage vatLabelStrip(const VatResult& vat, const LabelVector& labels, double start, double end, int pixels) {
    QImage strip(std::max(1, pixels), 1, QImage::Format_ARGB32);
    auto* line = reinterpret_cast<QRgb*>(strip.scanLine(0));
    for (int i = 0; i < pixels; ++i) {
        const std::size_t p = viewportPosition(start, end, pixels, i, 0, 1, vat.n);
        line[i] = Palette::labelColor(labels[static_cast<std::size_t>(vat.order[p])]).rgba();
    }
    return strip;
}

QImage vatMarkStrip(const std::vector<std::int64_t>& marked, double start, double end, int pixels, QColor color) {
    QImage strip(std::max(1, pixels), 1, QImage::Format_ARGB32);
    auto* line = reinterpret_cast<QRgb*>(strip.scanLine(0));
    const double step = (end - start) / std::max(1, pixels);
    for (int i = 0; i < pixels; ++i) {
        // Positions p with floor-block [start + i·step, start + (i+1)·step) overlapping [p, p+1).
        const auto lo = static_cast<std::int64_t>(std::floor(start + i * step));
        const auto hi = static_cast<std::int64_t>(std::ceil(start + (i + 1) * step));
        const auto it = std::lower_bound(marked.begin(), marked.end(), lo);
        line[i] = it != marked.end() && *it < hi ? color.rgba() : qRgba(0, 0, 0, 0);
    }
    return strip;
}

void drawVatStrip(QPainter& painter, const QRectF& rect, const QImage& strip, bool horizontal) {
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    if (horizontal) {
        painter.drawImage(rect, strip);
    } else {
        // Down the left edge: pixel i of the strip becomes row i.
        QImage column(1, strip.width(), strip.format());
        const auto* line = reinterpret_cast<const QRgb*>(strip.constScanLine(0));
        for (int i = 0; i < strip.width(); ++i) column.setPixel(0, i, line[i]);
        painter.drawImage(rect, column);
    }
    painter.restore();
}

}  // namespace clusterlens::views
