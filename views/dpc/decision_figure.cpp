#include "dpc/decision_figure.hpp"

#include <QCoreApplication>
#include <QImage>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <map>

namespace clusterlens::views {

namespace {

const QColor kUnlabelled(0x50, 0x50, 0x50);
const QColor kFigureThresholdColor(0xd0, 0x30, 0x30);
constexpr double kDecisionMargin = 0.04;
constexpr int kDecisionMaxImageSide = 2048;
constexpr double kDecisionImageOversample = 2.0;
constexpr std::size_t kMaxLegend = 12;

QString trDecisionFigure(const char* text) {
    return QCoreApplication::translate("DecisionFigure", text);
}

}  // namespace

DecisionFigure::DecisionFigure(std::shared_ptr<const DensityPeaksResult> result, DecisionFigureOptions options)
    : m_result(std::move(result)),
      m_options(std::move(options)),
      m_scale(DecisionScale::of(*m_result, m_options.logRho, m_options.logDelta)) {
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (std::size_t i = 0; i < m_result->rho.size(); ++i) {
        const double x = m_scale.x(m_result->rho[i]), y = m_scale.y(m_result->delta[i]);
        if (!std::isfinite(x) || !std::isfinite(y)) continue;
        x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
    if (!(x1 > x0)) x0 -= 0.5, x1 += 0.5;
    if (!(y1 > y0)) y0 -= 0.5, y1 += 0.5;
    const double dx = (x1 - x0) * kDecisionMargin, dy = (y1 - y0) * kDecisionMargin;
    m_x0 = x0 - dx, m_x1 = x1 + dx, m_y0 = y0 - dy, m_y1 = y1 + dy;
}

QString DecisionFigure::ownTitle() const {
    return m_options.title.isEmpty() ? trDecisionFigure("Decision graph") : m_options.title;
}

QString DecisionFigure::subtitle() const {
    QStringList parts;
    if (!m_options.subtitle.isEmpty()) parts << m_options.subtitle;
    parts << trDecisionFigure("N = %1").arg(QLocale().toString(static_cast<qulonglong>(m_result->rho.size())));
    parts << trDecisionFigure("%1 peaks").arg(m_options.peaks.size());
    return parts.join(QStringLiteral(" \u00b7 "));
}

AxisSpec DecisionFigure::xAxis() const {
    const QString own = m_options.logRho ? trDecisionFigure("\u03c1, local density (log scale)")
                                         : trDecisionFigure("\u03c1, local density");
    return {m_x0, m_x1, m_options.logRho, FigureStyle::pick(style().xLabel, own)};
}

AxisSpec DecisionFigure::yAxis() const {
    const QString own = m_options.logDelta ? trDecisionFigure("\u03b4, distance to a denser point (log scale)")
                                           : trDecisionFigure("\u03b4, distance to a denser point");
    return {m_y0, m_y1, m_options.logDelta, FigureStyle::pick(style().yLabel, own)};
}

FigureLegend DecisionFigure::legend() const {
    FigureLegend legend;
    legend.maxItems = kMaxLegend;
    const int count = static_cast<int>(m_options.peaks.size());
    for (int c = 0; c < count; ++c) {
        const auto at = static_cast<std::size_t>(c);
        const QString name = at < m_options.clusterNames.size() && !m_options.clusterNames[at].isEmpty()
                                 ? m_options.clusterNames[at]
                                 : trDecisionFigure("cluster %1").arg(c);
        legend.items.push_back({labelColor(c, count), name, LegendSwatch::Dot});
    }
    return legend;
}

XYLayout DecisionFigure::layout(const QRectF& area) const {
    return layoutXY(area, axesFonts(), title(), subtitle(), xAxis(), yAxis(), legend(), legendPosition());
}

QRectF DecisionFigure::plotRect(const QRectF& area) const {
    return layout(area).plot;
}

QPointF DecisionFigure::mapToPlot(double rho, double delta, const QRectF& plot) const {
    const double u = (m_scale.x(rho) - m_x0) / (m_x1 - m_x0), v = (m_scale.y(delta) - m_y0) / (m_y1 - m_y0);
    return {plot.left() + u * plot.width(), plot.bottom() - v * plot.height()};
}

QColor DecisionFigure::colourOf(std::size_t i) const {
    if (!m_options.labels) return kUnlabelled;
    return labelColor((*m_options.labels)[i], static_cast<int>(m_options.peaks.size()));
}

void DecisionFigure::paint(QPainter& painter, const QRectF& area) const {
    painter.save();
    paintBackground(painter, area);
    const XYLayout parts = layout(area);
    const AxesFonts fonts = axesFonts();
    paintTitleBlock(painter, parts.title, fonts, title(), subtitle());
    paintAxes(painter, parts.plot, xAxis(), yAxis(), fonts);
    painter.save();
    painter.setClipRect(parts.plot);
    if (drawsImage())
        paintImage(painter, parts.plot);
    else
        paintPoints(painter, parts.plot);
    paintMarks(painter, parts.plot);
    painter.restore();
    paintFrame(painter, parts.plot);
    legend().paint(painter, parts.legend, fonts.text, legendPosition());
    painter.restore();
}

void DecisionFigure::paintPoints(QPainter& painter, const QRectF& plot) const {
    const std::size_t n = m_result->rho.size();
    const double radius = n <= 2'000 ? 2.4 : n <= 20'000 ? 1.6 : 1.1;
    // One path per colour: a compact vector file with real paths, instead of n separate ellipses.
    std::map<QRgb, QPainterPath> paths;
    for (std::size_t i = 0; i < n; ++i) {
        QPainterPath& path = paths[colourOf(i).rgb()];
        path.setFillRule(Qt::WindingFill);  // overlapping points stay filled
        path.addEllipse(mapToPlot(m_result->rho[i], m_result->delta[i], plot), radius, radius);
    }
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
    const int w = std::clamp(static_cast<int>(plot.width() * kDecisionImageOversample), 16, kDecisionMaxImageSide);
    const int h = std::clamp(static_cast<int>(plot.height() * kDecisionImageOversample), 16, kDecisionMaxImageSide);
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
        painter.setPen(QPen(kFigureThresholdColor, 1.2, Qt::DashLine));
        painter.drawLine(QPointF(at.x(), plot.top()), QPointF(at.x(), plot.bottom()));
        painter.drawLine(QPointF(plot.left(), at.y()), QPointF(plot.right(), at.y()));
    }
    painter.setFont(font(10));
    const int count = static_cast<int>(m_options.peaks.size());
    for (std::size_t c = 0; c < m_options.peaks.size(); ++c) {
        const auto p = static_cast<std::size_t>(m_options.peaks[c]);
        const QPointF at = mapToPlot(m_result->rho[p], m_result->delta[p], plot);
        painter.setPen(QPen(Qt::black, 1.0));
        painter.setBrush(labelColor(static_cast<int>(c), count));
        QPainterPath marker;
        marker.addEllipse(at, 5.0, 5.0);
        painter.drawPath(marker);
        if (m_options.peaks.size() > kMaxLegend) continue;
        // The number goes to the right of its peak, or to the left where the frame would cut it.
        const QString number = QString::number(c);
        const double width = QFontMetricsF(painter.font()).horizontalAdvance(number);
        const double x = at.x() + 7 + width > plot.right() ? at.x() - 7 - width : at.x() + 7;
        painter.drawText(QPointF(x, std::max(at.y() - 5, plot.top() + QFontMetricsF(painter.font()).ascent())), number);
    }
}

}  // namespace clusterlens::views
