#include "vat/vat_frame_renderer.hpp"

#include <utility>

#include "clusterlens/backend.hpp"

namespace clusterlens::views {

VatFrameRenderer::VatFrameRenderer(std::shared_ptr<const VatRenderSource> source, bool preferDevice,
                                   JobControl* control)
    : m_engine(std::move(source), preferDevice ? Backend::Auto : Backend::Cpu, control), m_preferDevice(preferDevice) {}

std::shared_ptr<VatFrameRenderer> VatFrameRenderer::create(std::shared_ptr<const VatRenderSource> source,
                                                           bool preferDevice, JobControl* control) {
    return std::shared_ptr<VatFrameRenderer>(new VatFrameRenderer(std::move(source), preferDevice, control));
}

void VatFrameRenderer::render(const VatViewport& viewport, float* out, JobControl* control) const {
    m_engine.render(viewport, out, control);
}

QString VatFrameRenderer::description() const {
    if (onDevice()) return QStringLiteral("CUDA");
    return QStringLiteral("CPU, %1 threads").arg(cpuThreadCount());
}

QString VatFrameRenderer::note() const {
    if (!m_preferDevice || onDevice()) return {};
    const std::vector<std::string> warnings = m_engine.warnings();
    if (!warnings.empty()) return QString::fromStdString(warnings.back());
    return QStringLiteral("no usable CUDA device");
}

}  // namespace clusterlens::views
