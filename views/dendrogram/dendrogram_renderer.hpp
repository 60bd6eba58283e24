#pragma once
// OpenGL resources of the dendrogram widget: one shader program (shaders/dendrogram.{vert,frag}),
// one VAO and one vertex buffer of coloured triangles. Every method must run with the owning
// widget's context current. The buffer is written only when new geometry is built; a frame that
// only pans or zooms changes one uniform.

#include <QOpenGLBuffer>
#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>

#include <array>
#include <memory>

#include "dendrogram/dendrogram_geometry.hpp"

namespace clusterlens::views {

class DendrogramRenderer : protected QOpenGLExtraFunctions {
public:
    DendrogramRenderer() = default;
    ~DendrogramRenderer();
    DendrogramRenderer(const DendrogramRenderer&) = delete;
    DendrogramRenderer& operator=(const DendrogramRenderer&) = delete;

    /// Compiles the shaders and creates the buffer; false with `error` set when the context cannot
    /// run them (no OpenGL 3.3).
    bool initialize(QString* error);
    /// Destroys every GL object; safe to call twice.
    void release();
    bool isReady() const { return m_program != nullptr; }

    /// Uploads `geometry` (region pixel coordinates) as triangles. Links and marks are snapped to
    /// whole pixels with square caps, so a 1-pixel link covers exactly one pixel column and meets
    /// its bar without a gap.
    void upload(const DendrogramGeometry& geometry);
    /// Draws the uploaded triangles; clip = position * transform.xy + transform.zw.
    void draw(const std::array<float, 4>& transform);
    int vertexCount() const { return m_vertexCount; }

    /// GL_RENDERER of the current context, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    QString rendererString();

private:
    std::unique_ptr<QOpenGLShaderProgram> m_program;
    std::unique_ptr<QOpenGLVertexArrayObject> m_vao;
    QOpenGLBuffer m_vertices{QOpenGLBuffer::VertexBuffer};
    int m_vertexCount = 0;
};

}  // namespace clusterlens::views
