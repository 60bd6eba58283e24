#pragma once
// Renders viewports of one VAT run into float images through the engine's VatViewportRenderer: on the
// CUDA device when the run asked for it and a usable device holds the source, else on the CPU. One
// object per run, shared by the view, its render jobs and the figure exports; every method may be
// called from any thread.

#include <QString>

#include <memory>
#include <mutex>

#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/vat_viewport_renderer.hpp"
#include "clusterlens/vat/viewport.hpp"

namespace clusterlens::views {

class VatFrameRenderer {
public:
    /// A renderer of `source`: on the device when `preferDevice` and the engine has a usable CUDA
    /// device, else (also when the upload does not fit the device) on the CPU; note() says why, and a
    /// fallback's warning also goes to `control`.
    static std::shared_ptr<VatFrameRenderer> create(std::shared_ptr<const VatRenderSource> source, bool preferDevice,
                                                    JobControl* control = nullptr);
    VatFrameRenderer(const VatFrameRenderer&) = delete;
    VatFrameRenderer& operator=(const VatFrameRenderer&) = delete;

    /// Renders `viewport` into `out` (width·height floats, top row first). Throws InvalidInput for a
    /// viewport outside the matrix, Cancelled, CudaError.
    void render(const VatViewport& viewport, float* out, JobControl* control = nullptr) const;

    const VatRenderSource& source() const { return m_engine.source(); }
    std::size_t n() const { return source().n; }
    bool onDevice() const { return m_engine.backend() == Backend::Cuda; }
    /// "CUDA" or "CPU, 16 threads", for the status bar.
    QString description() const;
    /// Why the device is not used (empty when it is, or when it was not asked for).
    QString note() const;

    /// The device renderer for CUDA–OpenGL interop (null on the CPU). Hold deviceLock() while using it:
    /// render jobs and exports share it.
    VatDeviceRenderer* device() const { return m_engine.device(); }
    std::unique_lock<std::mutex> deviceLock() const { return m_engine.deviceLock(); }

private:
    VatFrameRenderer(std::shared_ptr<const VatRenderSource> source, bool preferDevice, JobControl* control);

    VatViewportRenderer m_engine;
    bool m_preferDevice;
};

}  // namespace clusterlens::views
