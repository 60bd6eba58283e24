#pragma once
// Coordinates of the dendrogram: x in leaf units (the leaf at rank r spans [r, r+1)), y in axis
// units (the height, or its base-10 logarithm), and the visible window with its pan/zoom
// arithmetic. Shared by the widget, the geometry builder and the figure.

#include <QPointF>
#include <QRectF>

#include <algorithm>
#include <cmath>

#include "dendrogram/dendrogram_layout.hpp"

namespace clusterlens::views {

/// Heights -> vertical axis: linear, or log10 with heights below `floor` (zero heights of
/// duplicate points, the lowest percent of merges, and the leaves) drawn at the floor.
struct HeightScale {
    bool logarithmic = false;
    double floor = 1.0;

    double toAxis(double h) const { return logarithmic ? std::log10(std::max(h, floor)) : h; }
    double fromAxis(double v) const { return logarithmic ? std::pow(10.0, v) : v; }
    /// Axis position of the leaves.
    double baseline() const { return toAxis(0.0); }
    /// Linear, or logarithmic with the floor at half of DendrogramLayout::lowPositiveHeight.
    static HeightScale forLayout(const DendrogramLayout& layout, bool logarithmic);
};

class DendrogramView {
public:
    /// A window exactly as given, without zoom limits (the region a geometry is built for, or the
    /// part of a tree a figure shows).
    static DendrogramView exact(double x0, double x1, double y0, double y1);

    /// Shows the whole tree: every leaf and the root with a little headroom.
    void reset(const DendrogramLayout& layout, const HeightScale& scale);
    /// Shows the leaf range [x0, x1) and axis range [y0, y1], clamped to the zoom limits.
    void setWindow(double x0, double x1, double y0, double y1);

    double x0() const { return m_x0; }
    double x1() const { return m_x1; }
    double y0() const { return m_y0; }
    double y1() const { return m_y1; }
    /// Leaf units per pixel of `plot`.
    double leavesPerPixel(const QRectF& plot) const { return (m_x1 - m_x0) / plot.width(); }

    /// (leaf units, axis units) -> position inside `plot` (y grows downwards on screen).
    QPointF toPixel(double x, double y, const QRectF& plot) const {
        return {plot.left() + (x - m_x0) / (m_x1 - m_x0) * plot.width(),
                plot.bottom() - (y - m_y0) / (m_y1 - m_y0) * plot.height()};
    }
    /// Position inside `plot` -> (leaf units, axis units).
    QPointF toData(QPointF pixel, const QRectF& plot) const {
        return {m_x0 + (pixel.x() - plot.left()) / plot.width() * (m_x1 - m_x0),
                m_y0 + (plot.bottom() - pixel.y()) / plot.height() * (m_y1 - m_y0)};
    }

    /// Moves the content by `delta` pixels (drag direction).
    void panPixels(QPointF delta, const QRectF& plot);
    /// Zooms by `fx` horizontally and `fy` vertically (> 1 magnifies) about `pixel`.
    void zoomAt(QPointF pixel, double fx, double fy, const QRectF& plot);
    /// Shows the pixel rectangle `band` of `plot` (rubber-band zoom).
    void zoomToPixels(const QRectF& band, const QRectF& plot);

private:
    void clamp();

    double m_x0 = 0.0, m_x1 = 1.0, m_y0 = 0.0, m_y1 = 1.0;
    // The whole tree; zoom and pan stay near it.
    double m_bx0 = 0.0, m_bx1 = 1.0, m_by0 = 0.0, m_by1 = 1.0;
};

}  // namespace clusterlens::views
