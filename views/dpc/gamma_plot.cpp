#include "dpc/gamma_plot.hpp"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "dpc/gamma_figure.hpp"

namespace clusterlens::views {

namespace {

const QColor kAxisColor(0x40, 0x40, 0x40);
const QColor kSuggestColor(0xd0, 0x30, 0x30);

}  // namespace

GammaPlot::GammaPlot(QWidget* parent) : QWidget(parent) {
    setToolTip(tr("\u03b3 = \u03c1\u00b7\u03b4 in decreasing order. Click at rank k to take the top k points as peaks."));
}

void GammaPlot::setResult(const std::shared_ptr<const DensityPeaksResult>& result) {
    m_sorted.clear();
    m_suggested = 0;
    m_current = 0;
    if (result && !result->gamma.empty()) {
        m_suggested = suggestPeakCount(*result);
        m_sorted = rankedGammas(*result, m_suggested);
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

double GammaPlot::yOf(double gamma) const {
    const QRectF plot = plotRect();
    return plot.bottom() - (std::log10(gamma) - m_logMin) / (m_logMax - m_logMin) * plot.height();
}

void GammaPlot::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    const QRectF plot = plotRect();
    const QFontMetrics metrics(font());
    painter.setPen(kAxisColor);
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
    const auto markRank = [&](std::size_t k, const QColor& colour, const QString& text, Qt::PenStyle style) {
        if (k == 0 || k > m_sorted.size()) return;
        // Between rank k and k + 1: the cut that keeps the first k.
        const double x = xOfRank(k) + 0.5 * (xOfRank(2) - xOfRank(1));
        painter.setPen(QPen(colour, 1.5, style));
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        painter.drawText(QPointF(x + 3, plot.top() + metrics.ascent() + 2), text);
    };
    markRank(m_suggested, kSuggestColor, tr("knee: %1").arg(m_suggested), Qt::DashLine);
    if (m_current != m_suggested)
        markRank(m_current, QColor(0x20, 0x60, 0xc0), tr("chosen: %1").arg(m_current), Qt::SolidLine);
    for (std::size_t r = 0; r < m_sorted.size(); ++r) {
        const bool peak = r < m_current;
        painter.setPen(peak ? QPen(Qt::black, 1.0) : Qt::NoPen);
        painter.setBrush(peak ? QColor(0x20, 0x60, 0xc0) : QColor(0x70, 0x70, 0x70));
        painter.drawEllipse(QPointF(xOfRank(r + 1), yOf(m_sorted[r])), peak ? 4.0 : 2.5, peak ? 4.0 : 2.5);
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
