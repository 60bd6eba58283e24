#pragma once
// CUDA–OpenGL interop for the VAT view: the engine's viewport kernel writes into an OpenGL pixel buffer
// registered with CUDA (cudaGraphicsGLRegisterBuffer), so a frame never travels through host memory.
// Plain C++ and GL object names only: views include this header without CUDA or GL headers.

#include <cstddef>
#include <memory>
#include <string>

namespace clusterlens {

class VatDeviceRenderer;
struct VatViewport;

/// True when CUDA can write into buffers of the OpenGL context that is current on this thread: a CUDA
/// device exists and cudaGLGetDevices maps the context to it (an NVIDIA GL driver on that GPU; Mesa,
/// llvmpipe or a remote X server give false). `reason` receives one line for the status bar either way.
bool glInteropUsable(std::string* reason);

/// One GL buffer object registered with CUDA for write-discard. Create, use and destroy with the
/// owning GL context current. Not copyable.
class VatGlBuffer {
public:
    /// Registers buffer object `glBuffer` (allocated by the caller with at least `bytes` bytes).
    /// Throws CudaError when registration fails.
    VatGlBuffer(unsigned glBuffer, std::size_t bytes);
    ~VatGlBuffer();
    VatGlBuffer(const VatGlBuffer&) = delete;
    VatGlBuffer& operator=(const VatGlBuffer&) = delete;

    /// Maps the buffer, renders the viewport into it as width·height floats (row-major, top row first)
    /// and unmaps it; the caller then sources a texture upload from the bound pixel-unpack buffer.
    /// Throws InvalidInput when the image does not fit the buffer, CudaError.
    void render(VatDeviceRenderer& renderer, const VatViewport& viewport);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace clusterlens
