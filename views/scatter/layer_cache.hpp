#pragma once
// Retained point layers. A software rasteriser (Mesa llvmpipe) needs several hundred milliseconds
// to draw 10^6 point sprites, far above an interactive frame. So the points are rendered into an
// offscreen layer covering the view plus a margin of half a plot on every side, and each frame
// only draws that layer as one textured quad under the current pan/zoom uniform. Layers are
// opaque (points blended onto the plot background), so drawing one needs no blending. A new layer
// is built when the content changes, when panning leaves the margin, or shortly after a zoom
// (the old layer is shown scaled meanwhile). Builds are spread over frames in chunks sized to a
// time budget into a back layer, so every frame stays short and the front layer stays on screen
// until its replacement is complete.

#include <QColor>
#include <QOpenGLBuffer>
#include <QOpenGLExtraFunctions>
#include <QOpenGLFramebufferObject>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>
#include <QRect>
#include <QSize>

#include <array>
#include <functional>
#include <memory>

#include "scatter/view_window.hpp"

namespace clusterlens::views {

/// The normalised-data rectangle a layer covers and its size in device pixels.
struct LayerRegion {
    double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
    QSize pixels;

    /// Margin around the view, as a fraction of the plot size per side.
    static constexpr double marginFraction = 0.5;

    bool isValid() const { return !pixels.isEmpty(); }
    /// True when the visible window, widened by `slack` times its size on every side, lies
    /// inside the region.
    bool covers(const ViewWindow& view, double slack = 0.0) const;
    /// True when one layer pixel is one screen pixel for `view` shown on `plotPixels`.
    bool sameScale(const ViewWindow& view, QSize plotPixels) const;
    /// Mapping of the region to clip space [-1,1]^2 (see ViewWindow::clipTransform).
    std::array<float, 4> clipTransform() const;
};

/// The region for `view` on a plot of `plotPixels` device pixels: the view plus a margin of half
/// the plot per side (less when a side would exceed `maxSide`), on the screen's pixel grid, so
/// compositing after a whole-pixel pan copies pixels exactly.
LayerRegion layerRegionFor(const ViewWindow& view, QSize plotPixels, int maxSide = 4096);

class LayerCache : protected QOpenGLExtraFunctions {
public:
    /// Draws points [first, first + count) with the given clip transform into the bound framebuffer.
    using DrawPoints = std::function<void(int first, int count, const std::array<float, 4>& clip)>;

    LayerCache() = default;
    ~LayerCache();
    LayerCache(const LayerCache&) = delete;
    LayerCache& operator=(const LayerCache&) = delete;

    bool initialize(QString* error);
    void release();

    /// The front layer no longer shows the current data; composite() shows the build in progress.
    void dropFront();
    /// Starts a layer for `region` holding `totalPoints` points in the back buffer, discarding an
    /// unfinished build.
    void beginBuild(const LayerRegion& region, int totalPoints);
    bool isBuilding() const { return m_building; }
    const LayerRegion& buildRegion() const { return m_back.region; }
    bool hasFront() const { return m_front.valid; }
    const LayerRegion& frontRegion() const { return m_front.region; }

    /// Renders the next chunk of the build, sized to take about `budgetMs`, then binds
    /// `restoreFbo` again. Returns true when this chunk completed the build (the back layer then
    /// becomes the front layer).
    bool continueBuild(const DrawPoints& drawPoints, double budgetMs, GLuint restoreFbo);
    /// Shows the front layer (or, without one, the partly built layer) for `view` in `viewport`
    /// (device pixels, origin bottom left, the size of `plotPixels`) of `targetFbo`, which must
    /// be bound with that viewport set. At the build scale this is a pixel copy
    /// (glBlitFramebuffer: a memcpy on a software rasteriser); while a zoom waits for its refined
    /// layer, a linearly filtered quad.
    void composite(const ViewWindow& view, QSize plotPixels, const QRect& viewport, GLuint targetFbo);
    /// Plot background the points are blended onto.
    void setBackground(const QColor& color) { m_background = color; }

private:
    struct Layer {
        std::unique_ptr<QOpenGLFramebufferObject> fbo;
        LayerRegion region;
        bool valid = false;
    };

    void drawLayer(const Layer& layer, const ViewWindow& view, QSize plotPixels);
    void blitLayer(const Layer& layer, const ViewWindow& view, QSize plotPixels, const QRect& viewport,
                   GLuint targetFbo);

    Layer m_front;
    Layer m_back;
    bool m_building = false;
    int m_total = 0;
    int m_done = 0;
    QColor m_background = Qt::white;
    double m_nsPerPoint = 250.0;  // measured while building; the first chunk assumes llvmpipe speed
    std::unique_ptr<QOpenGLShaderProgram> m_program;
    std::unique_ptr<QOpenGLVertexArrayObject> m_vao;
    QOpenGLBuffer m_quad{QOpenGLBuffer::VertexBuffer};
};

}  // namespace clusterlens::views
