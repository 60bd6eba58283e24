// VAT benchmark cases on the CPU: the exact VAT order of cytometry-like data, and viewport renders of
// 2048² pixels at N = 1M (DESIGN.md target: <= 100 ms on the CPU). The render source at 1M comes from
// a synthetic order (points grouped by population, cuts = distances of neighbours in that order), not
// from an O(N²) CPU spanning tree: rendering cost depends on N, D and the pixel count only.

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

#include "bench_registry.hpp"
#include "clusterlens/vat/vat.hpp"
#include "clusterlens/vat/viewport.hpp"

namespace {

using clusterlens::bench::BenchCase;
using clusterlens::bench::cytometryData;
using clusterlens::bench::Registry;
using clusterlens::bench::shortCount;

constexpr std::size_t kRenderN = 1000000;
constexpr std::size_t kRenderD = 14;
constexpr int kSide = 2048;

const clusterlens::VatRenderSource& renderSource() {
    static std::unique_ptr<clusterlens::VatRenderSource> source;
    if (!source) {
        const clusterlens::Dataset& data = cytometryData(kRenderN, kRenderD);
        clusterlens::VatResult vat;
        vat.n = kRenderN;
        vat.order.resize(kRenderN);
        std::iota(vat.order.begin(), vat.order.end(), std::int64_t{0});
        std::stable_sort(vat.order.begin(), vat.order.end(),
                         [&](std::int64_t a, std::int64_t b) { return data.labels[a] < data.labels[b]; });
        vat.cut.assign(kRenderN, 0.0);
        for (std::size_t k = 1; k < kRenderN; ++k)
            vat.cut[k] =
                clusterlens::metricDistance(&data.values[static_cast<std::size_t>(vat.order[k - 1]) * kRenderD],
                                            &data.values[static_cast<std::size_t>(vat.order[k]) * kRenderD], kRenderD,
                                            clusterlens::Metric::Euclidean);
        source = std::make_unique<clusterlens::VatRenderSource>(
            clusterlens::makeVatRenderSource(vat, data.values.data(), kRenderD));
    }
    return *source;
}

void addRender(Registry& registry, const std::string& name, clusterlens::VatViewport viewport) {
    registry.add(BenchCase{name + " 2048^2 at " + shortCount(kRenderN) + "x" + std::to_string(kRenderD), "cpu",
                           kRenderN, kRenderD,
                           [viewport] {
                               static std::vector<float> image(static_cast<std::size_t>(kSide) * kSide);
                               clusterlens::renderVatViewportCpu(renderSource(), viewport, image.data());
                           },
                           [] { renderSource(); }, 1, 0});
}

const clusterlens::bench::Registrar registrar([](Registry& registry) {
    const std::size_t n = 20000, d = 14;
    registry.add(BenchCase{"vat order " + shortCount(n) + "x" + std::to_string(d), "cpu", n, d,
                           [n, d] {
                               const clusterlens::Dataset& data = cytometryData(n, d);
                               clusterlens::VatOptions options;
                               options.backend = clusterlens::Backend::Cpu;
                               clusterlens::computeVat(data.values.data(), n, d, options);
                           },
                           [n, d] { cytometryData(n, d); }, 0, 3});
    const double all = static_cast<double>(kRenderN);
    using clusterlens::VatImageKind;
    using clusterlens::VatPixelMode;
    addRender(registry, "vat render whole",
              {0.0, all, 0.0, all, kSide, kSide, VatImageKind::Vat, VatPixelMode::Representative});
    addRender(registry, "vat render off-diagonal",
              {0.0, all / 2, all / 2, all, kSide, kSide, VatImageKind::Vat, VatPixelMode::Representative});
    addRender(registry, "vat render block-mean",
              {0.0, all, 0.0, all, kSide, kSide, VatImageKind::Vat, VatPixelMode::BlockMean});
    addRender(registry, "ivat render whole",
              {0.0, all, 0.0, all, kSide, kSide, VatImageKind::Ivat, VatPixelMode::Representative});
});

}  // namespace
