#include "dpc/dpc_run.hpp"

#include <utility>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"

namespace clusterlens::views {

std::vector<float> featureMatrix(const Dataset& dataset, const std::vector<std::size_t>& columns) {
    const std::size_t d = columns.size();
    std::vector<float> x(dataset.n * d);
    for (std::size_t i = 0; i < dataset.n; ++i)
        for (std::size_t j = 0; j < d; ++j) x[i * d + j] = dataset.values[i * dataset.d + columns[j]];
    return x;
}

DpcRun computeDpcRun(const DpcRequest& request, JobControl& control) {
    if (!request.dataset) throw InvalidInput("Open a dataset before running density peaks.");
    if (request.columns.empty()) throw InvalidInput("Density peaks needs at least one active feature.");
    const std::vector<float> x = featureMatrix(*request.dataset, request.columns);
    const std::size_t n = request.dataset->n, d = request.columns.size();
    DensityPeaksOptions options = request.options;
    options.cudaDevices = everyGpu(request.backend);
    Computed<DensityPeaksResult> computed = densityPeaks(x.data(), n, d, options, request.backend, &control);
    DpcRun run;
    run.request = request;
    run.backend = QString::fromStdString(backendDescription(computed.backend));
    run.result = std::make_shared<const DensityPeaksResult>(std::move(computed.result));
    return run;
}

std::vector<std::int32_t> runHalo(const DpcRun& run, const std::vector<std::int32_t>& labels, JobControl& control) {
    const std::vector<float> x = featureMatrix(*run.request.dataset, run.request.columns);
    const std::size_t n = run.request.dataset->n, d = run.request.columns.size();
    return applyHalo(x.data(), n, d, *run.result, labels, run.result->dc.value, run.request.backend, &control,
                     everyGpu(run.request.backend))
        .result;
}

QString describeDc(const DcChoice& dc) {
    const QString value = QString::number(dc.value, 'g', 4);
    if (dc.method == "user") return QStringLiteral("dc = %1 (given)").arg(value);
    return QStringLiteral("dc = %1 (%2 % quantile of pairwise distances, %3)")
        .arg(value, QString::number(dc.percent, 'g', 3), QString::fromStdString(dc.method));
}

}  // namespace clusterlens::views
