#include "dendrogram/dendrogram_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "views_resources.hpp"

namespace clusterlens::views {

namespace {

enum TreeAttribute : GLuint { TreePositionAttribute = 0, TreeColorAttribute = 1 };

struct Vertex {
    float x, y;
    std::uint8_t r, g, b, a;
};
static_assert(sizeof(Vertex) == 12, "vertices are packed for the attribute layout");

class TriangleList {
public:
    void rect(double left, double top, double right, double bottom, QRgb rgb) {
        const auto fx0 = static_cast<float>(left), fy0 = static_cast<float>(top);
        const auto fx1 = static_cast<float>(right), fy1 = static_cast<float>(bottom);
        const Vertex corner[4] = {vertex(fx0, fy0, rgb), vertex(fx1, fy0, rgb), vertex(fx0, fy1, rgb),
                                  vertex(fx1, fy1, rgb)};
        for (int i : {0, 1, 2, 1, 3, 2}) m_vertices.push_back(corner[i]);
    }
    // Whole-pixel rectangle around a segment: square caps of half the width, edges rounded to the
    // pixel grid, at least one pixel across.
    void segment(const GeometrySegment& s) {
        const double half = 0.5 * s.width;
        double left = std::round(std::min(s.a.x(), s.b.x()) - half),
               right = std::round(std::max(s.a.x(), s.b.x()) + half);
        double top = std::round(std::min(s.a.y(), s.b.y()) - half),
               bottom = std::round(std::max(s.a.y(), s.b.y()) + half);
        right = std::max(right, left + 1.0);
        bottom = std::max(bottom, top + 1.0);
        rect(left, top, right, bottom, s.rgb);
    }
    void triangle(QPointF p, QPointF q, QPointF r, QRgb rgb) {
        for (QPointF v : {p, q, r})
            m_vertices.push_back(vertex(static_cast<float>(v.x()), static_cast<float>(v.y()), rgb));
    }
    const std::vector<Vertex>& vertices() const { return m_vertices; }

private:
    static Vertex vertex(float x, float y, QRgb rgb) {
        return {x,
                y,
                static_cast<std::uint8_t>(qRed(rgb)),
                static_cast<std::uint8_t>(qGreen(rgb)),
                static_cast<std::uint8_t>(qBlue(rgb)),
                static_cast<std::uint8_t>(qAlpha(rgb))};
    }
    std::vector<Vertex> m_vertices;
};

}  // namespace

DendrogramRenderer::~DendrogramRenderer() = default;

bool DendrogramRenderer::initialize(QString* error) {
    initializeOpenGLFunctions();
    auto program = std::make_unique<QOpenGLShaderProgram>();
    const QString vert = shaderSource(QStringLiteral("dendrogram.vert"));
    const QString frag = shaderSource(QStringLiteral("dendrogram.frag"));
    if (vert.isEmpty() || frag.isEmpty() || !program->addShaderFromSourceCode(QOpenGLShader::Vertex, vert) ||
        !program->addShaderFromSourceCode(QOpenGLShader::Fragment, frag) || !program->link()) {
        if (error) *error = QStringLiteral("The dendrogram shaders need OpenGL 3.3: %1").arg(program->log().trimmed());
        return false;
    }
    m_program = std::move(program);
    m_vao = std::make_unique<QOpenGLVertexArrayObject>();
    m_vao->create();
    m_vertices.create();
    m_vertices.setUsagePattern(QOpenGLBuffer::DynamicDraw);
    QOpenGLVertexArrayObject::Binder binder(m_vao.get());
    m_vertices.bind();
    glEnableVertexAttribArray(TreePositionAttribute);
    glVertexAttribPointer(TreePositionAttribute, 2, GL_FLOAT, GL_FALSE, sizeof(Vertex), nullptr);
    glEnableVertexAttribArray(TreeColorAttribute);
    glVertexAttribPointer(TreeColorAttribute, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex),
                          reinterpret_cast<const void*>(offsetof(Vertex, r)));
    m_vertices.release();
    m_vertexCount = 0;
    return true;
}

void DendrogramRenderer::release() {
    m_program.reset();
    if (m_vao) m_vao->destroy();
    m_vao.reset();
    m_vertices.destroy();
    m_vertexCount = 0;
}

void DendrogramRenderer::upload(const DendrogramGeometry& geometry) {
    if (!isReady()) return;
    TriangleList list;
    for (const GeometryRect& s : geometry.strips)
        list.rect(s.rect.left(), std::round(s.rect.top()), s.rect.right(), std::round(s.rect.bottom()), s.rgb);
    for (const CollapsedSubtree& c : geometry.collapsed)
        list.triangle(c.apex, QPointF(c.left, c.base), QPointF(c.right, c.base), (c.rgb & 0x00ffffffu) | 0x99000000u);
    for (const GeometrySegment& s : geometry.links) list.segment(s);
    for (const GeometryRect& m : geometry.marks)
        list.rect(m.rect.left(), std::round(m.rect.top()), m.rect.right(), std::round(m.rect.bottom()), m.rgb);
    const auto& vertices = list.vertices();
    m_vertices.bind();
    m_vertices.allocate(vertices.data(), static_cast<int>(vertices.size() * sizeof(Vertex)));
    m_vertices.release();
    m_vertexCount = static_cast<int>(vertices.size());
}

void DendrogramRenderer::draw(const std::array<float, 4>& transform) {
    if (!isReady() || m_vertexCount == 0) return;
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_DEPTH_TEST);
    m_program->bind();
    m_program->setUniformValue("u_transform", transform[0], transform[1], transform[2], transform[3]);
    {
        QOpenGLVertexArrayObject::Binder binder(m_vao.get());
        glDrawArrays(GL_TRIANGLES, 0, m_vertexCount);
    }
    m_program->release();
    glDisable(GL_BLEND);
}

QString DendrogramRenderer::rendererString() {
    return QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
}

}  // namespace clusterlens::views
