#include "dpc/decision_figure.hpp"

#include <QCoreApplication>
#include <QImage>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <map>

#include "palette.hpp"
#include "scatter/view_window.hpp"

namespace clusterlens::views {

namespace {

const QColor kAxisColor(0x30, 0x30, 0x30);
const QColor kGridColor(0x00, 0x00, 0x00, 26);
const QColor kUnlabelled(0x50, 0x50, 0x50);
const QColor kThresholdColor(0xd0, 0x30, 0x30);
constexpr double kMargin = 0.04;
constexpr int kMaxImageSide = 2048;
constexpr double kImageOversample = 2.0;
constexpr std::size_t kMaxLegend = 12;

QString tr(const char* text) { return QCoreApplication::translate("DecisionFigure", text); }

QFont figureFont(int pixels, bool bold = false) {
    QFont font;
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

std::vector<double> ticksFor(double lo, double hi, int maxTicks, bool log) {
    if (!log) return niceTicks(lo, hi, maxTicks);
    const double first = std::ceil(lo), last = std::floor(hi);
    if (last < first) return niceTicks(lo, hi, maxTicks);
    const double every = std::max(1.0, std::ceil((last - first + 1) / std::max(1, maxTicks)));
    std::vector<double> ticks;
    for (double t = first; t <= last; t += every) ticks.push_back(t);
    return ticks;
}

QString tickText(double t, double step, bool log) {
    return log ? QString::number(std::pow(10.0, t), 'g', 3) : formatTick(t, step);
}

}  // namespace

DecisionFigure::DecisionFigure(std::shared_ptr<const DensityPeaksResult> result, DecisionFigureOptions options)
    : m_result(std::move(result)), m_options(std::move(options)),
      m_scale(DecisionScale::of(*m_result, m_options.logRho, m_options.logDelta)) {
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (std::size_t i = 0; i < m_result->rho.size(); ++i) {
        const double x = m_scale.x(m_result->rho[i]), y = m_scale.y(m_result->delta[i]);
        if (!std::isfinite(x) || !std::isfinite(y)) continue;
        x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
    if (!(x1 > x0)) x0 -= 0.5, x1 += 0.5;
    if (!(y1 > y0)) y0 -= 0.5, y1 += 0.5;
    const double dx = (x1 - x0) * kMargin, dy = (y1 - y0) * kMargin;
    m_x0 = x0 - dx, m_x1 = x1 + dx, m_y0 = y0 - dy, m_y1 = y1 + dy;
}

QRectF DecisionFigure::plotRect(const QRectF& area) const {
    const QFontMetricsF label(figureFont(11)), title(figureFont(14, true));
    const double left = label.height() + 14 + label.horizontalAdvance(QStringLiteral("-8888.88"));
    const double top = title.height() + label.height() + 24;
    const double bottom = 2 * label.height() + 20;
    const double right = 20 + label.horizontalAdvance(QStringLiteral("cluster 88")) + 24;
    return QRectF(area.left() + left, area.top() + top, std::max(10.0, area.width() - left - right),
                  std::max(10.0, area.height() - top - bottom));
}

QPointF DecisionFigure::mapToPlot(double rho, double delta, const QRectF& plot) const {
    const double u = (m_scale.x(rho) - m_x0) / (m_x1 - m_x0), v = (m_scale.y(delta) - m_y0) / (m_y1 - m_y0);
    return {plot.left() + u * plot.width(), plot.bottom() - v * plot.height()};
}

QColor DecisionFigure::colourOf(std::size_t i) const {
    if (!m_options.labels) return kUnlabelled;
    return Palette::labelColor((*m_options.labels)[i]);
}

void DecisionFigure::paint(QPainter& painter, const QRectF& area) const {
    painter.save();
    painter.fillRect(area, Qt::white);
    const QRectF plot = plotRect(area);
    paintAxes(painter, plot);
    painter.save();
    painter.setClipRect(plot);
    if (drawsImage())
        paintImage(painter, plot);
    else
        paintPoints(painter, plot);
    paintMarks(painter, plot);
    painter.restore();
    painter.setPen(QPen(kAxisColor, 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
    paintTitle(painter, area);
    // Cluster legend to the right of the frame.
    painter.setFont(figureFont(11));
    const QFontMetricsF metrics(painter.font());
    double y = plot.top();
    for (std::size_t c = 0; c < m_options.peaks.size() && c < kMaxLegend; ++c, y += metrics.height() + 2) {
        painter.setPen(QPen(Qt::black, 0.8));
        painter.setBrush(Palette::labelColor(static_cast<int>(c)));
        painter.drawEllipse(QPointF(plot.right() + 14, y + metrics.height() / 2), 4.5, 4.5);
        painter.setPen(kAxisColor);
        painter.drawText(QPointF(plot.right() + 24, y + metrics.ascent()), tr("cluster %1").arg(c));
    }
    if (m_options.peaks.size() > kMaxLegend)
        painter.drawText(QPointF(plot.right() + 24, y + metrics.ascent()),
                         tr("\u2026 %1 more").arg(m_options.peaks.size() - kMaxLegend));
    painter.restore();
}

void DecisionFigure::paintTitle(QPainter& painter, const QRectF& area) const {
    const QFont titleFont = figureFont(14, true), textFont = figureFont(11);
    const QFontMetricsF title(titleFont), text(textFont);
    painter.setPen(kAxisColor);
    painter.setFont(titleFont);
    const QRectF line1(area.left() + 8, area.top() + 8, area.width() - 16, title.height());
    painter.drawText(line1, Qt::AlignCenter,
                     m_options.title.isEmpty() ? tr("Decision graph") : m_options.title);
    painter.setFont(textFont);
    QStringList parts;
    if (!m_options.subtitle.isEmpty()) parts << m_options.subtitle;
    parts << tr("N = %1").arg(QLocale().toString(static_cast<qulonglong>(m_result->rho.size())));
    parts << tr("%1 peaks").arg(m_options.peaks.size());
    const QRectF line2(line1.left(), line1.bottom() + 4, line1.width(), text.height());
    painter.drawText(line2, Qt::AlignCenter,
                     text.elidedText(parts.join(QStringLiteral(" \u00b7 ")), Qt::ElideMiddle, line2.width()));
}

void DecisionFigure::paintAxes(QPainter& painter, const QRectF& plot) const {
    const QFont font = figureFont(11);
    const QFontMetricsF metrics(font);
    painter.setFont(font);
    const int maxX = std::max(2, static_cast<int>(plot.width() / (metrics.horizontalAdvance(QStringLiteral("-888.88")) + 24)));
    const int maxY = std::max(2, static_cast<int>(plot.height() / (2.5 * metrics.height())));
    const std::vector<double> xTicks = ticksFor(m_x0, m_x1, maxX, m_options.logRho);
    const std::vector<double> yTicks = ticksFor(m_y0, m_y1, maxY, m_options.logDelta);
    const double xStep = xTicks.size() > 1 ? xTicks[1] - xTicks[0] : m_x1 - m_x0;
    const double yStep = yTicks.size() > 1 ? yTicks[1] - yTicks[0] : m_y1 - m_y0;
    for (double t : xTicks) {
        const double x = plot.left() + (t - m_x0) / (m_x1 - m_x0) * plot.width();
        painter.setPen(QPen(kGridColor, 1.0));
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        painter.setPen(QPen(kAxisColor, 1.0));
        painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 5));
        const QString label = tickText(t, xStep, m_options.logRho);
        painter.drawText(QPointF(x - metrics.horizontalAdvance(label) / 2, plot.bottom() + 7 + metrics.ascent()), label);
    }
    for (double t : yTicks) {
        const double y = plot.bottom() - (t - m_y0) / (m_y1 - m_y0) * plot.height();
        painter.setPen(QPen(kGridColor, 1.0));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(QPen(kAxisColor, 1.0));
        painter.drawLine(QPointF(plot.left() - 5, y), QPointF(plot.left(), y));
        const QString label = tickText(t, yStep, m_options.logDelta);
        painter.drawText(QPointF(plot.left() - 8 - metrics.horizontalAdvance(label), y + metrics.ascent() / 2 - 1), label);
    }
    painter.setFont(figureFont(11, true));
    const QString xTitle = m_options.logRho ? tr("\u03c1, local density (log scale)") : tr("\u03c1, local density");
    const QString yTitle = m_options.logDelta ? tr("\u03b4, distance to a denser point (log scale)")
                                              : tr("\u03b4, distance to a denser point");
    painter.drawText(QRectF(plot.left(), plot.bottom() + metrics.height() + 12, plot.width(), metrics.height() + 2),
                     Qt::AlignCenter, xTitle);
    painter.save();
    painter.translate(plot.left() - metrics.horizontalAdvance(QStringLiteral("-8888.88")) - 12 - metrics.height(),
                      plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), metrics.height() + 2), Qt::AlignCenter,
                     metrics.elidedText(yTitle, Qt::ElideMiddle, plot.height()));
    painter.restore();
}

void DecisionFigure::paintPoints(QPainter& painter, const QRectF& plot) const {
    const std::size_t n = m_result->rho.size();
    const double radius = n <= 2'000 ? 2.4 : n <= 20'000 ? 1.6 : 1.1;
    // One path per colour: a compact vector file with real paths, instead of n separate ellipses.
    std::map<QRgb, QPainterPath> paths;
    for (std::size_t i = 0; i < n; ++i)
        paths[colourOf(i).rgb()].addEllipse(mapToPlot(m_result->rho[i], m_result->delta[i], plot), radius, radius);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(Qt::NoPen);
    for (const auto& [rgb, path] : paths) {
        QColor colour = QColor::fromRgb(rgb);
        colour.setAlpha(200);
        painter.setBrush(colour);
        painter.drawPath(path);
    }
}

void DecisionFigure::paintImage(QPainter& painter, const QRectF& plot) const {
    // One pixel per point, the last point drawn into a pixel wins; denser points come later in
    // the image as they do on screen, because the points are visited in increasing density.
    const int w = std::clamp(static_cast<int>(plot.width() * kImageOversample), 16, kMaxImageSide);
    const int h = std::clamp(static_cast<int>(plot.height() * kImageOversample), 16, kMaxImageSide);
    QImage image(w, h, QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    const QRectF unit(0, 0, w, h);
    const auto& order = m_result->densityOrder;
    for (std::size_t k = order.size(); k-- > 0;) {
        const auto i = static_cast<std::size_t>(order[k]);
        const QPointF p = mapToPlot(m_result->rho[i], m_result->delta[i], unit);
        const int x = std::clamp(static_cast<int>(p.x()), 0, w - 1), y = std::clamp(static_cast<int>(p.y()), 0, h - 1);
        image.setPixel(x, y, colourOf(i).rgba());
    }
    painter.drawImage(plot, image);
}

void DecisionFigure::paintMarks(QPainter& painter, const QRectF& plot) const {
    painter.setRenderHint(QPainter::Antialiasing, true);
    if (m_options.thresholds) {
        const QPointF at = mapToPlot(m_options.thresholds->x(), m_options.thresholds->y(), plot);
        painter.setPen(QPen(kThresholdColor, 1.2, Qt::DashLine));
        painter.drawLine(QPointF(at.x(), plot.top()), QPointF(at.x(), plot.bottom()));
        painter.drawLine(QPointF(plot.left(), at.y()), QPointF(plot.right(), at.y()));
    }
    painter.setFont(figureFont(10));
    for (std::size_t c = 0; c < m_options.peaks.size(); ++c) {
        const auto p = static_cast<std::size_t>(m_options.peaks[c]);
        const QPointF at = mapToPlot(m_result->rho[p], m_result->delta[p], plot);
        painter.setPen(QPen(Qt::black, 1.0));
        painter.setBrush(Palette::labelColor(static_cast<int>(c)));
        QPainterPath marker;
        marker.addEllipse(at, 5.0, 5.0);
        painter.drawPath(marker);
        if (m_options.peaks.size() <= kMaxLegend) painter.drawText(at + QPointF(7, -5), QString::number(c));
    }
}

}  // namespace clusterlens::views
