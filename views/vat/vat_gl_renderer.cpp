#include "vat/vat_gl_renderer.hpp"

#include "views_resources.hpp"

namespace clusterlens::views {

namespace {

constexpr GLuint kCornerAttribute = 0;
constexpr int kColormapSize = 256;

GLuint makeTexture(QOpenGLExtraFunctions& gl) {
    GLuint texture = 0;
    gl.glGenTextures(1, &texture);
    gl.glBindTexture(GL_TEXTURE_2D, texture);
    // Nearest: a texel is one rendered pixel, its colour is decided by the shader alone.
    gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    gl.glBindTexture(GL_TEXTURE_2D, 0);
    return texture;
}

}  // namespace

VatGlRenderer::~VatGlRenderer() = default;

bool VatGlRenderer::initialize(QString* error) {
    initializeOpenGLFunctions();
    auto program = std::make_unique<QOpenGLShaderProgram>();
    const QString vert = shaderSource(QStringLiteral("vat.vert"));
    const QString frag = shaderSource(QStringLiteral("vat.frag"));
    if (vert.isEmpty() || frag.isEmpty() || !program->addShaderFromSourceCode(QOpenGLShader::Vertex, vert) ||
        !program->addShaderFromSourceCode(QOpenGLShader::Fragment, frag) || !program->link()) {
        if (error) *error = QStringLiteral("The VAT shaders need OpenGL 3.3: %1").arg(program->log().trimmed());
        return false;
    }
    m_program = std::move(program);
    m_vao = std::make_unique<QOpenGLVertexArrayObject>();
    m_vao->create();
    const float corners[] = {0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f};
    QOpenGLVertexArrayObject::Binder binder(m_vao.get());
    m_quad.create();
    m_quad.bind();
    m_quad.allocate(corners, sizeof(corners));
    glEnableVertexAttribArray(kCornerAttribute);
    glVertexAttribPointer(kCornerAttribute, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
    m_quad.release();
    m_image = makeTexture(*this);
    m_colormap = makeTexture(*this);
    m_imageSize = QSize();
    return true;
}

void VatGlRenderer::release() {
    if (m_image) glDeleteTextures(1, &m_image);
    if (m_colormap) glDeleteTextures(1, &m_colormap);
    m_image = m_colormap = 0;
    m_imageSize = QSize();
    m_program.reset();
    if (m_vao) m_vao->destroy();
    m_vao.reset();
    m_quad.destroy();
}

void VatGlRenderer::uploadImage(QSize size, const float* pixels) {
    if (!isReady() || size.isEmpty()) return;
    glBindTexture(GL_TEXTURE_2D, m_image);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    if (size != m_imageSize) {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, size.width(), size.height(), 0, GL_RED, GL_FLOAT, pixels);
        m_imageSize = size;
    } else {
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, size.width(), size.height(), GL_RED, GL_FLOAT, pixels);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
}

void VatGlRenderer::uploadColormap(const std::vector<std::uint8_t>& table) {
    if (!isReady() || table.size() != 3 * kColormapSize) return;
    glBindTexture(GL_TEXTURE_2D, m_colormap);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, kColormapSize, 1, 0, GL_RGB, GL_UNSIGNED_BYTE, table.data());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glBindTexture(GL_TEXTURE_2D, 0);
}

void VatGlRenderer::draw(const std::array<float, 4>& rect, float lo, float hi, float gamma) {
    if (!isReady() || m_imageSize.isEmpty()) return;
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, m_image);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, m_colormap);
    m_program->bind();
    m_program->setUniformValue("u_image", 0);
    m_program->setUniformValue("u_colormap", 1);
    m_program->setUniformValue("u_rect", rect[0], rect[1], rect[2], rect[3]);
    m_program->setUniformValue("u_lo", lo);
    m_program->setUniformValue("u_hi", hi);
    m_program->setUniformValue("u_gamma", gamma);
    {
        QOpenGLVertexArrayObject::Binder binder(m_vao.get());
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    m_program->release();
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, 0);
}

QString VatGlRenderer::vendorString() {
    return QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_VENDOR)));
}

QString VatGlRenderer::rendererString() {
    return QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
}

}  // namespace clusterlens::views
