#pragma once
// The DPC job of the decision graph: the request the panel hands to the job runner (the dataset,
// its active feature columns, the engine options and the backend) and the immutable result that
// comes back (rho, delta, links and how they were computed). The halo pass, an all-pairs job of
// its own, takes the same request.

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "analysis_session.hpp"
#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/dataset.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens::views {

struct DpcRequest {
    std::shared_ptr<const Dataset> dataset;
    std::vector<std::size_t> columns;  ///< the active features, in the panel's order
    DensityPeaksOptions options;
    Backend backend = Backend::Auto;
};

struct DpcRun {
    /// request.dataset holds the scope's events only (a population's members, in member order); every
    /// per-point array of the result and the peak choice count positions among them.
    DpcRequest request;
    ResultScope scope;
    std::shared_ptr<const DensityPeaksResult> result;
    QString backend;  ///< backendDescription() of the backend that ran, e.g. "cpu:16 threads"
};

/// The rows of `dataset` restricted to `columns`, row-major n x columns.size(). O(n·d).
std::vector<float> featureMatrix(const Dataset& dataset, const std::vector<std::size_t>& columns);

/// rho, delta and the nearest-higher links on the request's backend (the engine's densityPeaks: a GPU
/// fallback to the CPU is a warning on `control`). Throws what the engine throws (InvalidInput,
/// NonFiniteInput, Cancelled).
DpcRun computeDpcRun(const DpcRequest& request, JobControl& control);

/// The halo of Rodriguez & Laio on `labels` (border points become -1): one all-pairs pass on the
/// run's backend (the GPU pass gives the CPU's labels), cancellable.
std::vector<std::int32_t> runHalo(const DpcRun& run, const std::vector<std::int32_t>& labels, JobControl& control);

/// "dc = 0.42 (2 % quantile of pairwise distances, exact)" or "dc = 0.5 (given)", for status lines and figure titles.
QString describeDc(const DcChoice& dc);

}  // namespace clusterlens::views
