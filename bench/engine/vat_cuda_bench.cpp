// VAT benchmark cases: VAT order + iVAT table (computeVat on the GPU, then the range-max table) for
// cytometry-like data of 100K x 14, 1M x 14 and 1M x 39, a 20K x 14 case on both backends, and the
// viewport renderer at 2048 x 2048 (VAT representatives, VAT block means, iVAT) over the 1M x 14 VAT.
// Every VAT run prints "[vat stages]" to stderr (tree = farthest pair + spanning tree, Prim walk,
// table) and the engine's own "[vat trace]" lines (prepare / k-NN / rounds / scans, all-pairs passes);
// render runs print the kernel time measured with CUDA events. The compute floor of one all-pairs
// pass is 2·N²·D flops at the FP32 rate; the trace's pass count times it is this run's floor.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "clusterlens/vat/range_max.hpp"
#include "clusterlens/vat/vat.hpp"
#include "clusterlens/vat/viewport.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include <cuda_runtime.h>

#include "clusterlens/vat/vat_cuda.hpp"
#endif

namespace {

using clusterlens::Backend;
using clusterlens::VatOptions;
using clusterlens::VatResult;
using clusterlens::bench::BenchCase;
using clusterlens::bench::cytometryData;
using clusterlens::bench::Registry;
using clusterlens::bench::shortCount;

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// computeVat + the iVAT range-max table, with the stages on stderr.
VatResult vatWithTable(std::size_t n, std::size_t d, Backend backend, const std::string& workload) {
    const clusterlens::Dataset& data = cytometryData(n, d);
    VatOptions options;
    options.backend = backend;
    options.trace = Registry::instance().profile();
    const VatResult r = clusterlens::computeVat(data.values.data(), n, d, options);
    if (!r.trace.empty()) std::fprintf(stderr, "\n%s", r.trace.c_str());
    const auto clock = std::chrono::steady_clock::now();
    const clusterlens::RangeMaxTable table(r.cut);
    const double tableSeconds = secondsSince(clock);
    const double floorPass = 2.0 * double(n) * double(n) * double(d) / 51e12;
    std::fprintf(stderr,
                 "\n[vat stages] %s [%s]: tree %.4f s (farthest pair + spanning tree), Prim walk %.4f s, "
                 "iVAT table %.4f s (%zu levels); one all-pairs pass floor at 51 TFLOP/s: %.3f s\n",
                 workload.c_str(), r.backend.c_str(), r.secondsTree, r.secondsOrder, tableSeconds, table.levels(),
                 floorPass);
    return r;
}

void addVat(Registry& registry, std::size_t n, std::size_t d, const std::string& backend, int maxRepeat) {
    const std::string workload = "vat order+ivat " + shortCount(n) + "x" + std::to_string(d);
    const Backend b = backend == "cuda" ? Backend::Cuda : Backend::Cpu;
    registry.add(BenchCase{workload, backend, n, d, [=] { vatWithTable(n, d, b, workload); },
                           [=] { cytometryData(n, d); }, 1, maxRepeat});
}

#ifdef CLUSTERLENS_HAVE_CUDA

/// The renderer of the 1M x 14 VAT and a device image of 2048 x 2048 floats, made once.
struct RenderFixture {
    clusterlens::VatRenderSource source;
    std::unique_ptr<clusterlens::VatDeviceRenderer> renderer;
    float* d_image = nullptr;
};

RenderFixture& renderFixture() {
    static RenderFixture fixture;
    if (!fixture.renderer) {
        const std::size_t n = 1000000, d = 14;
        const VatResult vat = vatWithTable(n, d, Backend::Cuda, "render fixture 1Mx14");
        fixture.source = clusterlens::makeVatRenderSource(vat, cytometryData(n, d).values.data(), d);
        fixture.renderer = std::make_unique<clusterlens::VatDeviceRenderer>(fixture.source);
        if (cudaMalloc(reinterpret_cast<void**>(&fixture.d_image), 2048ull * 2048ull * sizeof(float)) != cudaSuccess) {
            std::fprintf(stderr, "vat render bench: cudaMalloc failed\n");
            std::exit(1);
        }
    }
    return fixture;
}

void addRender(Registry& registry, const std::string& name, clusterlens::VatViewport viewport) {
    const std::string workload = "vat render 2048^2 " + name + " (1Mx14)";
    registry.add(BenchCase{workload, "cuda", 2048 * 2048, 14,
                           [=] {
                               RenderFixture& f = renderFixture();
                               f.renderer->renderToDevice(viewport, f.d_image);
                               std::fprintf(stderr, "\n[vat render] %s: kernel %.4f ms (CUDA events)\n",
                                            workload.c_str(), f.renderer->lastKernelMilliseconds());
                           },
                           [] { renderFixture(); }, 3, 0});
}

#endif

const clusterlens::bench::Registrar registrar([](Registry& registry) {
    addVat(registry, 20000, 14, "cpu", 3);
#ifdef CLUSTERLENS_HAVE_CUDA
    addVat(registry, 20000, 14, "cuda", 0);
    addVat(registry, 100000, 14, "cuda", 0);
    addVat(registry, 1000000, 14, "cuda", 3);
    addVat(registry, 1000000, 39, "cuda", 3);
    using clusterlens::VatImageKind;
    using clusterlens::VatPixelMode;
    const double n = 1000000.0;
    addRender(registry, "VAT whole", {0, n, 0, n, 2048, 2048, VatImageKind::Vat, VatPixelMode::Representative});
    addRender(registry, "VAT block mean", {0, n, 0, n, 2048, 2048, VatImageKind::Vat, VatPixelMode::BlockMean});
    addRender(registry, "VAT zoom",
              {250000, 252048, 250000, 252048, 2048, 2048, VatImageKind::Vat, VatPixelMode::Representative});
    addRender(registry, "iVAT whole", {0, n, 0, n, 2048, 2048, VatImageKind::Ivat, VatPixelMode::Representative});
#endif
});

}  // namespace
