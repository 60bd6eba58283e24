#pragma once
// Renders viewports of one VAT run into float images: on the CUDA device (VatDeviceRenderer, which
// holds the ordered points and the range-max table in device memory) when the run asked for CUDA and a
// device is present, else on the CPU (renderVatViewportCpu). One object per run, shared by the view,
// its render jobs and the figure exports; every method may be called from any thread.

#include <QString>

#include <memory>
#include <mutex>

#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/viewport.hpp"

namespace clusterlens {
class VatDeviceRenderer;
}

namespace clusterlens::views {

class VatFrameRenderer {
public:
    /// A renderer of `source`: on the device when `preferDevice` and the engine has a usable CUDA
    /// device, else (also when the upload does not fit the device) on the CPU; note() says why.
    static std::shared_ptr<VatFrameRenderer> create(std::shared_ptr<const VatRenderSource> source, bool preferDevice);
    ~VatFrameRenderer();
    VatFrameRenderer(const VatFrameRenderer&) = delete;
    VatFrameRenderer& operator=(const VatFrameRenderer&) = delete;

    /// Renders `viewport` into `out` (width·height floats, top row first). Throws InvalidInput for a
    /// viewport outside the matrix, Cancelled, CudaError.
    void render(const VatViewport& viewport, float* out, JobControl* control = nullptr) const;

    const VatRenderSource& source() const { return *m_source; }
    std::size_t n() const { return m_source->n; }
    bool onDevice() const { return m_device != nullptr; }
    /// "CUDA" or "CPU, 16 threads", for the status bar.
    QString description() const;
    /// Why the device is not used (empty when it is, or when it was not asked for).
    const QString& note() const { return m_note; }

    /// The device renderer for CUDA–OpenGL interop (null on the CPU). Hold deviceLock() while using it:
    /// render jobs and exports share it.
    VatDeviceRenderer* device() const { return m_device.get(); }
    std::unique_lock<std::mutex> deviceLock() const { return std::unique_lock<std::mutex>(m_deviceMutex); }

private:
    explicit VatFrameRenderer(std::shared_ptr<const VatRenderSource> source);

    std::shared_ptr<const VatRenderSource> m_source;
    // shared_ptr: the type is complete only in CUDA builds, and an empty shared_ptr needs no deleter.
    std::shared_ptr<VatDeviceRenderer> m_device;
    QString m_note;
    mutable std::mutex m_deviceMutex;
};

}  // namespace clusterlens::views
