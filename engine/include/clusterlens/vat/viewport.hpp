#pragma once
// Rendering a window of the (never stored) VAT/iVAT matrix at screen resolution.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/metric.hpp"
#include "clusterlens/vat/range_max.hpp"
#include "clusterlens/vat/vat.hpp"

namespace clusterlens {

enum class VatImageKind { Vat, Ivat };

/// How a pixel that covers a block of positions gets its value (VAT only; iVAT always uses the
/// representatives): the distance of the block's representative points, or the mean of the distances
/// over an evenly spaced sample of up to 4×4 position pairs of the block (rows s = 0..mr-1 by columns
/// t = 0..mc-1 at viewportPosition(..., s, mr) / (..., t, mc), mr = viewportSampleCount(h), mc likewise
/// with w; summed in double row sample by row sample, divided by mr·mc, then rounded to float).
enum class VatPixelMode { Representative, BlockMean };

/// A window of ordered positions, half-open and fractional so zoom is continuous: pixel (x, y) of a
/// width×height image covers rows [row0 + y·h, row0 + (y+1)·h) and columns [col0 + x·w, col0 + (x+1)·w)
/// with h = (row1-row0)/height, w = (col1-col0)/width. Its representative position on an axis is
/// floor of the block centre, clamped to [0, n-1] (exactly viewportPosition(..., 0, 1) below). Image
/// row 0 is the top (smallest row position).
struct VatViewport {
    double row0 = 0.0, row1 = 0.0, col0 = 0.0, col1 = 0.0;
    int width = 0, height = 0;
    VatImageKind kind = VatImageKind::Vat;
    VatPixelMode mode = VatPixelMode::Representative;
};

/// Position of sample s of m on pixel `index` of an axis whose `pixels` pixels cover [start, end), in
/// double exactly as written: floor(start + (index + (s + 0.5) / m) · ((end - start) / pixels)), clamped to
/// [0, n-1]. s = 0 of m = 1 is the block centre, i.e. the representative. constexpr (no std::floor: the
/// argument is >= 0, so truncation is floor) so device code built with --expt-relaxed-constexpr evaluates
/// the very same expression and CPU and GPU pick the same points.
constexpr std::size_t viewportPosition(double start, double end, int pixels, int index, int s, int m, std::size_t n) {
    const double step = (end - start) / static_cast<double>(pixels);
    const double offset = (static_cast<double>(s) + 0.5) / static_cast<double>(m);
    const double at = start + (static_cast<double>(index) + offset) * step;
    if (!(at > 0.0)) return 0;
    if (at >= static_cast<double>(n)) return n - 1;
    return static_cast<std::size_t>(at);
}

/// Samples per axis of a BlockMean pixel covering `step` positions: min(4, max(1, floor(step))).
constexpr int viewportSampleCount(double step) {
    return step >= 4.0 ? 4 : step >= 1.0 ? static_cast<int>(step) : 1;
}

/// Throws InvalidInput naming the field when a viewport is empty, inverted, outside [0, n] or larger
/// than 16384 pixels on a side.
void validateViewport(const VatViewport& viewport, std::size_t n);

/// What the renderers read: points copied into VAT order (n x d, float) and the iVAT range-max table.
/// Memory: n·d floats + the table. Built in O(N·D + N log N).
struct VatRenderSource {
    std::size_t n = 0;
    std::size_t d = 0;
    Metric metric = Metric::Euclidean;
    std::vector<float> ordered;  ///< row k = point order[k]
    RangeMaxTable ivat;
    /// Empty: the rows are in VAT order. Else row k's position in the VAT order, for a source in
    /// another order (makeVatRenderSourceInOrder), whose iVAT pixels look the range maximum up there.
    std::vector<std::uint32_t> vatPosition;
};

VatRenderSource makeVatRenderSource(const VatResult& vat, const float* x, std::size_t d);

/// A source whose rows follow `order` (a permutation of 0..n-1, e.g. a dendrogram's leaf order) instead
/// of the VAT order: VAT pixels are the distances of the points in that order, iVAT pixels the same
/// minimax path distances of the VAT's spanning tree (the range maximum of vat.cut between the two
/// points' VAT positions), so either image is the VAT run's matrix with rows and columns permuted.
/// Renders on the CPU only (VatViewportRenderer keeps such a source there). Memory: makeVatRenderSource
/// + 4 bytes per point. Throws InvalidInput unless `order` is a permutation of the VAT's n points.
VatRenderSource makeVatRenderSourceInOrder(const VatResult& vat, const float* x, std::size_t d,
                                           const std::vector<std::int64_t>& order);

/// Renders the viewport into out (width·height floats, row-major, top row first), values are
/// distances in the metric (pixel distances in float; the iVAT table values rounded to float).
/// Multithreaded over image rows; O(width·height·D) (VAT) or O(width·height) (iVAT).
void renderVatViewportCpu(const VatRenderSource& source, const VatViewport& viewport, float* out,
                          JobControl* control = nullptr);

/// The same pixel rules for a VAT of a user-supplied n x n dissimilarity matrix (row-major, as given
/// to computeVatFromDistances): VAT pixels read the matrix at the sampled positions (rounded to float),
/// iVAT pixels the range maximum of vat.cut. O(N log N + width·height) (up to 16 reads per pixel for
/// BlockMean); single-threaded, meant for the small n a stored matrix allows. Throws InvalidInput like
/// renderVatViewportCpu.
void renderVatViewportFromDistances(const double* distances, const VatResult& vat, const VatViewport& viewport,
                                    float* out);

/// Lower and upper value at the given percentiles (0..100) of an image, for contrast clipping;
/// ignores non-finite values; O(P) with nth_element on a copy (P = pixel count). Percentiles
/// interpolate linearly between the closest ranks, as numpy.percentile does by default; an image
/// without finite values gives (0, 0). Throws InvalidInput unless 0 <= low <= high <= 100.
std::pair<float, float> imagePercentiles(const float* pixels, std::size_t count, double lowPercent, double highPercent);

}  // namespace clusterlens
