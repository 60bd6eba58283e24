#include "dpc/gamma_plot.hpp"

#include <QHelpEvent>
#include <QLineF>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "dpc/decision_graph.hpp"
#include "dpc/gamma_figure.hpp"
#include "text_layout.hpp"

namespace clusterlens::views {

namespace {

const QColor kGammaAxisColor(0x40, 0x40, 0x40);
const QColor kSuggestColor(0xd0, 0x30, 0x30);
const QColor kChosenColor(0x20, 0x60, 0xc0);
constexpr double kHoverPixels = 6.0;  // how near a point the mouse must be for its tooltip

}  // namespace

GammaPlot::GammaPlot(QWidget* parent) : QWidget(parent) {
    setToolTip(
        tr("\u03b3 = \u03c1\u00b7\u03b4 in decreasing order. Click at rank k to take the top k points as peaks."));
}

void GammaPlot::setResult(const std::shared_ptr<const DensityPeaksResult>& result) {
    m_sorted.clear();
    m_ranked.clear();
    m_suggested = 0;
    m_current = 0;
    m_result = result;
    if (result && !result->gamma.empty()) {
        m_suggested = suggestPeakCount(*result);
        m_sorted = rankedGammas(*result, m_suggested);
        m_ranked = peaksTopK(*result, m_sorted.size());
        m_logMax = std::log10(m_sorted.front());
        m_logMin = std::log10(m_sorted.back());
        if (m_logMax - m_logMin < 1e-9) m_logMin = m_logMax - 1.0;
    }
    update();
}

void GammaPlot::setCurrentCount(std::size_t count) {
    m_current = count;
    update();
}

QRectF GammaPlot::plotRect() const {
    const QFontMetrics metrics(font());
    const double left = metrics.horizontalAdvance(QStringLiteral("1e+05")) + 12;
    return QRectF(left, metrics.height() + 6, std::max(10.0, width() - left - 10.0),
                  std::max(10.0, height() - 2.0 * metrics.height() - 14));
}

double GammaPlot::xOfRank(std::size_t k) const {
    const QRectF plot = plotRect();
    const double n = static_cast<double>(std::max<std::size_t>(m_sorted.size(), 2));
    return plot.left() + (static_cast<double>(k) - 0.5) / n * plot.width();
}

QPointF GammaPlot::pointOfRank(std::size_t k) const {
    return {xOfRank(k), k >= 1 && k <= m_sorted.size() ? yOf(m_sorted[k - 1]) : 0.0};
}

QString GammaPlot::tooltipAt(QPointF pos) const {
    if (m_sorted.empty() ||
        !plotRect().adjusted(-kHoverPixels, -kHoverPixels, kHoverPixels, kHoverPixels).contains(pos))
        return {};
    std::size_t best = 0;
    double bestDistance = kHoverPixels;
    for (std::size_t k = 1; k <= m_sorted.size(); ++k) {
        const double d = QLineF(pointOfRank(k), pos).length();
        if (d <= bestDistance) best = k, bestDistance = d;
    }
    if (best == 0) return {};
    const auto i = static_cast<std::size_t>(m_ranked[best - 1]);
    std::vector<EventValue> values = decisionValues(*m_result, i);
    values.insert(values.begin(), {tr("rank"), static_cast<double>(best)});
    const std::int64_t event = m_events && i < m_events->size() ? (*m_events)[i] : m_ranked[best - 1];
    return describeEvent(m_analysis, event, values);
}

bool GammaPlot::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = tooltipAt(help->pos());
    // Away from the points the plot's own tooltip explains it.
    QToolTip::showText(help->globalPos(), text.isEmpty() ? toolTip() : text, this);
    return true;
}

double GammaPlot::yOf(double gamma) const {
    const QRectF plot = plotRect();
    return plot.bottom() - (std::log10(gamma) - m_logMin) / (m_logMax - m_logMin) * plot.height();
}

void GammaPlot::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    const QRectF plot = plotRect();
    const QFontMetrics metrics(font());
    painter.setPen(kGammaAxisColor);
    if (m_sorted.empty()) {
        painter.drawText(rect(), Qt::AlignCenter, tr("\u03b3 by rank appears after a run."));
        return;
    }
    painter.drawRect(plot);
    painter.drawText(QRectF(plot.left(), 0, plot.width(), metrics.height() + 4), Qt::AlignCenter,
                     tr("\u03b3 = \u03c1\u00b7\u03b4 by rank (log scale)"));
    painter.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), metrics.height()), Qt::AlignCenter,
                     tr("rank 1 \u2026 %1").arg(m_sorted.size()));
    painter.drawText(QRectF(0, plot.top() - 2, plot.left() - 4, metrics.height()), Qt::AlignRight | Qt::AlignTop,
                     QString::number(m_sorted.front(), 'g', 2));
    painter.drawText(QRectF(0, plot.bottom() - metrics.height() + 2, plot.left() - 4, metrics.height()),
                     Qt::AlignRight | Qt::AlignBottom, QString::number(m_sorted.back(), 'g', 2));
    painter.setRenderHint(QPainter::Antialiasing, true);
    paintMarks(painter);
    for (std::size_t r = 0; r < m_sorted.size(); ++r) {
        const bool peak = r < m_current;
        painter.setPen(peak ? QPen(Qt::black, 1.0) : Qt::NoPen);
        painter.setBrush(peak ? kChosenColor : QColor(0x70, 0x70, 0x70));
        painter.drawEllipse(QPointF(xOfRank(r + 1), yOf(m_sorted[r])), peak ? 4.0 : 2.5, peak ? 4.0 : 2.5);
    }
}

void GammaPlot::paintMarks(QPainter& painter) {
    struct Mark {
        std::size_t k;
        QColor colour;
        QString text;
        Qt::PenStyle style;
    };
    std::vector<Mark> marks;
    if (m_suggested >= 1 && m_suggested <= m_sorted.size())
        marks.push_back({m_suggested, kSuggestColor, tr("knee: %1").arg(m_suggested), Qt::DashLine});
    if (m_current != m_suggested && m_current >= 1 && m_current <= m_sorted.size())
        marks.push_back({m_current, kChosenColor, tr("chosen: %1").arg(m_current), Qt::SolidLine});
    const QRectF plot = plotRect();
    const QFontMetricsF metrics(font());
    // Each label beside its line, right of it first, a row lower when the other label is in the way;
    // a label may cross the other line (on a white ground), never the other label.
    std::vector<std::vector<QRectF>> candidates;
    std::vector<double> lines;
    for (const Mark& mark : marks) {
        // Between rank k and k + 1: the cut that keeps the first k.
        const double x = xOfRank(mark.k) + 0.5 * (xOfRank(2) - xOfRank(1));
        lines.push_back(x);
        const QSizeF size(metrics.horizontalAdvance(mark.text) + 4, metrics.height());
        std::vector<QRectF> boxes;
        for (double y = plot.top() + 2; y + size.height() <= plot.bottom(); y += size.height()) {
            boxes.emplace_back(QPointF(x + 2, y), size);
            boxes.emplace_back(QPointF(x - 2 - size.width(), y), size);
        }
        candidates.push_back(std::move(boxes));
    }
    m_markBoxes = placeLabels(candidates, {}, plot);
    for (std::size_t i = 0; i < marks.size(); ++i) {
        painter.setPen(QPen(marks[i].colour, 1.5, marks[i].style));
        painter.drawLine(QPointF(lines[i], plot.top()), QPointF(lines[i], plot.bottom()));
    }
    for (std::size_t i = 0; i < marks.size(); ++i) {
        if (m_markBoxes[i].isEmpty()) continue;
        painter.fillRect(m_markBoxes[i], QColor(255, 255, 255, 210));
        painter.setPen(marks[i].colour);
        painter.drawText(m_markBoxes[i], Qt::AlignCenter, marks[i].text);
    }
}

void GammaPlot::mousePressEvent(QMouseEvent* event) {
    if (m_sorted.empty() || event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    const QRectF plot = plotRect();
    const double u = (event->position().x() - plot.left()) / plot.width();
    const auto k = static_cast<std::size_t>(
        std::clamp(std::ceil(u * static_cast<double>(m_sorted.size())), 1.0, static_cast<double>(m_sorted.size())));
    Q_EMIT topKRequested(k);
    event->accept();
}

}  // namespace clusterlens::views
