#include "scatter/scatter_renderer.hpp"

#include <QOpenGLContext>

#include <algorithm>

#include "palette.hpp"
#include "views_resources.hpp"

#ifndef GL_PROGRAM_POINT_SIZE
#define GL_PROGRAM_POINT_SIZE 0x8642
#endif
#ifndef GL_POINT_SPRITE
#define GL_POINT_SPRITE 0x8861
#endif

namespace clusterlens::views {

namespace {

enum ScatterAttribute : GLuint { ScatterPositionAttribute = 0, ValueAttribute = 1, SelectedAttribute = 2 };

std::unique_ptr<QOpenGLTexture> paletteTexture(const QImage& image, bool linear) {
    auto texture = std::make_unique<QOpenGLTexture>(QOpenGLTexture::Target2D);
    texture->setFormat(QOpenGLTexture::RGBA8_UNorm);
    texture->setSize(image.width(), image.height());
    texture->setMipLevels(1);
    texture->allocateStorage();
    texture->setData(QOpenGLTexture::RGBA, QOpenGLTexture::UInt8, image.constBits());
    const auto filter = linear ? QOpenGLTexture::Linear : QOpenGLTexture::Nearest;
    texture->setMinMagFilters(filter, filter);
    texture->setWrapMode(QOpenGLTexture::ClampToEdge);
    return texture;
}

/// A labeling's own colours as an RGBA8888 image of colours.size() x 1, like Palette::categoricalImage.
QImage styleImage(const LabelStyle& style) {
    QImage image(static_cast<int>(style.colours.size()), 1, QImage::Format_RGBA8888);
    for (int i = 0; i < image.width(); ++i) image.setPixelColor(i, 0, style.colours[static_cast<std::size_t>(i)]);
    return image;
}

}  // namespace

ScatterRenderer::~ScatterRenderer() = default;

bool ScatterRenderer::initialize(QString* error) {
    initializeOpenGLFunctions();
    auto program = std::make_unique<QOpenGLShaderProgram>();
    const QString vert = shaderSource(QStringLiteral("scatter.vert"));
    const QString frag = shaderSource(QStringLiteral("scatter.frag"));
    if (vert.isEmpty() || frag.isEmpty() || !program->addShaderFromSourceCode(QOpenGLShader::Vertex, vert) ||
        !program->addShaderFromSourceCode(QOpenGLShader::Fragment, frag) || !program->link()) {
        if (error) *error = QStringLiteral("The scatter shaders need OpenGL 3.3: %1").arg(program->log().trimmed());
        return false;
    }
    m_program = std::move(program);
    m_vao = std::make_unique<QOpenGLVertexArrayObject>();
    m_vao->create();
    for (QOpenGLBuffer* buffer : {&m_positions, &m_values, &m_selection}) {
        buffer->create();
        buffer->setUsagePattern(QOpenGLBuffer::StaticDraw);
    }
    m_colormap = paletteTexture(Palette::colormapImage(256), true);
    m_labelColors = paletteTexture(Palette::categoricalImage(), false);
    m_labelCount = static_cast<int>(Palette::categoricalColors().size());
    m_styled = false;

    QOpenGLVertexArrayObject::Binder binder(m_vao.get());
    m_positions.bind();
    glEnableVertexAttribArray(ScatterPositionAttribute);
    glVertexAttribPointer(ScatterPositionAttribute, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    m_values.bind();
    glEnableVertexAttribArray(ValueAttribute);
    glVertexAttribPointer(ValueAttribute, 1, GL_FLOAT, GL_FALSE, 0, nullptr);
    m_selection.bind();
    glEnableVertexAttribArray(SelectedAttribute);
    glVertexAttribPointer(SelectedAttribute, 1, GL_UNSIGNED_BYTE, GL_TRUE, 0, nullptr);
    m_selection.release();
    m_coreProfile = QOpenGLContext::currentContext()->format().profile() == QSurfaceFormat::CoreProfile;
    m_pointCount = 0;
    return true;
}

void ScatterRenderer::release() {
    m_program.reset();
    m_colormap.reset();
    m_labelColors.reset();
    if (m_vao) m_vao->destroy();
    m_vao.reset();
    m_positions.destroy();
    m_values.destroy();
    m_selection.destroy();
    m_pointCount = 0;
}

void ScatterRenderer::upload(const ScatterData& data) {
    if (!isReady()) return;
    const int count = static_cast<int>(data.pointCount);
    m_positions.bind();
    m_positions.allocate(data.positions.data(), count * 2 * static_cast<int>(sizeof(float)));
    m_values.bind();
    m_values.allocate(data.values.data(), count * static_cast<int>(sizeof(float)));
    m_selection.bind();
    m_selection.allocate(count);
    const std::vector<std::uint8_t> none(data.pointCount, 0);
    m_selection.write(0, none.data(), count);
    m_selection.release();
    m_pointCount = count;
    m_mode = data.mode;
    // A labeling with its own colours (populations) replaces the palette texture while it is shown.
    const LabelStyle* style = data.mode == ColourMode::Labels ? data.labelStyle.get() : nullptr;
    const bool styled = style && !style->colours.empty();
    if (styled || m_styled) {
        m_labelColors = paletteTexture(styled ? styleImage(*style) : Palette::categoricalImage(), false);
        m_labelCount =
            styled ? static_cast<int>(style->colours.size()) : static_cast<int>(Palette::categoricalColors().size());
        m_styled = styled;
    }
}

void ScatterRenderer::uploadSelection(const std::vector<std::uint8_t>& flags) {
    if (!isReady() || static_cast<int>(flags.size()) != m_pointCount) return;
    m_selection.bind();
    m_selection.write(0, flags.data(), m_pointCount);
    m_selection.release();
}

void ScatterRenderer::draw(const ScatterDrawParams& params, int first, int count) {
    count = std::min(count, m_pointCount - first);
    if (!isReady() || first < 0 || count <= 0) return;
    glEnable(GL_PROGRAM_POINT_SIZE);
    if (!m_coreProfile) glEnable(GL_POINT_SPRITE);  // compatibility contexts need it for gl_PointCoord
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_DEPTH_TEST);

    m_program->bind();
    const auto& t = params.clipTransform;
    m_program->setUniformValue("u_scale", t[0], t[1]);
    m_program->setUniformValue("u_origin", t[2], t[3]);
    m_program->setUniformValue("u_pointSize", params.pointSize);
    m_program->setUniformValue("u_alpha", params.alpha);
    m_program->setUniformValue("u_round", params.pointSize > 2.5f);
    m_program->setUniformValue("u_mode", m_mode == ColourMode::Labels ? 1 : 0);
    m_program->setUniformValue("u_hasSelection", params.hasSelection);
    m_program->setUniformValue("u_noiseColor", Palette::noiseColor());
    m_program->setUniformValue("u_labelCount", m_labelCount);
    m_colormap->bind(0);
    m_labelColors->bind(1);
    m_program->setUniformValue("u_colormap", 0);
    m_program->setUniformValue("u_labelColors", 1);

    QOpenGLVertexArrayObject::Binder binder(m_vao.get());
    glDrawArrays(GL_POINTS, first, count);

    m_labelColors->release(1);
    m_colormap->release(0);
    m_program->release();
    glDisable(GL_BLEND);
    glDisable(GL_PROGRAM_POINT_SIZE);
}

QString ScatterRenderer::rendererString() {
    return QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
}

QString ScatterRenderer::versionString() {
    return QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_VERSION)));
}

}  // namespace clusterlens::views
