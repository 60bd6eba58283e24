#pragma once
// OpenGL resources of the VAT widget: the shader program (shaders/vat.{vert,frag}), a quad, the R32F
// texture holding the last rendered image and the 256 x 1 colormap texture. Every method must run
// with the owning widget's context current.

#include <QOpenGLBuffer>
#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>
#include <QSize>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace clusterlens::views {

class VatGlRenderer : protected QOpenGLExtraFunctions {
public:
    VatGlRenderer() = default;
    ~VatGlRenderer();
    VatGlRenderer(const VatGlRenderer&) = delete;
    VatGlRenderer& operator=(const VatGlRenderer&) = delete;

    /// Compiles the shaders and creates the quad and textures; false with `error` set when the
    /// context cannot run them (no OpenGL 3.3 or no float textures).
    bool initialize(QString* error);
    /// Destroys every GL object; safe to call twice.
    void release();
    bool isReady() const { return m_program != nullptr; }

    /// Replaces the image texture with `size` floats (top row first). With `pixels` null the data come
    /// from the buffer bound to GL_PIXEL_UNPACK_BUFFER at offset 0 (the CUDA–OpenGL interop path).
    void uploadImage(QSize size, const float* pixels);
    QSize imageSize() const { return m_imageSize; }
    /// Replaces the colormap: 256 RGB triplets.
    void uploadColormap(const std::vector<std::uint8_t>& table);

    /// Draws the image over rect = (left, top, right, bottom) in clip space of the current viewport.
    void draw(const std::array<float, 4>& rect, float lo, float hi, float gamma);

    /// GL_VENDOR and GL_RENDERER of the current context.
    QString vendorString();
    QString rendererString();

private:
    std::unique_ptr<QOpenGLShaderProgram> m_program;
    std::unique_ptr<QOpenGLVertexArrayObject> m_vao;
    QOpenGLBuffer m_quad{QOpenGLBuffer::VertexBuffer};
    GLuint m_image = 0;
    GLuint m_colormap = 0;
    QSize m_imageSize;
};

}  // namespace clusterlens::views
