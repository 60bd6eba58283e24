// Viewport rendering for a VAT computed from a stored dissimilarity matrix: the pixel rules of
// viewport.hpp with the distances read instead of computed.

#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/vat/viewport.hpp"

namespace clusterlens {

void renderVatViewportFromDistances(const double* distances, const VatResult& vat, const VatViewport& v, float* out) {
    const std::size_t n = vat.n;
    validateViewport(v, n);
    if (vat.order.size() != n || vat.cut.size() != n)
        throw InvalidInput("VAT result: order and cut must hold one entry per point");
    const bool mean = v.kind == VatImageKind::Vat && v.mode == VatPixelMode::BlockMean;
    const int mr = mean ? viewportSampleCount((v.row1 - v.row0) / v.height) : 1;
    const int mc = mean ? viewportSampleCount((v.col1 - v.col0) / v.width) : 1;
    const RangeMaxTable table = v.kind == VatImageKind::Ivat ? RangeMaxTable(vat.cut) : RangeMaxTable();
    const auto point = [&](std::size_t position) { return static_cast<std::size_t>(vat.order[position]); };
    for (int y = 0; y < v.height; ++y) {
        for (int x = 0; x < v.width; ++x) {
            float& pixel =
                out[static_cast<std::size_t>(y) * static_cast<std::size_t>(v.width) + static_cast<std::size_t>(x)];
            if (v.kind == VatImageKind::Ivat) {
                pixel = static_cast<float>(table.ivat(viewportPosition(v.row0, v.row1, v.height, y, 0, 1, n),
                                                      viewportPosition(v.col0, v.col1, v.width, x, 0, 1, n)));
                continue;
            }
            double sum = 0.0;
            for (int s = 0; s < mr; ++s) {
                const std::size_t i = point(viewportPosition(v.row0, v.row1, v.height, y, s, mr, n));
                for (int t = 0; t < mc; ++t)
                    sum += distances[i * n + point(viewportPosition(v.col0, v.col1, v.width, x, t, mc, n))];
            }
            pixel = static_cast<float>(sum / (static_cast<double>(mr) * static_cast<double>(mc)));
        }
    }
}

}  // namespace clusterlens
