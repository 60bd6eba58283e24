#include "dendrogram/dendrogram_view.hpp"

namespace clusterlens::views {

namespace {

constexpr double kHeadroom = 0.04;       // above the root, as a fraction of the height range
constexpr double kFootroom = 0.03;       // below the leaves: room for the selection rug
constexpr double kMinLeavesShown = 4.0;  // deepest horizontal zoom
constexpr double kMaxZoomOut = 1.5;      // of the whole tree
constexpr double kMinHeightSpan = 1e-9;  // relative to the whole height range

}  // namespace

HeightScale HeightScale::forLayout(const DendrogramLayout& layout, bool logarithmic) {
    HeightScale scale;
    scale.logarithmic = logarithmic;
    scale.floor = 0.5 * layout.lowPositiveHeight;
    return scale;
}

void DendrogramView::reset(const DendrogramLayout& layout, const HeightScale& scale) {
    const double bottom = std::min(scale.baseline(), scale.toAxis(0.0));
    double top = scale.toAxis(std::max(layout.maxMergeHeight, 0.0));
    if (!(top > bottom)) top = bottom + 1.0;
    const double range = top - bottom;
    m_bx0 = 0.0;
    m_bx1 = static_cast<double>(layout.leafCount);
    m_by0 = bottom - kFootroom * range;
    m_by1 = top + kHeadroom * range;
    m_x0 = m_bx0;
    m_x1 = m_bx1;
    m_y0 = m_by0;
    m_y1 = m_by1;
}

DendrogramView DendrogramView::exact(double x0, double x1, double y0, double y1) {
    DendrogramView v;
    v.m_x0 = v.m_bx0 = x0;
    v.m_x1 = v.m_bx1 = x1;
    v.m_y0 = v.m_by0 = y0;
    v.m_y1 = v.m_by1 = y1;
    return v;
}

void DendrogramView::setWindow(double x0, double x1, double y0, double y1) {
    m_x0 = std::min(x0, x1);
    m_x1 = std::max(x0, x1);
    m_y0 = std::min(y0, y1);
    m_y1 = std::max(y0, y1);
    clamp();
}

void DendrogramView::clamp() {
    const auto fit = [](double& lo, double& hi, double minSpan, double maxSpan, double bLo, double bHi) {
        double span = std::clamp(hi - lo, minSpan, maxSpan);
        double centre = std::clamp(0.5 * (lo + hi), bLo, bHi);
        lo = centre - 0.5 * span;
        hi = centre + 0.5 * span;
    };
    const double bw = m_bx1 - m_bx0, bh = m_by1 - m_by0;
    fit(m_x0, m_x1, std::min(kMinLeavesShown, bw), kMaxZoomOut * bw, m_bx0, m_bx1);
    fit(m_y0, m_y1, kMinHeightSpan * bh, kMaxZoomOut * bh, m_by0, m_by1);
}

void DendrogramView::panPixels(QPointF delta, const QRectF& plot) {
    const double dx = delta.x() / plot.width() * (m_x1 - m_x0);
    const double dy = delta.y() / plot.height() * (m_y1 - m_y0);
    m_x0 -= dx;
    m_x1 -= dx;
    m_y0 += dy;
    m_y1 += dy;
    clamp();
}

void DendrogramView::zoomAt(QPointF pixel, double fx, double fy, const QRectF& plot) {
    const QPointF anchor = toData(pixel, plot);
    const double u = (pixel.x() - plot.left()) / plot.width();
    const double v = (plot.bottom() - pixel.y()) / plot.height();
    const double bw = m_bx1 - m_bx0, bh = m_by1 - m_by0;
    const double w = std::clamp((m_x1 - m_x0) / fx, std::min(kMinLeavesShown, bw), kMaxZoomOut * bw);
    const double h = std::clamp((m_y1 - m_y0) / fy, kMinHeightSpan * bh, kMaxZoomOut * bh);
    m_x0 = anchor.x() - u * w;
    m_x1 = m_x0 + w;
    m_y0 = anchor.y() - v * h;
    m_y1 = m_y0 + h;
    clamp();
}

void DendrogramView::zoomToPixels(const QRectF& band, const QRectF& plot) {
    const QPointF a = toData(band.bottomLeft(), plot);
    const QPointF b = toData(band.topRight(), plot);
    setWindow(a.x(), b.x(), a.y(), b.y());
}

}  // namespace clusterlens::views
