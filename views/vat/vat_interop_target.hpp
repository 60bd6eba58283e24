#pragma once
// The CUDA–OpenGL interop path of the VAT widget: a GL pixel buffer registered with CUDA once per
// size, into which the engine's viewport kernel writes the frame (map, render, unmap), and from which
// the image texture is filled on the GPU — the frame never travels through host memory. Available
// when the build has the interop glue and the widget's context runs on the CUDA device (an NVIDIA GL
// driver); Mesa, llvmpipe or a remote X server use the host path instead. Like every GL object of
// the widget it is created and destroyed with the context current; the CUDA registration is dropped
// before its buffer is deleted.

#include <QOpenGLExtraFunctions>
#include <QString>

#include <memory>

#include "clusterlens/vat/viewport.hpp"

namespace clusterlens::views {

class VatFrameRenderer;
class VatGlRenderer;

class VatInteropTarget : protected QOpenGLExtraFunctions {
public:
    /// With the context current: a target when CUDA can write into this context's buffers, else null.
    /// `reason` receives one line for the status bar either way.
    static std::unique_ptr<VatInteropTarget> create(QString* reason);
    ~VatInteropTarget();
    VatInteropTarget(const VatInteropTarget&) = delete;
    VatInteropTarget& operator=(const VatInteropTarget&) = delete;

    /// Unregisters and deletes the pixel buffer (context current); safe to call twice.
    void release();

    /// Renders `viewport` with the renderer's device renderer into the pixel buffer and fills the
    /// image texture of `gl` from it. Throws InvalidInput when the renderer is not on the device,
    /// CudaError.
    void renderInto(const VatFrameRenderer& renderer, const VatViewport& viewport, VatGlRenderer& gl);

private:
    VatInteropTarget();
    struct Registration;

    GLuint m_buffer = 0;
    std::size_t m_bytes = 0;
    std::unique_ptr<Registration> m_registration;
};

}  // namespace clusterlens::views
