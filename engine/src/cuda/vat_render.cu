// VatDeviceRenderer: the VAT render source on the device (points in VAT order, the iVAT sparse table,
// the cuts as float) and one kernel launch per viewport (vat_render_kernels.cuh), written straight
// into device memory such as a mapped OpenGL pixel buffer.

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/vat/vat_cuda.hpp"
#include "cuda/kernels/vat_engine.cuh"
#include "cuda/kernels/vat_render_kernels.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/cuda_event.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens {

struct VatDeviceRenderer::Impl {
    std::size_t n = 0;
    std::size_t d = 0;
    Metric metric = Metric::Euclidean;
    bool hasTable = false;
    cuda::DeviceBuffer<float> ordered;
    cuda::DeviceBuffer<int> table;
    cuda::DeviceBuffer<float> cut;
    cuda::DeviceBuffer<float> image;  // renderToHost's staging buffer
    cuda::CudaEvent start, stop;
    double lastMs = 0.0;
};

VatDeviceRenderer::VatDeviceRenderer(const VatRenderSource& source) : m_impl(std::make_unique<Impl>()) {
    if (!cudaAvailable()) throw InvalidInput("VAT image on the GPU: no CUDA device is available");
    if (source.n == 0 || source.d == 0 || source.ordered.size() != source.n * source.d)
        throw InvalidInput("VAT image: the render source holds no points");
    if (source.n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw InvalidInput("VAT image on the GPU supports fewer than 2^31 points");
    const cudaStream_t stream = cudaStreamPerThread;
    Impl& m = *m_impl;
    m.n = source.n;
    m.d = source.d;
    m.metric = source.metric;
    m.ordered = cuda::DeviceBuffer<float>(source.ordered.size(), stream);
    m.ordered.copyFromHost(source.ordered.data(), source.ordered.size());
    m.hasTable = source.ivat.size() == source.n;
    if (m.hasTable) {
        const std::vector<std::int32_t>& table = source.ivat.table();
        m.table = cuda::DeviceBuffer<int>(table.size(), stream);
        m.table.copyFromHost(table.data(), table.size());
        std::vector<float> cut(source.n);
        for (std::size_t k = 0; k < source.n; ++k) cut[k] = static_cast<float>(source.ivat.values()[k]);
        m.cut = cuda::DeviceBuffer<float>(cut.size(), stream);
        m.cut.copyFromHost(cut.data(), cut.size());
    }
    CL_CUDA_TRY(cudaStreamSynchronize(stream));
}

VatDeviceRenderer::~VatDeviceRenderer() = default;

void VatDeviceRenderer::renderToDevice(const VatViewport& viewport, float* deviceOut) {
    Impl& m = *m_impl;
    validateViewport(viewport, m.n);
    if (viewport.kind == VatImageKind::Ivat && !m.hasTable)
        throw InvalidInput("VAT image: the render source holds no iVAT table");
    if (!deviceOut) throw InvalidInput("VAT image: no output buffer");
    const cudaStream_t stream = cudaStreamPerThread;
    const bool mean = viewport.kind == VatImageKind::Vat && viewport.mode == VatPixelMode::BlockMean;
    const cuda::VatWindow w{viewport.row0,
                            viewport.row1,
                            viewport.col0,
                            viewport.col1,
                            viewport.width,
                            viewport.height,
                            mean ? viewportSampleCount((viewport.row1 - viewport.row0) / viewport.height) : 1,
                            mean ? viewportSampleCount((viewport.col1 - viewport.col0) / viewport.width) : 1};
    const dim3 block(32, 8);
    const dim3 grid(cuda::gridFor(static_cast<std::size_t>(w.width), block.x),
                    cuda::gridFor(static_cast<std::size_t>(w.height), block.y));
    const int n = static_cast<int>(m.n);
    CL_CUDA_TRY(cudaEventRecord(m.start.get(), stream));
    if (viewport.kind == VatImageKind::Ivat) {
        cuda::vatRenderIvatKernel<<<grid, block, 0, stream>>>(m.table.data(), m.cut.data(), n, w, deviceOut);
    } else {
        cuda::withMetric(m.metric, [&](auto metric) {
            cuda::vatRenderVatKernel<decltype(metric)::value>
                <<<grid, block, 0, stream>>>(m.ordered.data(), n, static_cast<int>(m.d), w, deviceOut);
        });
    }
    CL_CUDA_CHECK_LAUNCH();
    CL_CUDA_TRY(cudaEventRecord(m.stop.get(), stream));
    CL_CUDA_TRY(cudaEventSynchronize(m.stop.get()));
    float ms = 0.0f;
    CL_CUDA_TRY(cudaEventElapsedTime(&ms, m.start.get(), m.stop.get()));
    m.lastMs = static_cast<double>(ms);
}

void VatDeviceRenderer::renderToHost(const VatViewport& viewport, float* out) {
    validateViewport(viewport, m_impl->n);
    const std::size_t pixels = static_cast<std::size_t>(viewport.width) * static_cast<std::size_t>(viewport.height);
    cuda::ensureCapacity(m_impl->image, pixels);
    renderToDevice(viewport, m_impl->image.data());
    m_impl->image.copyToHost(out, pixels);
}

double VatDeviceRenderer::lastKernelMilliseconds() const {
    return m_impl->lastMs;
}

std::size_t VatDeviceRenderer::deviceBytes() const {
    return m_impl->ordered.bytes() + m_impl->table.bytes() + m_impl->cut.bytes() + m_impl->image.bytes();
}

CL_CUDA_KERNEL_MODULE(cuda::vatRenderIvatKernel)

}  // namespace clusterlens
