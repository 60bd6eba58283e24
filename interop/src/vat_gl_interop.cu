// CUDA–OpenGL interop for the VAT view: register a GL pixel buffer, map it for one frame, let the
// engine's viewport kernel write into it, unmap. The texture upload that follows stays on the GPU.

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <string>

#include "clusterlens/errors.hpp"
#include "clusterlens/interop/vat_gl_interop.hpp"
#include "clusterlens/vat/vat_cuda.hpp"
#include "clusterlens/vat/viewport.hpp"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens {

bool glInteropUsable(std::string* reason) {
    auto say = [reason](std::string text) {
        if (reason) *reason = std::move(text);
    };
    int deviceCount = 0;
    if (cudaGetDeviceCount(&deviceCount) != cudaSuccess || deviceCount == 0) {
        cudaGetLastError();  // clear the sticky "no device" status
        say("no CUDA device: frames are rendered on the host and uploaded");
        return false;
    }
    // Which CUDA devices drive the current GL context: none for Mesa/llvmpipe or a foreign GPU.
    unsigned int glDeviceCount = 0;
    int glDevices[4] = {};
    const cudaError_t status = cudaGLGetDevices(&glDeviceCount, glDevices, 4, cudaGLDeviceListAll);
    if (status != cudaSuccess || glDeviceCount == 0) {
        cudaGetLastError();
        say("the OpenGL context is not on the CUDA device (e.g. Mesa): frames are rendered into host memory "
            "and uploaded");
        return false;
    }
    int current = 0;
    CL_CUDA_TRY(cudaGetDevice(&current));
    for (unsigned int i = 0; i < glDeviceCount; ++i) {
        if (glDevices[i] == current) {
            cudaDeviceProp properties{};
            CL_CUDA_TRY(cudaGetDeviceProperties(&properties, current));
            say(std::string("CUDA–OpenGL interop on ") + properties.name + ": frames never leave the GPU");
            return true;
        }
    }
    say("OpenGL runs on a different GPU than CUDA device " + std::to_string(current) +
        ": frames are rendered into host memory and uploaded");
    return false;
}

struct VatGlBuffer::Impl {
    cudaGraphicsResource* resource = nullptr;
    std::size_t bytes = 0;
};

VatGlBuffer::VatGlBuffer(unsigned glBuffer, std::size_t bytes) : m_impl(std::make_unique<Impl>()) {
    m_impl->bytes = bytes;
    CL_CUDA_TRY(cudaGraphicsGLRegisterBuffer(&m_impl->resource, glBuffer, cudaGraphicsRegisterFlagsWriteDiscard));
}

VatGlBuffer::~VatGlBuffer() {
    if (m_impl && m_impl->resource) cudaGraphicsUnregisterResource(m_impl->resource);
}

void VatGlBuffer::render(VatDeviceRenderer& renderer, const VatViewport& viewport) {
    const std::size_t needed =
        static_cast<std::size_t>(viewport.width) * static_cast<std::size_t>(viewport.height) * sizeof(float);
    if (viewport.width <= 0 || viewport.height <= 0 || needed > m_impl->bytes)
        throw InvalidInput("VAT image of " + std::to_string(viewport.width) + "x" + std::to_string(viewport.height) +
                           " pixels does not fit the registered GL buffer of " + std::to_string(m_impl->bytes) +
                           " bytes");
    CL_CUDA_TRY(cudaGraphicsMapResources(1, &m_impl->resource, nullptr));
    void* pointer = nullptr;
    std::size_t mappedBytes = 0;
    try {
        CL_CUDA_TRY(cudaGraphicsResourceGetMappedPointer(&pointer, &mappedBytes, m_impl->resource));
        if (mappedBytes < needed) throw InvalidInput("the mapped GL buffer is smaller than the VAT image");
        renderer.renderToDevice(viewport, static_cast<float*>(pointer));
    } catch (...) {
        cudaGraphicsUnmapResources(1, &m_impl->resource, nullptr);
        throw;
    }
    CL_CUDA_TRY(cudaGraphicsUnmapResources(1, &m_impl->resource, nullptr));
}

}  // namespace clusterlens
