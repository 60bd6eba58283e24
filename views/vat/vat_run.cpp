#include "vat/vat_run.hpp"

#include <QElapsedTimer>

#include <algorithm>

#include "clusterlens/errors.hpp"
#include "clusterlens/vat/sampled_vat.hpp"
#include "clusterlens/vat/viewport.hpp"
#include "dpc/dpc_run.hpp"
#include "populations/run_on_choice.hpp"
#include "vat/vat_frame_renderer.hpp"

namespace clusterlens::views {

namespace {

/// Completes `run` with the render source of `vat` over the points `x` (n x columns, row-major), on the
/// CUDA device when `onDevice` and one is usable (a fallback's warning goes to `control`), and the ranks.
VatRun withRenderer(VatRun run, std::shared_ptr<const VatResult> vat, const std::vector<float>& x, bool onDevice,
                    JobControl* control) {
    QElapsedTimer clock;
    clock.start();
    const std::size_t d = run.request.columns.size();
    auto source = std::make_shared<const VatRenderSource>(makeVatRenderSource(*vat, x.data(), d));
    run.renderer = VatFrameRenderer::create(std::move(source), onDevice, control);
    run.rank.assign(vat->n, 0);
    for (std::size_t p = 0; p < vat->order.size(); ++p)
        run.rank[static_cast<std::size_t>(vat->order[p])] = static_cast<std::int64_t>(p);
    run.secondsSource = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    run.vat = std::move(vat);
    return run;
}

}  // namespace

VatRun computeVatRun(const VatRequest& request, JobControl& control) {
    if (!request.dataset) throw InvalidInput("Open a dataset before computing the VAT image.");
    if (request.columns.empty()) throw InvalidInput("The VAT image needs at least one active feature.");
    const std::vector<float> x = featureMatrix(*request.dataset, request.columns);
    const std::size_t n = request.dataset->n, d = request.columns.size();
    VatRun run;
    run.request = request;
    VatOptions options;
    options.metric = request.metric;
    options.backend = request.backend;
    auto vat = std::make_shared<VatResult>(computeVat(x.data(), n, d, options, &control));
    run.backend = QString::fromStdString(vat->backend);
    control.checkCancelled();
    return withRenderer(std::move(run), std::move(vat), x, request.backend != Backend::Cpu, &control);
}

VatRun computeSampledVatRun(const VatRequest& request, const ResultScope& scope, std::size_t sampleSize,
                            JobControl& control) {
    if (!request.dataset) throw InvalidInput("Open a dataset before computing the VAT image.");
    if (request.columns.empty()) throw InvalidInput("The VAT image needs at least one active feature.");
    const auto events = scopedDataset(request.dataset, scope);
    const std::vector<float> x = featureMatrix(*events, request.columns);
    SampledVatOptions options;
    options.sampleSize = sampleSize;
    const std::vector<std::int64_t> sample =
        sVatSample(x.data(), events->n, request.columns.size(), request.metric, options, &control);
    auto members = std::make_shared<IndexVector>();
    for (std::int64_t p : sample) members->push_back(scope.isAll() ? p : (*scope.members)[static_cast<std::size_t>(p)]);
    const ResultScope sampled{scope.population, std::move(members)};
    control.setProgress(0.0);
    VatRun run = runOnScope<VatRun>(request, sampled, [&](const VatRequest& r) { return computeVatRun(r, control); });
    run.sampledFrom = events->n;
    return run;
}

VatRun storedVatRun(const VatRequest& request, std::shared_ptr<const VatResult> vat) {
    if (!request.dataset || !vat || vat->n != request.dataset->n)
        throw InvalidInput("The stored VAT order does not describe the points shown.");
    if (request.columns.empty()) throw InvalidInput("The stored VAT order names no feature of the data.");
    VatRun run;
    run.request = request;
    run.backend = QStringLiteral("stored");
    return withRenderer(std::move(run), std::move(vat), featureMatrix(*request.dataset, request.columns), false,
                        nullptr);
}

std::vector<std::int64_t> indicesAtPositions(const VatResult& vat, std::size_t first, std::size_t last) {
    if (vat.order.empty() || first > last) return {};
    last = std::min(last, vat.order.size() - 1);
    std::vector<std::int64_t> indices(vat.order.begin() + static_cast<std::ptrdiff_t>(first),
                                      vat.order.begin() + static_cast<std::ptrdiff_t>(last) + 1);
    std::sort(indices.begin(), indices.end());
    return indices;
}

std::vector<std::int64_t> positionsOfIndices(const std::vector<std::int64_t>& rank,
                                             const std::vector<std::int64_t>& indices) {
    std::vector<std::uint8_t> marked(rank.size(), 0);
    std::size_t count = 0;
    for (std::int64_t i : indices) {
        if (i < 0 || static_cast<std::size_t>(i) >= rank.size()) continue;
        std::uint8_t& flag = marked[static_cast<std::size_t>(rank[static_cast<std::size_t>(i)])];
        count += flag ? 0 : 1;
        flag = 1;
    }
    std::vector<std::int64_t> positions;
    positions.reserve(count);
    for (std::size_t p = 0; p < marked.size(); ++p)
        if (marked[p]) positions.push_back(static_cast<std::int64_t>(p));
    return positions;
}

}  // namespace clusterlens::views
