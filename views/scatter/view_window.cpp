#include "scatter/view_window.hpp"

#include <algorithm>
#include <cmath>

namespace clusterlens::views {

void ViewWindow::reset() {
    m_x0 = m_y0 = -resetPadding;
    m_x1 = m_y1 = 1.0 + resetPadding;
}

void ViewWindow::setBounds(double x0, double x1, double y0, double y1) {
    const auto clampSpan = [](double lo, double hi, double& outLo, double& outHi) {
        const double mid = 0.5 * (lo + hi);
        const double span = std::clamp(hi - lo, minSpan, maxSpan);
        outLo = mid - 0.5 * span;
        outHi = mid + 0.5 * span;
    };
    clampSpan(x0, x1, m_x0, m_x1);
    clampSpan(y0, y1, m_y0, m_y1);
}

QPointF ViewWindow::toPixel(QPointF n, const QRectF& plot) const {
    return {plot.left() + (n.x() - m_x0) / (m_x1 - m_x0) * plot.width(),
            plot.bottom() - (n.y() - m_y0) / (m_y1 - m_y0) * plot.height()};
}

QPointF ViewWindow::toNormalized(QPointF p, const QRectF& plot) const {
    return {m_x0 + (p.x() - plot.left()) / plot.width() * (m_x1 - m_x0),
            m_y0 + (plot.bottom() - p.y()) / plot.height() * (m_y1 - m_y0)};
}

void ViewWindow::panPixels(QPointF delta, const QRectF& plot) {
    if (plot.width() <= 0 || plot.height() <= 0) return;
    const double dx = delta.x() / plot.width() * (m_x1 - m_x0);
    const double dy = delta.y() / plot.height() * (m_y1 - m_y0);
    m_x0 -= dx;
    m_x1 -= dx;
    m_y0 += dy;
    m_y1 += dy;
}

void ViewWindow::zoomAt(QPointF pixel, double factor, const QRectF& plot) {
    if (plot.width() <= 0 || plot.height() <= 0 || !(factor > 0.0)) return;
    const QPointF anchor = toNormalized(pixel, plot);
    const auto rescale = [&](double& lo, double& hi, double a) {
        const double span = std::clamp((hi - lo) / factor, minSpan, maxSpan);
        const double t = (a - lo) / (hi - lo);
        lo = a - t * span;
        hi = lo + span;
    };
    rescale(m_x0, m_x1, anchor.x());
    rescale(m_y0, m_y1, anchor.y());
}

std::array<float, 4> ViewWindow::clipTransform() const {
    return {static_cast<float>(2.0 / (m_x1 - m_x0)), static_cast<float>(2.0 / (m_y1 - m_y0)), static_cast<float>(m_x0),
            static_cast<float>(m_y0)};
}

std::vector<double> niceTicks(double lo, double hi, int maxTicks) {
    std::vector<double> ticks;
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi) || maxTicks < 2) return ticks;
    const double rough = (hi - lo) / maxTicks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    double step = magnitude * 10.0;
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * magnitude >= rough) {
            step = m * magnitude;
            break;
        }
    }
    const double first = std::ceil(lo / step) * step;
    for (double t = first; t <= hi + step * 1e-9; t = first + step * static_cast<double>(ticks.size())) {
        // Snap values that should be zero but carry rounding noise ("-1.3e-17").
        ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
        if (ticks.size() > static_cast<std::size_t>(maxTicks) * 3) break;
    }
    return ticks;
}

QString formatTick(double value, double step) {
    const double magnitude = std::max(std::abs(value), std::abs(step));
    if (magnitude >= 1e6 || (magnitude > 0 && magnitude < 1e-4)) return QString::number(value, 'g', 4);
    const int decimals = step >= 1.0 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    return QString::number(value, 'f', std::clamp(decimals, 0, 8));
}

}  // namespace clusterlens::views
