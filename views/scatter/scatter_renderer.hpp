#pragma once
// OpenGL resources of the data scatter: one shader program (shaders/scatter.{vert,frag}), one VAO
// with three vertex buffers (positions, colour values, selection flags) and two palette textures.
// Every method must run with the owning widget's context current. Buffers are written only when
// the data or the selection change; drawing a new view changes uniforms only.

#include <QOpenGLBuffer>
#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLTexture>
#include <QOpenGLVertexArrayObject>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "scatter/scatter_data.hpp"

namespace clusterlens::views {

struct ScatterDrawParams {
    std::array<float, 4> clipTransform{2.0f, 2.0f, 0.0f, 0.0f};  ///< see ViewWindow::clipTransform
    float pointSize = 3.0f;                                      ///< device pixels
    float alpha = 0.8f;
    bool hasSelection = false;
};

class ScatterRenderer : protected QOpenGLExtraFunctions {
public:
    ScatterRenderer() = default;
    ~ScatterRenderer();
    ScatterRenderer(const ScatterRenderer&) = delete;
    ScatterRenderer& operator=(const ScatterRenderer&) = delete;

    /// Compiles the shaders and creates the buffers; false with `error` set when the context
    /// cannot run them (e.g. no OpenGL 3.3).
    bool initialize(QString* error);
    /// Destroys every GL object; safe to call twice.
    void release();
    bool isReady() const { return m_program != nullptr; }

    /// Uploads positions and colour values of `data` and clears the selection flags.
    void upload(const ScatterData& data);
    /// One flag per drawn point (draw order), 0 or 255.
    void uploadSelection(const std::vector<std::uint8_t>& flags);
    /// Draws the points [first, first + count) of the draw order into the current framebuffer.
    void draw(const ScatterDrawParams& params, int first, int count);
    int pointCount() const { return m_pointCount; }

    /// GL_RENDERER and GL_VERSION of the current context, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    QString rendererString();
    QString versionString();

private:
    std::unique_ptr<QOpenGLShaderProgram> m_program;
    std::unique_ptr<QOpenGLVertexArrayObject> m_vao;
    std::unique_ptr<QOpenGLTexture> m_colormap;
    std::unique_ptr<QOpenGLTexture> m_labelColors;
    QOpenGLBuffer m_positions{QOpenGLBuffer::VertexBuffer};
    QOpenGLBuffer m_values{QOpenGLBuffer::VertexBuffer};
    QOpenGLBuffer m_selection{QOpenGLBuffer::VertexBuffer};
    int m_pointCount = 0;
    int m_labelCount = 1;   // colours in m_labelColors
    bool m_styled = false;  // m_labelColors holds a labeling's own colours
    ColourMode m_mode = ColourMode::Density;
    bool m_coreProfile = true;
};

}  // namespace clusterlens::views
