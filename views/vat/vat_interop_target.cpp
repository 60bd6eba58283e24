#include "vat/vat_interop_target.hpp"

#include <QSize>

#include "clusterlens/errors.hpp"
#include "vat/vat_frame_renderer.hpp"
#include "vat/vat_gl_renderer.hpp"

#ifdef CLUSTERLENS_HAVE_GL_INTEROP
#include <string>

#include "clusterlens/interop/vat_gl_interop.hpp"
#include "clusterlens/vat/vat_cuda.hpp"
#endif

namespace clusterlens::views {

#ifdef CLUSTERLENS_HAVE_GL_INTEROP
struct VatInteropTarget::Registration {
    VatGlBuffer buffer;
    Registration(GLuint glBuffer, std::size_t bytes) : buffer(glBuffer, bytes) {}
};
#else
struct VatInteropTarget::Registration {};
#endif

VatInteropTarget::VatInteropTarget() {
    initializeOpenGLFunctions();
}

VatInteropTarget::~VatInteropTarget() {
    release();
}

std::unique_ptr<VatInteropTarget> VatInteropTarget::create(QString* reason) {
#ifdef CLUSTERLENS_HAVE_GL_INTEROP
    std::string why;
    const bool usable = glInteropUsable(&why);
    if (reason) *reason = QString::fromStdString(why);
    if (!usable) return nullptr;
    return std::unique_ptr<VatInteropTarget>(new VatInteropTarget());
#else
    if (reason) *reason = QStringLiteral("this build has no CUDA\u2013OpenGL interop");
    return nullptr;
#endif
}

void VatInteropTarget::release() {
    m_registration.reset();  // the CUDA registration goes before its buffer
    if (m_buffer) glDeleteBuffers(1, &m_buffer);
    m_buffer = 0;
    m_bytes = 0;
}

void VatInteropTarget::renderInto(const VatFrameRenderer& renderer, const VatViewport& viewport, VatGlRenderer& gl) {
#ifdef CLUSTERLENS_HAVE_GL_INTEROP
    if (!renderer.device()) throw InvalidInput("the VAT renderer of this run is not on the CUDA device");
    const std::size_t bytes =
        static_cast<std::size_t>(viewport.width) * static_cast<std::size_t>(viewport.height) * sizeof(float);
    if (bytes > m_bytes) {
        // Registered once per size: a larger view gets a new buffer, a smaller one reuses it.
        release();
        glGenBuffers(1, &m_buffer);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_buffer);
        glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        m_registration = std::make_unique<Registration>(m_buffer, bytes);
        m_bytes = bytes;
    }
    {
        const auto lock = renderer.deviceLock();
        m_registration->buffer.render(*renderer.device(), viewport);
    }
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_buffer);
    gl.uploadImage(QSize(viewport.width, viewport.height), nullptr);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
#else
    (void)renderer;
    (void)viewport;
    (void)gl;
    throw InvalidInput("this build has no CUDA\u2013OpenGL interop");
#endif
}

}  // namespace clusterlens::views
