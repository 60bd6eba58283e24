#pragma once
// The visible part of a scatter in normalised data coordinates ([0,1]^2 = the data's range), and
// the pan/zoom arithmetic on it. Panning and zooming change only this window; the GPU receives
// it as a scale and offset uniform.

#include <QPointF>
#include <QRectF>
#include <QString>

#include <array>
#include <vector>

namespace clusterlens::views {

class ViewWindow {
public:
    /// Margin shown around the data after a reset, as a fraction of the data range.
    static constexpr double resetPadding = 0.03;
    static constexpr double minSpan = 1e-5;
    static constexpr double maxSpan = 1e3;

    ViewWindow() { reset(); }
    void reset();
    /// Shows [x0, x1] x [y0, y1] (a stored view); spans are clamped to [minSpan, maxSpan].
    void setBounds(double x0, double x1, double y0, double y1);

    double x0() const { return m_x0; }
    double x1() const { return m_x1; }
    double y0() const { return m_y0; }
    double y1() const { return m_y1; }

    /// Normalised coordinates -> pixel position inside `plot` (y grows downwards on screen).
    QPointF toPixel(QPointF normalized, const QRectF& plot) const;
    /// Pixel position inside `plot` -> normalised coordinates.
    QPointF toNormalized(QPointF pixel, const QRectF& plot) const;

    /// Moves the content by `delta` pixels (drag direction).
    void panPixels(QPointF delta, const QRectF& plot);
    /// Zooms by `factor` (> 1 magnifies) keeping the point under `pixel` fixed, within
    /// [minSpan, maxSpan] of the data range: float32 positions stay exact to well below a pixel.
    void zoomAt(QPointF pixel, double factor, const QRectF& plot);

    /// Mapping of normalised coordinates n to OpenGL clip space [-1,1]^2 as
    /// {scale x, scale y, origin x, origin y}: clip = (n - origin) * scale - 1.
    /// The shaders subtract the origin first, which keeps precision when zoomed in.
    std::array<float, 4> clipTransform() const;

private:
    double m_x0 = 0.0, m_x1 = 1.0, m_y0 = 0.0, m_y1 = 1.0;
};

/// Round tick positions (1, 2 or 5 times a power of ten) inside [lo, hi], at most about `maxTicks`.
std::vector<double> niceTicks(double lo, double hi, int maxTicks);

/// Tick label with as many decimals as the tick step needs ("0.25", "1e+06").
QString formatTick(double value, double step);

}  // namespace clusterlens::views
