#include "clusterlens/vat/vat_viewport_renderer.hpp"

#include "backend_dispatch.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/vat/vat_cuda.hpp"

namespace clusterlens {

VatViewportRenderer::VatViewportRenderer(std::shared_ptr<const VatRenderSource> source, Backend backend,
                                         JobControl* control)
    : m_source(std::move(source)) {
    if (!m_source) throw InvalidInput("no VAT result to render");
    if (!m_source->vatPosition.empty()) backend = Backend::Cpu;  // the device renderer reads VAT order only
    detail::runOnBackend(
        "VAT rendering", backend, [] {}, [&] { m_device = std::make_shared<VatDeviceRenderer>(*m_source); }, m_warnings,
        control);
}

VatViewportRenderer::~VatViewportRenderer() = default;

void VatViewportRenderer::render(const VatViewport& viewport, float* out, JobControl* control) const {
    if (m_device && !m_deviceLost.load()) {
        validateViewport(viewport, m_source->n);
        if (control) control->checkCancelled();
        const auto lock = deviceLock();
        try {
            m_device->renderToHost(viewport, out);
            return;
        } catch (const CudaError& error) {
            // A lost context fails every later call: the CPU draws this frame and every later one.
            const std::string warning = detail::noteCudaFailure("VAT rendering", error);
            if (warning.empty()) throw;
            m_deviceLost.store(true);
            m_warnings.push_back(warning);
            if (control) control->addWarning(warning);
        }
    }
    renderVatViewportCpu(*m_source, viewport, out, control);
}

Backend VatViewportRenderer::backend() const {
    return m_device && !m_deviceLost.load() ? Backend::Cuda : Backend::Cpu;
}

std::vector<std::string> VatViewportRenderer::warnings() const {
    const auto lock = deviceLock();
    return m_warnings;
}

VatDeviceRenderer* VatViewportRenderer::device() const {
    return m_deviceLost.load() ? nullptr : m_device.get();
}

}  // namespace clusterlens
