#pragma once
// Renders viewports of one VAT run on the backend chosen once, at construction: on the CUDA device
// (VatDeviceRenderer keeps the ordered points and the range-max table in device memory) or on the CPU
// (renderVatViewportCpu); both give the same pixels.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/viewport.hpp"

namespace clusterlens {

class VatDeviceRenderer;

/// One renderer per VAT run, shared by the view, its render jobs and the figure exports; every method
/// may be called from any thread. Under Backend::Auto a source that does not fit the device, or a CUDA
/// context lost during a render, moves the rendering to the CPU and adds a warning (warnings(), and
/// the JobControl of the render that met it). Device memory: see VatDeviceRenderer.
class VatViewportRenderer {
public:
    /// Uploads `source` to the device when `backend` resolves to CUDA; a fallback's warning also goes
    /// to `control`. Throws InvalidInput for a null source, or under Backend::Cuda when CUDA is absent
    /// or the source does not fit (naming the memory needed), CudaError.
    VatViewportRenderer(std::shared_ptr<const VatRenderSource> source, Backend backend, JobControl* control = nullptr);
    ~VatViewportRenderer();
    VatViewportRenderer(const VatViewportRenderer&) = delete;
    VatViewportRenderer& operator=(const VatViewportRenderer&) = delete;

    /// Renders `viewport` into `out` (width·height floats, top row first). Throws InvalidInput for a
    /// viewport outside the matrix, Cancelled, CudaError.
    void render(const VatViewport& viewport, float* out, JobControl* control = nullptr) const;

    const VatRenderSource& source() const { return *m_source; }
    /// The backend the next render uses: Cuda, or Cpu (asked for, no usable device, or fallen back).
    Backend backend() const;
    /// What moved the rendering to the CPU, for the user; empty while it runs as asked.
    std::vector<std::string> warnings() const;

    /// The device renderer for CUDA–OpenGL interop, null when rendering on the CPU. Hold deviceLock()
    /// while using it: render jobs and exports share it.
    VatDeviceRenderer* device() const;
    std::unique_lock<std::mutex> deviceLock() const { return std::unique_lock<std::mutex>(m_deviceMutex); }

private:
    std::shared_ptr<const VatRenderSource> m_source;
    // shared_ptr: VatDeviceRenderer stays an incomplete type here, and an empty shared_ptr needs no deleter.
    std::shared_ptr<VatDeviceRenderer> m_device;
    mutable std::mutex m_deviceMutex;
    mutable std::atomic<bool> m_deviceLost{false};  // a render lost the CUDA context: the CPU renders
    mutable std::vector<std::string> m_warnings;    // guarded by m_deviceMutex
};

}  // namespace clusterlens
