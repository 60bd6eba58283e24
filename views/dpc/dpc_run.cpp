#include "dpc/dpc_run.hpp"

#include "clusterlens/errors.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/density_peaks_cuda.hpp"
#endif

namespace clusterlens::views {

std::vector<float> featureMatrix(const Dataset& dataset, const std::vector<std::size_t>& columns) {
    const std::size_t d = columns.size();
    std::vector<float> x(dataset.n * d);
    for (std::size_t i = 0; i < dataset.n; ++i)
        for (std::size_t j = 0; j < d; ++j) x[i * d + j] = dataset.values[i * dataset.d + columns[j]];
    return x;
}

DpcRun runDpc(const DpcRequest& request, JobControl& control) {
    if (!request.dataset) throw InvalidInput("Open a dataset before running density peaks.");
    if (request.columns.empty()) throw InvalidInput("Density peaks needs at least one active feature.");
    const std::vector<float> x = featureMatrix(*request.dataset, request.columns);
    const std::size_t n = request.dataset->n, d = request.columns.size();
    const Backend backend = resolveBackend(request.backend);
    DpcRun run;
    run.request = request;
    run.backend = QString::fromStdString(backendDescription(backend));
#ifdef CLUSTERLENS_HAVE_CUDA
    if (backend == Backend::Cuda) {
        run.result = std::make_shared<const DensityPeaksResult>(
            densityPeaksCuda(x.data(), n, d, request.options, &control));
        return run;
    }
#endif
    run.result = std::make_shared<const DensityPeaksResult>(densityPeaksCpu(x.data(), n, d, request.options, &control));
    return run;
}

std::vector<std::int32_t> runHalo(const DpcRun& run, const std::vector<std::int32_t>& labels, JobControl& control) {
    const std::vector<float> x = featureMatrix(*run.request.dataset, run.request.columns);
    const std::size_t n = run.request.dataset->n, d = run.request.columns.size();
#ifdef CLUSTERLENS_HAVE_CUDA
    if (resolveBackend(run.request.backend) == Backend::Cuda)
        return applyHaloCuda(x.data(), n, d, *run.result, labels, run.result->dc.value, &control);
#endif
    return applyHalo(x.data(), n, d, *run.result, labels, run.result->dc.value, &control);
}

QString describeDc(const DcChoice& dc) {
    const QString value = QString::number(dc.value, 'g', 4);
    if (dc.method == "user") return QStringLiteral("dc = %1 (given)").arg(value);
    return QStringLiteral("dc = %1 (%2 % quantile of pairwise distances, %3)")
        .arg(value, QString::number(dc.percent, 'g', 3), QString::fromStdString(dc.method));
}

}  // namespace clusterlens::views
