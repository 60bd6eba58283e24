#pragma once
// VAT on the GPU: exact minimum spanning tree under any metric without an N×N matrix, and a viewport
// renderer that writes straight into a device buffer (e.g. a mapped OpenGL pixel buffer).

#include <cstddef>
#include <memory>
#include <vector>

#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/vat.hpp"
#include "clusterlens/vat/viewport.hpp"

namespace clusterlens {

/// Exact minimum spanning tree under `metric` on the GPU, walked into Prim order from `start`
/// (same contract as minimumSpanningTreeCpu(x, n, d, metric, ...): equal edges on distinct distances,
/// weights equal to metricDistance bit for bit). Throws InvalidInput, NonFiniteInput,
/// OutOfDeviceMemory, CudaError, Cancelled.
std::vector<MstEdge> minimumSpanningTreeCuda(const float* x, std::size_t n, std::size_t d, Metric metric,
                                             JobControl* control = nullptr, std::size_t start = 0);

/// farthestPairCpu on the GPU (fused into one tiled all-pairs pass; exact: candidates re-evaluated
/// in double). Same throws.
std::pair<std::size_t, std::size_t> farthestPairCuda(const float* x, std::size_t n, std::size_t d, Metric metric,
                                                     JobControl* control = nullptr);

/// Holds a VatRenderSource on the device (n·d floats + the range-max table + the cuts as float) and
/// renders viewports with one kernel launch, same pixel rules as renderVatViewportCpu.
class VatDeviceRenderer {
public:
    /// Uploads the source. Throws OutOfDeviceMemory, CudaError, InvalidInput (no CUDA device).
    explicit VatDeviceRenderer(const VatRenderSource& source);
    ~VatDeviceRenderer();
    VatDeviceRenderer(const VatDeviceRenderer&) = delete;
    VatDeviceRenderer& operator=(const VatDeviceRenderer&) = delete;

    /// Renders into device memory holding width·height floats (row-major, top row first), on the
    /// default stream, synchronised before returning. deviceOut must be a CUDA device pointer.
    void renderToDevice(const VatViewport& viewport, float* deviceOut);
    /// Same image copied to host memory (out: width·height floats).
    void renderToHost(const VatViewport& viewport, float* out);
    /// Kernel time of the last render call in milliseconds (CUDA events around the launch).
    double lastKernelMilliseconds() const;
    std::size_t deviceBytes() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace clusterlens
