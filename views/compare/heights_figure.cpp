#include "compare/heights_figure.hpp"

#include <QCoreApplication>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "palette.hpp"

namespace clusterlens::views {

namespace {

const QColor kHeightsDiagonalColor(0xd0, 0x30, 0x30);
constexpr double kHeightsMargin = 0.03;  // data margin inside the frame, as in the GUI's scatter
constexpr int kVectorGrid = 48;          // density bins per axis that colour individually drawn points
constexpr int kMaxImageSide = 2048;      // density image pixels per side at most
constexpr double kImageOversample = 2.0;

QString trHeightsFigure(const char* text) {
    return QCoreApplication::translate("HeightsFigure", text);
}

/// Bin of a value in [0, 1) among `bins`, clamped.
int heightsBinOf(double u, int bins) {
    return std::clamp(static_cast<int>(u * bins), 0, bins - 1);
}

}  // namespace

HeightsFigure::HeightsFigure(std::shared_ptr<const HeightsComparison> comparison, bool equalAxes, HeightsColour colour)
    : m_comparison(std::move(comparison)), m_range(heightsRange(*m_comparison, equalAxes)), m_colour(colour) {
    const double dx = (m_range.xMax - m_range.xMin) * kHeightsMargin,
                 dy = (m_range.yMax - m_range.yMin) * kHeightsMargin;
    m_range.xMin -= dx, m_range.xMax += dx, m_range.yMin -= dy, m_range.yMax += dy;
    if (m_colour == HeightsColour::RankDifference) m_discordance = discordanceScale(*m_comparison);
}

QString HeightsFigure::ownTitle() const {
    return trHeightsFigure("Point heights: %1 vs %2").arg(m_comparison->nameA, m_comparison->nameB);
}

QString HeightsFigure::subtitle() const {
    return trHeightsFigure("%1 \u00b7 N = %2")
        .arg(correlationText(*m_comparison), QLocale().toString(static_cast<qulonglong>(m_comparison->pointCount())));
}

AxisSpec HeightsFigure::xAxis() const {
    return {m_range.xMin, m_range.xMax, false,
            FigureStyle::pick(style().xLabel, heightsAxisTitle(m_comparison->nameA, false))};
}

AxisSpec HeightsFigure::yAxis() const {
    return {m_range.yMin, m_range.yMax, false,
            FigureStyle::pick(style().yLabel, heightsAxisTitle(m_comparison->nameB, true))};
}

FigureLegend HeightsFigure::legend() const {
    const double lo = std::max(m_range.xMin, m_range.yMin), hi = std::min(m_range.xMax, m_range.yMax);
    FigureLegend legend;
    legend.items.push_back(
        {kHeightsDiagonalColor,
         lo < hi ? trHeightsFigure("y = x (equal heights)") : trHeightsFigure("y = x lies outside the plotted range"),
         LegendSwatch::DashedLine});
    if (m_colour == HeightsColour::RankDifference)
        legend.items.push_back({QColor(),
                                trHeightsFigure("%1, %2 \u2192 %3")
                                    .arg(m_discordance.title, QLocale().toString(m_discordance.low, 'g', 4),
                                         QLocale().toString(m_discordance.high, 'g', 4)),
                                LegendSwatch::Ramp});
    else
        legend.items.push_back({QColor(), trHeightsFigure("point density, low \u2192 high"), LegendSwatch::Ramp});
    return legend;
}

XYLayout HeightsFigure::layout(const QRectF& area) const {
    return layoutXY(area, axesFonts(), title(), subtitle(), xAxis(), yAxis(), legend(), legendPosition());
}

QRectF HeightsFigure::plotRect(const QRectF& area) const {
    return layout(area).plot;
}

QPointF HeightsFigure::mapToPlot(double a, double b, const QRectF& plot) const {
    const double u = (a - m_range.xMin) / (m_range.xMax - m_range.xMin);
    const double v = (b - m_range.yMin) / (m_range.yMax - m_range.yMin);
    return {plot.left() + u * plot.width(), plot.bottom() - v * plot.height()};
}

void HeightsFigure::paint(QPainter& painter, const QRectF& area) const {
    painter.save();
    paintBackground(painter, area);
    const XYLayout parts = layout(area);
    const AxesFonts fonts = axesFonts();
    paintTitleBlock(painter, parts.title, fonts, title(), subtitle());
    paintAxes(painter, parts.plot, xAxis(), yAxis(), fonts);
    painter.save();
    painter.setClipRect(parts.plot);
    if (drawsDensityImage())
        paintDensityImage(painter, parts.plot);
    else
        paintPoints(painter, parts.plot);
    paintDiagonal(painter, parts.plot);
    painter.restore();
    paintFrame(painter, parts.plot);
    legend().paint(painter, parts.legend, fonts.text, legendPosition());
    painter.restore();
}

std::vector<std::pair<std::size_t, double>> HeightsFigure::pointColours(const QRectF& plot) const {
    const auto& a = m_comparison->heightsA;
    const auto& b = m_comparison->heightsB;
    const std::size_t n = m_comparison->pointCount();
    std::vector<std::pair<std::size_t, double>> points;
    points.reserve(n);
    if (m_colour == HeightsColour::RankDifference) {
        for (std::size_t i = 0; i < n; ++i)
            if (std::isfinite(a[i]) && std::isfinite(b[i]))
                points.emplace_back(i, m_discordance.normalised(std::fabs(m_comparison->rankDifference[i])));
    } else {  // the density of their neighbourhood, as in the GUI's scatter
        std::vector<int> bin(n, -1);
        std::vector<int> counts(static_cast<std::size_t>(kVectorGrid) * kVectorGrid, 0);
        for (std::size_t i = 0; i < n; ++i) {
            if (!std::isfinite(a[i]) || !std::isfinite(b[i])) continue;
            const QPointF p = mapToPlot(a[i], b[i], plot);
            const int bx = heightsBinOf((p.x() - plot.left()) / plot.width(), kVectorGrid);
            const int by = heightsBinOf((plot.bottom() - p.y()) / plot.height(), kVectorGrid);
            bin[i] = by * kVectorGrid + bx;
            ++counts[static_cast<std::size_t>(bin[i])];
        }
        const double peak = std::log1p(std::max(1, *std::max_element(counts.begin(), counts.end())));
        for (std::size_t i = 0; i < n; ++i)
            if (bin[i] >= 0) points.emplace_back(i, std::log1p(counts[static_cast<std::size_t>(bin[i])]) / peak);
    }
    // Densest (or most discordant) drawn last, so they stay visible.
    std::stable_sort(points.begin(), points.end(), [](const auto& p, const auto& q) { return p.second < q.second; });
    return points;
}

void HeightsFigure::paintPoints(QPainter& painter, const QRectF& plot) const {
    const auto& a = m_comparison->heightsA;
    const auto& b = m_comparison->heightsB;
    const std::size_t n = m_comparison->pointCount();
    const double radius = n <= 2'000 ? 2.6 : n <= 20'000 ? 1.7 : 1.1;
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(Qt::NoPen);
    for (const auto& [i, position] : pointColours(plot)) {
        QColor colour = Palette::colormap(position);
        colour.setAlpha(210);
        painter.setBrush(colour);
        painter.drawEllipse(mapToPlot(a[i], b[i], plot), radius, radius);
    }
}

std::vector<std::ptrdiff_t> HeightsFigure::pixelsOf(int w, int h) const {
    const auto& a = m_comparison->heightsA;
    const auto& b = m_comparison->heightsB;
    const double sx = 1.0 / (m_range.xMax - m_range.xMin), sy = 1.0 / (m_range.yMax - m_range.yMin);
    std::vector<std::ptrdiff_t> pixel(m_comparison->pointCount(), -1);
    for (std::size_t i = 0; i < pixel.size(); ++i) {
        if (!std::isfinite(a[i]) || !std::isfinite(b[i])) continue;
        const int x = heightsBinOf((a[i] - m_range.xMin) * sx, w);
        const int y = h - 1 - heightsBinOf((b[i] - m_range.yMin) * sy, h);
        pixel[i] = static_cast<std::ptrdiff_t>(y) * w + x;
    }
    return pixel;
}

void HeightsFigure::paintDensityImage(QPainter& painter, const QRectF& plot) const {
    const int w = std::clamp(static_cast<int>(plot.width() * kImageOversample), 16, kMaxImageSide);
    const int h = std::clamp(static_cast<int>(plot.height() * kImageOversample), 16, kMaxImageSide);
    const std::vector<std::ptrdiff_t> pixelOf = pixelsOf(w, h);
    std::vector<double> position(static_cast<std::size_t>(w) * h, -1.0);  // on the colormap; < 0: no point
    if (m_colour == HeightsColour::RankDifference) {                      // each pixel's most discordant point
        for (std::size_t i = 0; i < pixelOf.size(); ++i) {
            if (pixelOf[i] < 0) continue;
            double& p = position[static_cast<std::size_t>(pixelOf[i])];
            p = std::max(p, m_discordance.normalised(std::fabs(m_comparison->rankDifference[i])));
        }
    } else {
        std::vector<std::uint32_t> counts(position.size(), 0);
        for (const std::ptrdiff_t p : pixelOf)
            if (p >= 0) ++counts[static_cast<std::size_t>(p)];
        const double peak = std::log1p(
            static_cast<double>(std::max<std::uint32_t>(1, *std::max_element(counts.begin(), counts.end()))));
        // Even a single point must stay visible: the scale starts a little above the background.
        for (std::size_t p = 0; p < counts.size(); ++p)
            if (counts[p] > 0) position[p] = 0.12 + 0.88 * std::log1p(counts[p]) / peak;
    }
    QImage image(w, h, QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    for (int y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < w; ++x) {
            const double v = position[static_cast<std::size_t>(y) * w + x];
            if (v >= 0.0) line[x] = Palette::colormap(v).rgba();
        }
    }
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(plot, image);
}

void HeightsFigure::paintDiagonal(QPainter& painter, const QRectF& plot) const {
    const double lo = std::max(m_range.xMin, m_range.yMin), hi = std::min(m_range.xMax, m_range.yMax);
    if (!(lo < hi)) return;
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(kHeightsDiagonalColor, 1.5, Qt::DashLine));
    painter.setBrush(Qt::NoBrush);
    QPainterPath line(mapToPlot(lo, lo, plot));  // a path: vector outputs keep it one element
    line.lineTo(mapToPlot(hi, hi, plot));
    painter.drawPath(line);
}

}  // namespace clusterlens::views
