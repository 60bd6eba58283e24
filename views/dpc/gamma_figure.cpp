#include "dpc/gamma_figure.hpp"

#include <QCoreApplication>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <functional>

namespace clusterlens::views {

namespace {

const QColor kKneeColor(0xd0, 0x30, 0x30);
const QColor kFigureChosenColor(0x20, 0x60, 0xc0);
const QColor kTailColor(0x70, 0x70, 0x70);
constexpr std::size_t kMinRanks = 30;

QString trGammaFigure(const char* text) {
    return QCoreApplication::translate("GammaFigure", text);
}

}  // namespace

std::vector<double> rankedGammas(const DensityPeaksResult& result, std::size_t suggested) {
    if (result.gamma.empty()) return {};
    const std::size_t shown = std::min(result.gamma.size(), std::max(kMinRanks, 3 * suggested));
    std::vector<double> sorted(result.gamma.begin(), result.gamma.end());
    std::partial_sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(shown), sorted.end(),
                      std::greater<>());
    sorted.resize(shown);
    double positive = sorted.front();
    for (double g : sorted)
        if (g > 0.0) positive = g;
    const double floor = positive > 0.0 ? positive / 2.0 : 1.0;
    for (double& g : sorted) g = std::max(g, floor);
    return sorted;
}

GammaFigure::GammaFigure(std::shared_ptr<const DensityPeaksResult> result, GammaFigureOptions options)
    : m_result(std::move(result)), m_options(std::move(options)) {
    m_suggested = m_result->gamma.empty() ? 0 : suggestPeakCount(*m_result);
    m_sorted = rankedGammas(*m_result, std::max(m_suggested, m_options.chosen));
    m_options.chosen = std::min(m_options.chosen, m_result->gamma.size());
    if (m_options.chosen == 0) return;
    // Clusters are numbered by the peaks' density, not their gamma: colour as the decision graph does.
    const std::vector<std::int64_t> peaks = peaksTopK(*m_result, m_options.chosen);
    const std::vector<std::int32_t> labels = assignFromPeaks(*m_result, peaks);
    for (std::int64_t p : peaks) m_peakLabel.push_back(labels[static_cast<std::size_t>(p)]);
}

QString GammaFigure::ownTitle() const {
    return m_options.title.isEmpty() ? trGammaFigure("\u03b3 = \u03c1\u00b7\u03b4 by rank") : m_options.title;
}

QString GammaFigure::subtitle() const {
    return trGammaFigure("N = %1 \u00b7 the %2 largest \u03b3 shown")
        .arg(QLocale().toString(static_cast<qulonglong>(m_result->gamma.size())))
        .arg(m_sorted.size());
}

AxisSpec GammaFigure::xAxis() const {
    return {0.0, static_cast<double>(m_sorted.size()) + 1.0, false,
            FigureStyle::pick(style().xLabel, trGammaFigure("rank"))};
}

AxisSpec GammaFigure::yAxis() const {
    double lo = m_sorted.empty() ? 0.0 : std::log10(m_sorted.back());
    double hi = m_sorted.empty() ? 1.0 : std::log10(m_sorted.front());
    if (hi - lo < 1e-9) lo = hi - 1.0;
    const double pad = 0.05 * (hi - lo);
    return {lo - pad, hi + pad, true, FigureStyle::pick(style().yLabel, trGammaFigure("\u03b3 (log scale)"))};
}

FigureLegend GammaFigure::legend() const {
    FigureLegend legend;
    if (m_suggested > 0)
        legend.items.push_back(
            {kKneeColor, trGammaFigure("largest drop: %1 peaks").arg(m_suggested), LegendSwatch::DashedLine});
    if (m_options.chosen > 0 && m_options.chosen != m_suggested)
        legend.items.push_back(
            {kFigureChosenColor, trGammaFigure("chosen: %1 peaks").arg(m_options.chosen), LegendSwatch::DashedLine});
    if (m_options.chosen > 0)
        legend.items.push_back({labelColor(m_peakLabel.front(), static_cast<int>(m_options.chosen)),
                                trGammaFigure("peaks, in their clusters' colours"), LegendSwatch::Dot});
    legend.items.push_back({kTailColor, trGammaFigure("other points"), LegendSwatch::Dot});
    return legend;
}

void GammaFigure::paint(QPainter& painter, const QRectF& area) const {
    painter.save();
    paintBackground(painter, area);
    const AxesFonts fonts = axesFonts();
    const AxisSpec x = xAxis(), y = yAxis();
    const FigureLegend marks = legend();
    const XYLayout parts = layoutXY(area, fonts, title(), subtitle(), x, y, marks, legendPosition());
    const QRectF& plot = parts.plot;
    paintTitleBlock(painter, parts.title, fonts, title(), subtitle());
    paintAxes(painter, plot, x, y, fonts);
    painter.save();
    painter.setClipRect(plot);
    painter.setRenderHint(QPainter::Antialiasing, true);
    // Between rank k and k + 1: the cut that keeps the first k.
    const auto line = [&](std::size_t k, const QColor& colour) {
        if (k == 0 || k >= m_sorted.size()) return;
        const double at = axisPosition(x, static_cast<double>(k) + 0.5, plot.left(), plot.right());
        painter.setPen(QPen(colour, 1.5, Qt::DashLine));
        painter.drawLine(QPointF(at, plot.top()), QPointF(at, plot.bottom()));
    };
    line(m_suggested, kKneeColor);
    if (m_options.chosen != m_suggested) line(m_options.chosen, kFigureChosenColor);
    const double radius = m_sorted.size() <= 60 ? 3.2 : 2.2;
    for (std::size_t r = 0; r < m_sorted.size(); ++r) {
        const QPointF at(axisPosition(x, static_cast<double>(r + 1), plot.left(), plot.right()),
                         axisPosition(y, std::log10(m_sorted[r]), plot.bottom(), plot.top()));
        const bool peak = r < m_options.chosen;
        painter.setPen(peak ? QPen(Qt::black, 0.8) : Qt::NoPen);
        painter.setBrush(peak ? labelColor(m_peakLabel[r], static_cast<int>(m_options.chosen)) : kTailColor);
        painter.drawEllipse(at, radius, radius);
    }
    painter.restore();
    paintFrame(painter, plot);
    marks.paint(painter, parts.legend, fonts.text, legendPosition());
    painter.restore();
}

}  // namespace clusterlens::views
