// Rendering a window of the VAT/iVAT matrix (Bezdek & Hathaway 2002; Havens & Bezdek 2012) on the CPU
// at screen resolution, without the N×N matrix. The pixel rules are those of viewport.hpp; every VAT
// pixel equals float(metricDistance(...)) of its representatives (or their block mean) bit for bit,
// every iVAT pixel float(RangeMaxTable::ivat(...)).

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "clusterlens/errors.hpp"
#include "clusterlens/vat/viewport.hpp"
#include "cpu/thread_pool.hpp"
#include "cpu/vat_distance_block.hpp"

namespace clusterlens {

namespace {

constexpr int kMaxViewportSide = 16384;
constexpr std::size_t kRowsPerTask = 8;

// Sample positions of every pixel on one axis: pixels x samples, pixel-major.
std::vector<std::size_t> axisPositions(double start, double end, int pixels, int samples, std::size_t n) {
    std::vector<std::size_t> positions(static_cast<std::size_t>(pixels) * static_cast<std::size_t>(samples));
    for (int p = 0; p < pixels; ++p)
        for (int s = 0; s < samples; ++s)
            positions[static_cast<std::size_t>(p) * samples + s] =
                viewportPosition(start, end, pixels, p, s, samples, n);
    return positions;
}

// The column points of sample t of every pixel, feature-major (cpu/vat_distance_block.hpp), so a row
// of pixels is d vectorised passes and each pixel's sum is metricDistance's sum.
cpu::FeatureMajorPoints gatherColumns(const VatRenderSource& source, const std::vector<std::size_t>& positions,
                                      int samples, int sample) {
    const std::size_t width = positions.size() / static_cast<std::size_t>(samples);
    std::vector<std::size_t> ids(width);
    for (std::size_t x = 0; x < width; ++x) ids[x] = positions[x * static_cast<std::size_t>(samples) + sample];
    return cpu::FeatureMajorPoints(source.ordered.data(), source.d, ids.data(), width);
}

// Runs rows(y0, y1) over the image rows in tasks of kRowsPerTask, checking for a cancel per task.
template <class Rows>
void forImageRows(cpu::ThreadPool& pool, int height, JobControl* control, Rows&& rows) {
    const std::size_t h = static_cast<std::size_t>(height);
    const std::size_t tasks = (h + kRowsPerTask - 1) / kRowsPerTask;
    pool.run(tasks, [&](std::size_t t) {
        if (control) control->checkCancelled();
        rows(t * kRowsPerTask, std::min(h, (t + 1) * kRowsPerTask));
    });
}

// A window whose rows and columns are the same positions shows a symmetric matrix: only pixels with
// x >= y are computed, the rest copied across the diagonal.
bool symmetricWindow(const VatViewport& v) {
    return v.row0 == v.col0 && v.row1 == v.col1 && v.width == v.height;
}

void mirrorLowerTriangle(cpu::ThreadPool& pool, float* out, std::size_t side) {
    constexpr std::size_t tile = 64;
    const std::size_t tiles = (side + tile - 1) / tile;
    pool.run(tiles, [&](std::size_t ty) {
        for (std::size_t tx = 0; tx <= ty; ++tx)
            for (std::size_t y = ty * tile; y < std::min(side, (ty + 1) * tile); ++y)
                for (std::size_t x = tx * tile; x < std::min(y, (tx + 1) * tile); ++x)
                    out[y * side + x] = out[x * side + y];
    });
}

void renderVat(const VatRenderSource& source, const VatViewport& v, float* out, cpu::ThreadPool& pool,
               JobControl* control) {
    const bool mean = v.mode == VatPixelMode::BlockMean;
    const int mr = mean ? viewportSampleCount((v.row1 - v.row0) / v.height) : 1;
    const int mc = mean ? viewportSampleCount((v.col1 - v.col0) / v.width) : 1;
    const std::vector<std::size_t> rowPos = axisPositions(v.row0, v.row1, v.height, mr, source.n);
    const std::vector<std::size_t> colPos = axisPositions(v.col0, v.col1, v.width, mc, source.n);
    std::vector<cpu::FeatureMajorPoints> cols;
    for (int t = 0; t < mc; ++t) cols.push_back(gatherColumns(source, colPos, mc, t));
    // Mirroring needs d(a, b) == d(b, a) per pixel, true for single distances; a block mean sums its
    // pairs in row-sample order, which transposing would change.
    const bool symmetric = symmetricWindow(v) && mr == 1 && mc == 1;
    const std::size_t width = static_cast<std::size_t>(v.width);
    const double samples = static_cast<double>(mr) * static_cast<double>(mc);
    forImageRows(pool, v.height, control, [&](std::size_t y0, std::size_t y1) {
        std::vector<double> sum(width), dist(width);
        cpu::PointVector probe;
        for (std::size_t y = y0; y < y1; ++y) {
            const std::size_t begin = symmetric ? y : 0;
            float* pixels = out + y * width;
            if (!mean) {
                probe.assign(source.ordered.data() + rowPos[y] * source.d, source.d);
                cols[0].distances(source.metric, probe, begin, width, dist.data() + begin);
                for (std::size_t x = begin; x < width; ++x) pixels[x] = static_cast<float>(dist[x]);
                continue;
            }
            std::fill(sum.begin() + static_cast<std::ptrdiff_t>(begin), sum.end(), 0.0);
            for (int s = 0; s < mr; ++s) {
                probe.assign(source.ordered.data() + rowPos[y * static_cast<std::size_t>(mr) + s] * source.d, source.d);
                for (int t = 0; t < mc; ++t) {
                    cols[t].distances(source.metric, probe, begin, width, dist.data() + begin);
                    for (std::size_t x = begin; x < width; ++x) sum[x] += dist[x];
                }
            }
            for (std::size_t x = begin; x < width; ++x) pixels[x] = static_cast<float>(sum[x] / samples);
        }
    });
    if (symmetric) mirrorLowerTriangle(pool, out, width);
}

// iVAT pixels without a table query per pixel: column representatives ascend with x, so along an
// image row the range max grows by the segment between neighbouring columns; segment maxima are the
// same for every row and queried once.
/// iVAT pixels of a source in another order than the VAT's: one range-max query per pixel between the
/// two points' VAT positions. O(width·height).
void renderIvatReordered(const VatRenderSource& source, const VatViewport& v, float* out, cpu::ThreadPool& pool,
                         JobControl* control) {
    const std::vector<std::size_t> rowPos = axisPositions(v.row0, v.row1, v.height, 1, source.n);
    const std::vector<std::size_t> colPos = axisPositions(v.col0, v.col1, v.width, 1, source.n);
    const std::size_t width = colPos.size();
    forImageRows(pool, v.height, control, [&](std::size_t y0, std::size_t y1) {
        for (std::size_t y = y0; y < y1; ++y) {
            const std::size_t a = source.vatPosition[rowPos[y]];
            for (std::size_t x = 0; x < width; ++x) {
                const std::size_t b = source.vatPosition[colPos[x]];
                out[y * width + x] =
                    a == b ? 0.0f : static_cast<float>(source.ivat.max(std::min(a, b) + 1, std::max(a, b)));
            }
        }
    });
}

void renderIvat(const VatRenderSource& source, const VatViewport& v, float* out, cpu::ThreadPool& pool,
                JobControl* control) {
    if (!source.vatPosition.empty()) return renderIvatReordered(source, v, out, pool, control);
    const RangeMaxTable& table = source.ivat;
    const std::vector<std::size_t> rowPos = axisPositions(v.row0, v.row1, v.height, 1, source.n);
    const std::vector<std::size_t> colPos = axisPositions(v.col0, v.col1, v.width, 1, source.n);
    const std::size_t width = colPos.size();
    // segment[x] = max(cut[colPos[x-1]+1 .. colPos[x]]), -inf when the two columns share a position.
    std::vector<double> segment(width, -std::numeric_limits<double>::infinity());
    for (std::size_t x = 1; x < width; ++x)
        if (colPos[x] > colPos[x - 1]) segment[x] = table.max(colPos[x - 1] + 1, colPos[x]);
    forImageRows(pool, v.height, control, [&](std::size_t y0, std::size_t y1) {
        for (std::size_t y = y0; y < y1; ++y) {
            const std::size_t r = rowPos[y];
            float* pixels = out + y * width;
            const auto firstAtOrAbove = std::lower_bound(colPos.begin(), colPos.end(), r) - colPos.begin();
            const auto firstAbove = std::upper_bound(colPos.begin(), colPos.end(), r) - colPos.begin();
            const auto lo = static_cast<std::size_t>(firstAtOrAbove);
            const auto hi = static_cast<std::size_t>(firstAbove);
            for (std::size_t x = lo; x < hi; ++x) pixels[x] = 0.0f;
            double value = 0.0;
            for (std::size_t x = hi; x < width; ++x) {
                value = x == hi ? table.max(r + 1, colPos[x]) : std::max(value, segment[x]);
                pixels[x] = static_cast<float>(value);
            }
            for (std::size_t x = lo; x-- > 0;) {
                value = x + 1 == lo ? table.max(colPos[x] + 1, r) : std::max(value, segment[x + 1]);
                pixels[x] = static_cast<float>(value);
            }
        }
    });
}

}  // namespace

void validateViewport(const VatViewport& v, std::size_t n) {
    const auto fail = [](const std::string& what) { throw InvalidInput("VAT viewport: " + what); };
    if (n == 0) fail("there are no points to show");
    if (v.width < 1 || v.width > kMaxViewportSide)
        fail("width " + std::to_string(v.width) + " must lie in 1.." + std::to_string(kMaxViewportSide) + " pixels");
    if (v.height < 1 || v.height > kMaxViewportSide)
        fail("height " + std::to_string(v.height) + " must lie in 1.." + std::to_string(kMaxViewportSide) + " pixels");
    const double limit = static_cast<double>(n);
    const auto axis = [&](double lo, double hi, const char* loName, const char* hiName) {
        if (!std::isfinite(lo) || !std::isfinite(hi)) fail(std::string(loName) + "/" + hiName + " must be finite");
        if (lo < 0.0) fail(std::string(loName) + " = " + std::to_string(lo) + " lies before the first position 0");
        if (hi > limit)
            fail(std::string(hiName) + " = " + std::to_string(hi) + " lies past the last position " +
                 std::to_string(n));
        if (!(lo < hi)) fail(std::string(loName) + " must be smaller than " + hiName + " (empty or inverted window)");
    };
    axis(v.row0, v.row1, "row0", "row1");
    axis(v.col0, v.col1, "col0", "col1");
}

VatRenderSource makeVatRenderSource(const VatResult& vat, const float* x, std::size_t d) {
    if (vat.order.size() != vat.n || vat.cut.size() != vat.n)
        throw InvalidInput("VAT result: order and cut must hold one entry per point");
    if (d == 0) throw InvalidInput("VAT image: the points have no features");
    VatRenderSource source;
    source.n = vat.n;
    source.d = d;
    source.metric = vat.metric;
    source.ordered.resize(vat.n * d);
    for (std::size_t k = 0; k < vat.n; ++k) {
        const std::int64_t i = vat.order[k];
        if (i < 0 || static_cast<std::size_t>(i) >= vat.n)
            throw InvalidInput("VAT result: order names a point outside 0.." + std::to_string(vat.n - 1));
        std::copy_n(x + static_cast<std::size_t>(i) * d, d, source.ordered.data() + k * d);
    }
    source.ivat = RangeMaxTable(vat.cut);
    return source;
}

VatRenderSource makeVatRenderSourceInOrder(const VatResult& vat, const float* x, std::size_t d,
                                           const std::vector<std::int64_t>& order) {
    if (order.size() != vat.n)
        throw InvalidInput("VAT image: the order names " + std::to_string(order.size()) + " points, the VAT has " +
                           std::to_string(vat.n));
    VatRenderSource source = makeVatRenderSource(vat, x, d);
    std::vector<std::uint32_t> vatPositionOf(vat.n, 0);  // by point index
    for (std::size_t k = 0; k < vat.n; ++k)
        vatPositionOf[static_cast<std::size_t>(vat.order[k])] = static_cast<std::uint32_t>(k);
    std::vector<char> seen(vat.n, 0);
    source.vatPosition.resize(vat.n);
    for (std::size_t k = 0; k < vat.n; ++k) {
        const std::int64_t i = order[k];
        if (i < 0 || static_cast<std::size_t>(i) >= vat.n || seen[static_cast<std::size_t>(i)])
            throw InvalidInput("VAT image: the order is not a permutation of the points 0.." +
                               std::to_string(vat.n - 1) + " (position " + std::to_string(k) + " names " +
                               std::to_string(i) + ")");
        seen[static_cast<std::size_t>(i)] = 1;
        std::copy_n(x + static_cast<std::size_t>(i) * d, d, source.ordered.data() + k * d);
        source.vatPosition[k] = vatPositionOf[static_cast<std::size_t>(i)];
    }
    return source;
}

void renderVatViewportCpu(const VatRenderSource& source, const VatViewport& viewport, float* out, JobControl* control) {
    validateViewport(viewport, source.n);
    if (source.ordered.size() != source.n * source.d || source.d == 0)
        throw InvalidInput("VAT image: the render source holds no points");
    if (viewport.kind == VatImageKind::Ivat && source.ivat.size() != source.n)
        throw InvalidInput("VAT image: the render source holds no iVAT table");
    cpu::ThreadPool pool;
    if (viewport.kind == VatImageKind::Ivat)
        renderIvat(source, viewport, out, pool, control);
    else
        renderVat(source, viewport, out, pool, control);
    if (control) control->checkCancelled();
}

}  // namespace clusterlens
