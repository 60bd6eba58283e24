#include "vat/vat_frame_renderer.hpp"

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/vat/vat_cuda.hpp"
#endif

namespace clusterlens::views {

VatFrameRenderer::VatFrameRenderer(std::shared_ptr<const VatRenderSource> source) : m_source(std::move(source)) {}

VatFrameRenderer::~VatFrameRenderer() = default;

std::shared_ptr<VatFrameRenderer> VatFrameRenderer::create(std::shared_ptr<const VatRenderSource> source,
                                                           bool preferDevice) {
    if (!source) throw InvalidInput("no VAT result to render");
    std::shared_ptr<VatFrameRenderer> renderer(new VatFrameRenderer(std::move(source)));
    if (!preferDevice) return renderer;
#ifdef CLUSTERLENS_HAVE_CUDA
    if (!cudaAvailable()) {
        renderer->m_note = QStringLiteral("no CUDA device");
        return renderer;
    }
    try {
        renderer->m_device = std::make_shared<VatDeviceRenderer>(*renderer->m_source);
    } catch (const Error& error) {
        // Too large for the device: the CPU renders the same pixels, only slower.
        renderer->m_note = QStringLiteral("device renderer unavailable: %1").arg(QString::fromUtf8(error.what()));
    }
#else
    renderer->m_note = QStringLiteral("built without CUDA");
#endif
    return renderer;
}

void VatFrameRenderer::render(const VatViewport& viewport, float* out, JobControl* control) const {
#ifdef CLUSTERLENS_HAVE_CUDA
    if (m_device) {
        validateViewport(viewport, m_source->n);
        if (control) control->checkCancelled();
        const auto lock = deviceLock();
        m_device->renderToHost(viewport, out);
        return;
    }
#endif
    renderVatViewportCpu(*m_source, viewport, out, control);
}

QString VatFrameRenderer::description() const {
    if (m_device) return QStringLiteral("CUDA");
    return QStringLiteral("CPU, %1 threads").arg(cpuThreadCount());
}

}  // namespace clusterlens::views
