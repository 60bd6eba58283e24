#include "scatter/layer_cache.hpp"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <utility>

#include "views_resources.hpp"

namespace clusterlens::views {

namespace {

constexpr int kMinChunk = 20'000;

}  // namespace

bool LayerRegion::covers(const ViewWindow& view, double slack) const {
    const double sx = slack * (view.x1() - view.x0()), sy = slack * (view.y1() - view.y0());
    return isValid() && view.x0() - sx >= x0 && view.x1() + sx <= x1 && view.y0() - sy >= y0 && view.y1() + sy <= y1;
}

bool LayerRegion::sameScale(const ViewWindow& view, QSize plotPixels) const {
    if (!isValid() || plotPixels.isEmpty()) return false;
    const double layerX = (x1 - x0) / pixels.width(), layerY = (y1 - y0) / pixels.height();
    const double viewX = (view.x1() - view.x0()) / plotPixels.width();
    const double viewY = (view.y1() - view.y0()) / plotPixels.height();
    return std::abs(layerX - viewX) <= 1e-9 * viewX && std::abs(layerY - viewY) <= 1e-9 * viewY;
}

std::array<float, 4> LayerRegion::clipTransform() const {
    return {static_cast<float>(2.0 / (x1 - x0)), static_cast<float>(2.0 / (y1 - y0)), static_cast<float>(x0),
            static_cast<float>(y0)};
}

LayerRegion layerRegionFor(const ViewWindow& view, QSize plotPixels, int maxSide) {
    LayerRegion r;
    if (plotPixels.isEmpty()) return r;
    const auto margin = [&](int plot) {
        return std::clamp(static_cast<int>(plot * LayerRegion::marginFraction), 0, std::max(0, (maxSide - plot) / 2));
    };
    const int mx = margin(plotPixels.width()), my = margin(plotPixels.height());
    const double ux = (view.x1() - view.x0()) / plotPixels.width();
    const double uy = (view.y1() - view.y0()) / plotPixels.height();
    r.x0 = view.x0() - mx * ux;
    r.x1 = view.x1() + mx * ux;
    r.y0 = view.y0() - my * uy;
    r.y1 = view.y1() + my * uy;
    r.pixels = QSize(plotPixels.width() + 2 * mx, plotPixels.height() + 2 * my);
    return r;
}

LayerCache::~LayerCache() = default;

bool LayerCache::initialize(QString* error) {
    initializeOpenGLFunctions();
    auto program = std::make_unique<QOpenGLShaderProgram>();
    if (!program->addShaderFromSourceCode(QOpenGLShader::Vertex, shaderSource(QStringLiteral("layer.vert"))) ||
        !program->addShaderFromSourceCode(QOpenGLShader::Fragment, shaderSource(QStringLiteral("layer.frag"))) ||
        !program->link()) {
        if (error) *error = QStringLiteral("The layer shaders need OpenGL 3.3: %1").arg(program->log().trimmed());
        return false;
    }
    m_program = std::move(program);
    m_vao = std::make_unique<QOpenGLVertexArrayObject>();
    m_vao->create();
    QOpenGLVertexArrayObject::Binder binder(m_vao.get());
    const float corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
    m_quad.create();
    m_quad.bind();
    m_quad.allocate(corners, sizeof(corners));
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    m_quad.release();
    return true;
}

void LayerCache::release() {
    m_front = Layer();
    m_back = Layer();
    m_building = false;
    m_program.reset();
    if (m_vao) m_vao->destroy();
    m_vao.reset();
    m_quad.destroy();
}

void LayerCache::dropFront() {
    m_front.valid = false;
}

void LayerCache::beginBuild(const LayerRegion& region, int totalPoints) {
    if (!m_back.fbo || m_back.fbo->size() != region.pixels) {
        m_back.fbo = std::make_unique<QOpenGLFramebufferObject>(region.pixels);
        glBindTexture(GL_TEXTURE_2D, m_back.fbo->texture());
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    m_back.region = region;
    m_back.valid = false;
    m_building = true;
    m_total = totalPoints;
    m_done = 0;
}

bool LayerCache::continueBuild(const DrawPoints& drawPoints, double budgetMs, GLuint restoreFbo) {
    if (!m_building) return false;
    m_back.fbo->bind();
    glViewport(0, 0, m_back.region.pixels.width(), m_back.region.pixels.height());
    glDisable(GL_SCISSOR_TEST);
    if (m_done == 0) {
        glClearColor(m_background.redF(), m_background.greenF(), m_background.blueF(), 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    // The first chunk also pays for clearing the layer; the cost per point varies along the draw
    // order (dense points overlap and are cheaper), hence half a budget first and a smoothed rate.
    const double budget = m_done == 0 ? budgetMs / 2 : budgetMs;
    const int chunk =
        std::clamp(static_cast<int>(budget * 1e6 / m_nsPerPoint), kMinChunk, std::max(kMinChunk, m_total - m_done));
    const int count = std::min(chunk, m_total - m_done);
    QElapsedTimer clock;
    clock.start();
    drawPoints(m_done, count, m_back.region.clipTransform());
    // Waiting here measures the real cost per point, which sizes the next chunk; it is paid only
    // while a layer is being built.
    glFinish();
    if (count >= kMinChunk)
        m_nsPerPoint = std::max(1.0, 0.5 * m_nsPerPoint + 0.5 * static_cast<double>(clock.nsecsElapsed()) / count);
    m_done += count;
    glBindFramebuffer(GL_FRAMEBUFFER, restoreFbo);
    if (m_done < m_total) return false;
    m_building = false;
    std::swap(m_front, m_back);
    m_front.valid = true;
    m_back.valid = false;
    return true;
}

void LayerCache::composite(const ViewWindow& view, QSize plotPixels, const QRect& viewport, GLuint targetFbo) {
    const Layer* layer = m_front.valid ? &m_front : (m_building && m_back.fbo ? &m_back : nullptr);
    if (!layer) return;
    if (layer->region.sameScale(view, plotPixels))
        blitLayer(*layer, view, plotPixels, viewport, targetFbo);
    else
        drawLayer(*layer, view, plotPixels);
}

void LayerCache::blitLayer(const Layer& layer, const ViewWindow& view, QSize plotPixels, const QRect& viewport,
                           GLuint targetFbo) {
    // One layer pixel per screen pixel: the view starts a whole number of pixels into the layer.
    const LayerRegion& r = layer.region;
    const int ox = static_cast<int>(std::lround((view.x0() - r.x0) / (r.x1 - r.x0) * r.pixels.width()));
    const int oy = static_cast<int>(std::lround((view.y0() - r.y0) / (r.y1 - r.y0) * r.pixels.height()));
    // Clip the source to the layer; the part of the plot beyond it keeps the background.
    const QRect source = QRect(ox, oy, plotPixels.width(), plotPixels.height()) & QRect(QPoint(0, 0), r.pixels);
    if (source.isEmpty()) return;
    const QPoint dest = viewport.topLeft() + (source.topLeft() - QPoint(ox, oy));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, layer.fbo->handle());
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, targetFbo);
    glBlitFramebuffer(source.left(), source.top(), source.left() + source.width(), source.top() + source.height(),
                      dest.x(), dest.y(), dest.x() + source.width(), dest.y() + source.height(), GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, targetFbo);
}

void LayerCache::drawLayer(const Layer& layer, const ViewWindow& view, QSize plotPixels) {
    if (!m_program || !layer.fbo) return;
    const std::array<float, 4> viewClip = view.clipTransform();
    const GLint filter = layer.region.sameScale(view, plotPixels) ? GL_NEAREST : GL_LINEAR;
    m_program->bind();
    m_program->setUniformValue("u_region", static_cast<float>(layer.region.x0), static_cast<float>(layer.region.y0),
                               static_cast<float>(layer.region.x1), static_cast<float>(layer.region.y1));
    m_program->setUniformValue("u_scale", viewClip[0], viewClip[1]);
    m_program->setUniformValue("u_origin", viewClip[2], viewClip[3]);
    m_program->setUniformValue("u_layer", 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, layer.fbo->texture());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
    glDisable(GL_BLEND);
    QOpenGLVertexArrayObject::Binder binder(m_vao.get());
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindTexture(GL_TEXTURE_2D, 0);
    m_program->release();
}

}  // namespace clusterlens::views
