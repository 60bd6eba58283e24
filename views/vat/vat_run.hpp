#pragma once
// The VAT job of the VAT view: the request the panel hands to the job runner (the dataset, its active
// feature columns, the metric and the backend) and the immutable result that comes back: the VAT order
// and cuts, what the viewport renderer reads, and the position of every point in the order.

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "analysis_session.hpp"
#include "clusterlens/backend.hpp"
#include "clusterlens/dataset.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/vat.hpp"

namespace clusterlens::views {

class VatFrameRenderer;

struct VatRequest {
    std::shared_ptr<const Dataset> dataset;
    std::vector<std::size_t> columns;  ///< the active features, in the panel's order
    Metric metric = Metric::Euclidean;
    Backend backend = Backend::Auto;
};

struct VatRun {
    /// request.dataset holds the scope's events only (a population's members, in member order); the
    /// order, cuts and ranks count positions among them.
    VatRequest request;
    ResultScope scope;
    std::shared_ptr<const VatResult> vat;
    /// Renders viewports of this run (on the CUDA device when the run used it and one is present).
    std::shared_ptr<const VatFrameRenderer> renderer;
    std::vector<std::int64_t> rank;  ///< rank[index] = position of point `index` in the VAT order
    QString backend;                 ///< backendDescription() of the backend that computed the order
    double secondsSource = 0.0;      ///< ordered copy of the points and the iVAT range-max table
    /// > 0: a sampled VAT (sVAT) of that many events; scope.members are the sampled ones.
    std::size_t sampledFrom = 0;

    std::size_t n() const { return vat ? vat->n : 0; }
};

/// VAT order of the request's points (computeVat on the resolved backend), the render source and
/// the ranks. Progress: the order is most of the work. Throws what the engine throws (InvalidInput,
/// NonFiniteInput, OutOfDeviceMemory, CudaError, Cancelled).
VatRun computeVatRun(const VatRequest& request, JobControl& control);

/// A sampled VAT (clusterlens/vat/sampled_vat.hpp): the sVAT sample of `sampleSize` of the events of
/// `scope` (seed 1, min(50, sampleSize) maximin groups) on the active columns, then computeVatRun on
/// the sample. The run's scope keeps the population's name and holds the sampled events (whole-dataset
/// indices, ascending); sampledFrom is the scope's event count. Throws what computeVatRun and
/// sVatSample throw (InvalidInput for a sample larger than the events).
VatRun computeSampledVatRun(const VatRequest& request, const ResultScope& scope, std::size_t sampleSize,
                            JobControl& control);

/// A run from a VAT order computed before (a session's): the render source and the ranks of `vat`
/// (order and cut over the request's n points) on the host. O(N·D + N log N). Throws InvalidInput
/// when the order does not fit the request's dataset.
VatRun storedVatRun(const VatRequest& request, std::shared_ptr<const VatResult> vat);

/// The point indices at positions [first, last] of the order, ascending. O(m log m), m = last-first+1.
std::vector<std::int64_t> indicesAtPositions(const VatResult& vat, std::size_t first, std::size_t last);

/// Positions of the given point indices (any order, each < rank.size()), ascending, without
/// duplicates. O(N) with a flag per position, so a selection of 10⁶ points costs milliseconds.
std::vector<std::int64_t> positionsOfIndices(const std::vector<std::int64_t>& rank,
                                             const std::vector<std::int64_t>& indices);

}  // namespace clusterlens::views
