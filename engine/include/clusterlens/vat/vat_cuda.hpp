#pragma once
// VAT on the GPU: exact minimum spanning tree under any metric without an N×N matrix, and a viewport
// renderer that writes straight into a device buffer (e.g. a mapped OpenGL pixel buffer).

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/vat.hpp"
#include "clusterlens/vat/viewport.hpp"

namespace clusterlens {

/// Exact minimum spanning tree under `metric` of n points x d features (row-major) on the GPU, walked
/// into Prim order from `start` (same contract as minimumSpanningTreeCpu(x, n, d, metric, ...): equal
/// edges on distinct distances, weights equal to metricDistance bit for bit; with ties it is still a
/// minimum spanning tree). Borůvka (1926) rounds on cached k-nearest-neighbour lists: one tiled pass
/// pruned by kd-tree tile balls gives every point its 16 nearest points, and later rounds scan only
/// the points whose nearest point of another component is not yet certain; floats screen, doubles
/// decide (ties by (w, min(u,v), max(u,v))). Device memory O(N·D): at most about 13·N·D + 200·N
/// bytes (392 MB at 1M x 14). Time O(N² D) in the worst case, about 0.4 all-pairs passes on 1M x 14
/// cytometry-like data. n = 1 gives no edges. Throws InvalidInput (n = 0, d = 0 or > 8192,
/// start >= n, n >= 2^30, cosine with an all-zero row, no CUDA device), NonFiniteInput,
/// OutOfDeviceMemory, CudaError, Cancelled (checked between launches of at most ~50 ms).
std::vector<MstEdge> minimumSpanningTreeCuda(const float* x, std::size_t n, std::size_t d, Metric metric,
                                             JobControl* control = nullptr, std::size_t start = 0);

/// farthestPairCpu on the GPU: the pair (i, j), i < j, of largest distance, ties the lexicographically
/// smallest. One screening pass over the tile pairs that can reach a far pair found by two sweeps,
/// then exact double values for every pair of the candidate rows within rounding of the best lower
/// bound. Device memory O(N·D); time O(N² D) worst case, a few per cent of an all-pairs pass on
/// clustered data. Throws like minimumSpanningTreeCuda (n < 2 is InvalidInput).
std::pair<std::size_t, std::size_t> farthestPairCuda(const float* x, std::size_t n, std::size_t d, Metric metric,
                                                     JobControl* control = nullptr);

/// farthestPairCuda followed by minimumSpanningTreeCuda from the pair's first point, sharing one
/// prepared point set (the kd layout and its upload are built once instead of twice: ~0.12 s at
/// 1M×14). Returns (start, the edges in Prim order from start). Same results and throws. `trace`:
/// when not null, receives a line on the passes (rounds, scans, tile pairs, times).
std::pair<std::size_t, std::vector<MstEdge>> vatTreeCuda(const float* x, std::size_t n, std::size_t d, Metric metric,
                                                         JobControl* control = nullptr, std::string* trace = nullptr);

/// Holds a VatRenderSource on the device (n·d floats + the range-max table + the cuts as float:
/// 4·n·(d + floor(log2 n) + 2) bytes) and renders viewports with one kernel launch, one thread per
/// pixel, same pixel rules and bits as renderVatViewportCpu: O(width·height·D) for VAT (times up to 16
/// for block means), O(width·height) for iVAT (two table lookups per pixel).
class VatDeviceRenderer {
public:
    /// Uploads the source. Throws OutOfDeviceMemory, CudaError, InvalidInput (no CUDA device).
    explicit VatDeviceRenderer(const VatRenderSource& source);
    ~VatDeviceRenderer();
    VatDeviceRenderer(const VatDeviceRenderer&) = delete;
    VatDeviceRenderer& operator=(const VatDeviceRenderer&) = delete;

    /// Renders into device memory holding width·height floats (row-major, top row first), on the
    /// calling thread's default stream (cudaStreamPerThread, which orders after work on the legacy
    /// default stream), synchronised before returning. deviceOut must be a CUDA device pointer.
    /// Throws InvalidInput for a bad viewport (validateViewport) or an iVAT request without a table.
    void renderToDevice(const VatViewport& viewport, float* deviceOut);
    /// Same image copied to host memory (out: width·height floats).
    void renderToHost(const VatViewport& viewport, float* out);
    /// Kernel time of the last render call in milliseconds (CUDA events around the launch).
    double lastKernelMilliseconds() const;
    /// Device memory held (source and renderToHost's staging image).
    std::size_t deviceBytes() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace clusterlens
