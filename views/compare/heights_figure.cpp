#include "compare/heights_figure.hpp"

#include <QCoreApplication>
#include <QLinearGradient>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "palette.hpp"
#include "scatter/view_window.hpp"

namespace clusterlens::views {

namespace {

const QColor kAxisColor(0x30, 0x30, 0x30);
const QColor kGridColor(0x00, 0x00, 0x00, 26);
const QColor kDiagonalColor(0xd0, 0x30, 0x30);
constexpr double kMargin = 0.03;      // data margin inside the frame, as in the GUI's scatter
constexpr int kVectorGrid = 48;       // density bins per axis that colour individually drawn points
constexpr int kMaxImageSide = 2048;   // density image pixels per side at most
constexpr double kImageOversample = 2.0;

QString tr(const char* text) { return QCoreApplication::translate("HeightsFigure", text); }

QFont figureFont(int pixels, bool bold = false) {
    QFont font;
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

/// Bin of a value in [0, 1) among `bins`, clamped.
int binOf(double u, int bins) { return std::clamp(static_cast<int>(u * bins), 0, bins - 1); }

}  // namespace

HeightsFigure::HeightsFigure(std::shared_ptr<const HeightsComparison> comparison, bool equalAxes)
    : m_comparison(std::move(comparison)), m_range(heightsRange(*m_comparison, equalAxes)) {
    const double dx = (m_range.xMax - m_range.xMin) * kMargin, dy = (m_range.yMax - m_range.yMin) * kMargin;
    m_range.xMin -= dx, m_range.xMax += dx, m_range.yMin -= dy, m_range.yMax += dy;
}

QRectF HeightsFigure::plotRect(const QRectF& area) const {
    const QFontMetricsF label(figureFont(11)), title(figureFont(14, true));
    const double left = label.height() + 10 + label.horizontalAdvance(QStringLiteral("-8888.88"));
    const double top = title.height() + 2 * label.height() + 30;
    const double bottom = 2 * label.height() + 20;
    const double right = 32;  // half of the last x tick label
    return QRectF(area.left() + left, area.top() + top, std::max(10.0, area.width() - left - right),
                  std::max(10.0, area.height() - top - bottom));
}

QPointF HeightsFigure::mapToPlot(double a, double b, const QRectF& plot) const {
    const double u = (a - m_range.xMin) / (m_range.xMax - m_range.xMin);
    const double v = (b - m_range.yMin) / (m_range.yMax - m_range.yMin);
    return {plot.left() + u * plot.width(), plot.bottom() - v * plot.height()};
}

void HeightsFigure::paint(QPainter& painter, const QRectF& area) const {
    painter.save();
    painter.fillRect(area, Qt::white);
    const QRectF plot = plotRect(area);
    paintAxes(painter, plot);
    painter.save();
    painter.setClipRect(plot);
    if (drawsDensityImage())
        paintDensityImage(painter, plot);
    else
        paintPoints(painter, plot);
    paintDiagonal(painter, plot);
    painter.restore();
    painter.setPen(QPen(kAxisColor, 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
    paintLegend(painter, plot);
    paintTitle(painter, area);
    painter.restore();
}

void HeightsFigure::paintTitle(QPainter& painter, const QRectF& area) const {
    const QFont titleFont = figureFont(14, true), textFont = figureFont(11);
    const QFontMetricsF title(titleFont), text(textFont);
    painter.setPen(kAxisColor);
    painter.setFont(titleFont);
    const QRectF line1(area.left() + 8, area.top() + 8, area.width() - 16, title.height());
    painter.drawText(line1, Qt::AlignHCenter | Qt::AlignVCenter,
                     title.elidedText(tr("Point heights: %1 vs %2").arg(m_comparison->nameA, m_comparison->nameB),
                                      Qt::ElideMiddle, line1.width()));
    painter.setFont(textFont);
    const QRectF line2(line1.left(), line1.bottom() + 4, line1.width(), text.height());
    painter.drawText(line2, Qt::AlignHCenter | Qt::AlignVCenter,
                     tr("%1 \u00b7 N = %2")
                         .arg(correlationText(*m_comparison),
                              QLocale().toString(static_cast<qulonglong>(m_comparison->pointCount()))));
}

void HeightsFigure::paintAxes(QPainter& painter, const QRectF& plot) const {
    const QFont font = figureFont(11);
    const QFontMetricsF metrics(font);
    painter.setFont(font);
    const int maxXTicks = std::max(2, static_cast<int>(plot.width() / (metrics.horizontalAdvance(QStringLiteral("-888.88")) + 24)));
    const int maxYTicks = std::max(2, static_cast<int>(plot.height() / (2.5 * metrics.height())));
    const std::vector<double> xTicks = niceTicks(m_range.xMin, m_range.xMax, maxXTicks);
    const std::vector<double> yTicks = niceTicks(m_range.yMin, m_range.yMax, maxYTicks);
    const double xStep = xTicks.size() > 1 ? xTicks[1] - xTicks[0] : m_range.xMax - m_range.xMin;
    const double yStep = yTicks.size() > 1 ? yTicks[1] - yTicks[0] : m_range.yMax - m_range.yMin;
    for (double t : xTicks) {
        const double x = mapToPlot(t, m_range.yMin, plot).x();
        painter.setPen(QPen(kGridColor, 1.0));
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        painter.setPen(QPen(kAxisColor, 1.0));
        painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 5));
        const QString label = formatTick(t, xStep);
        painter.drawText(QPointF(x - metrics.horizontalAdvance(label) / 2, plot.bottom() + 7 + metrics.ascent()), label);
    }
    for (double t : yTicks) {
        const double y = mapToPlot(m_range.xMin, t, plot).y();
        painter.setPen(QPen(kGridColor, 1.0));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(QPen(kAxisColor, 1.0));
        painter.drawLine(QPointF(plot.left() - 5, y), QPointF(plot.left(), y));
        const QString label = formatTick(t, yStep);
        painter.drawText(QPointF(plot.left() - 8 - metrics.horizontalAdvance(label), y + metrics.ascent() / 2 - 1),
                         label);
    }
    painter.setFont(figureFont(11, true));
    const QRectF xTitle(plot.left(), plot.bottom() + metrics.height() + 12, plot.width(), metrics.height() + 2);
    painter.drawText(xTitle, Qt::AlignHCenter | Qt::AlignVCenter,
                     metrics.elidedText(heightsAxisTitle(m_comparison->nameA, false), Qt::ElideMiddle, plot.width()));
    painter.save();
    painter.translate(plot.left() - metrics.horizontalAdvance(QStringLiteral("-8888.88")) - 10 - metrics.height(),
                      plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), metrics.height() + 2), Qt::AlignCenter,
                     metrics.elidedText(heightsAxisTitle(m_comparison->nameB, true), Qt::ElideMiddle, plot.height()));
    painter.restore();
}

void HeightsFigure::paintPoints(QPainter& painter, const QRectF& plot) const {
    // Coloured by the density of their neighbourhood, densest drawn last, as in the GUI's scatter.
    const auto& a = m_comparison->heightsA;
    const auto& b = m_comparison->heightsB;
    const std::size_t n = m_comparison->pointCount();
    std::vector<int> bin(n, -1);
    std::vector<int> counts(static_cast<std::size_t>(kVectorGrid) * kVectorGrid, 0);
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(a[i]) || !std::isfinite(b[i])) continue;
        const QPointF p = mapToPlot(a[i], b[i], plot);
        const int bx = binOf((p.x() - plot.left()) / plot.width(), kVectorGrid);
        const int by = binOf((plot.bottom() - p.y()) / plot.height(), kVectorGrid);
        bin[i] = by * kVectorGrid + bx;
        ++counts[static_cast<std::size_t>(bin[i])];
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto countOf = [&](std::size_t i) { return bin[i] < 0 ? -1 : counts[static_cast<std::size_t>(bin[i])]; };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return countOf(i) < countOf(j); });
    const double peak = std::log1p(std::max(1, *std::max_element(counts.begin(), counts.end())));
    const double radius = n <= 2'000 ? 2.6 : n <= 20'000 ? 1.7 : 1.1;
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(Qt::NoPen);
    for (std::size_t i : order) {
        if (bin[i] < 0) continue;
        QColor colour = Palette::colormap(std::log1p(countOf(i)) / peak);
        colour.setAlpha(210);
        painter.setBrush(colour);
        painter.drawEllipse(mapToPlot(a[i], b[i], plot), radius, radius);
    }
}

void HeightsFigure::paintDensityImage(QPainter& painter, const QRectF& plot) const {
    const int w = std::clamp(static_cast<int>(plot.width() * kImageOversample), 16, kMaxImageSide);
    const int h = std::clamp(static_cast<int>(plot.height() * kImageOversample), 16, kMaxImageSide);
    std::vector<std::uint32_t> counts(static_cast<std::size_t>(w) * h, 0);
    const auto& a = m_comparison->heightsA;
    const auto& b = m_comparison->heightsB;
    const double sx = 1.0 / (m_range.xMax - m_range.xMin), sy = 1.0 / (m_range.yMax - m_range.yMin);
    for (std::size_t i = 0; i < m_comparison->pointCount(); ++i) {
        if (!std::isfinite(a[i]) || !std::isfinite(b[i])) continue;
        const int x = binOf((a[i] - m_range.xMin) * sx, w);
        const int y = h - 1 - binOf((b[i] - m_range.yMin) * sy, h);
        ++counts[static_cast<std::size_t>(y) * w + x];
    }
    const double peak = std::log1p(static_cast<double>(std::max<std::uint32_t>(1, *std::max_element(counts.begin(), counts.end()))));
    QImage image(w, h, QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    for (int y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < w; ++x) {
            const std::uint32_t c = counts[static_cast<std::size_t>(y) * w + x];
            // Even a single point must stay visible: the scale starts a little above the background.
            if (c > 0) line[x] = Palette::colormap(0.12 + 0.88 * std::log1p(c) / peak).rgba();
        }
    }
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(plot, image);
}

void HeightsFigure::paintDiagonal(QPainter& painter, const QRectF& plot) const {
    const double lo = std::max(m_range.xMin, m_range.yMin), hi = std::min(m_range.xMax, m_range.yMax);
    if (!(lo < hi)) return;
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(kDiagonalColor, 1.5, Qt::DashLine));
    painter.setBrush(Qt::NoBrush);
    QPainterPath line(mapToPlot(lo, lo, plot));  // a path: vector outputs keep it one element
    line.lineTo(mapToPlot(hi, hi, plot));
    painter.drawPath(line);
}

void HeightsFigure::paintLegend(QPainter& painter, const QRectF& plot) const {
    // One row between the title and the frame, so it never hides points.
    const QFont font = figureFont(10);
    const QFontMetricsF metrics(font);
    const double lo = std::max(m_range.xMin, m_range.yMin), hi = std::min(m_range.xMax, m_range.yMax);
    const QString diagonal = lo < hi ? tr("y = x (equal heights)") : tr("y = x lies outside the plotted range");
    const QString density = tr("point density, low \u2192 high");
    const double sample = 24, gap = 6, spacing = 24;
    const double width = 2 * (sample + gap) + metrics.horizontalAdvance(diagonal) + spacing +
                         metrics.horizontalAdvance(density);
    const double y = plot.top() - metrics.height() / 2 - 6;
    double x = plot.center().x() - width / 2;
    painter.setFont(font);
    painter.setPen(QPen(kDiagonalColor, 1.5, Qt::DashLine));
    painter.drawLine(QPointF(x, y), QPointF(x + sample, y));
    x += sample + gap;
    painter.setPen(kAxisColor);
    painter.drawText(QPointF(x, y + metrics.ascent() / 2 - 1), diagonal);
    x += metrics.horizontalAdvance(diagonal) + spacing;
    const QRectF bar(x, y - 4, sample, 8);
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 4; ++i) gradient.setColorAt(i / 4.0, Palette::colormap(i / 4.0));
    painter.fillRect(bar, gradient);
    x += sample + gap;
    painter.drawText(QPointF(x, y + metrics.ascent() / 2 - 1), density);
}

}  // namespace clusterlens::views
