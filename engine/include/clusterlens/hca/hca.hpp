#pragma once
// One entry point for every hierarchical clustering of a dataset, choosing the CPU or CUDA
// implementation by backend. Used by the CLI (`hca`) and the GUI's clustering jobs.

#include <cstddef>
#include <cstdint>

#include "clusterlens/backend.hpp"
#include "clusterlens/dataset.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

struct HcaRequest {
    bool mahalanobis = true;                      ///< MHCA when true, else `method`
    LinkageMethod method = LinkageMethod::Average;
    MhcaOptions mhca;                             ///< variant, threshold, sub-threshold mode, normalize, apriori
    std::size_t aprioriKMeans = 0;                ///< > 0: apriori groups from k-means with this K (MHCA only)
    std::uint64_t seed = 1;                       ///< k-means seed
};

/// The backend runHca really uses: classic linkages other than single, centroid and ward run on the
/// CPU even when `backend` is Cuda.
Backend hcaBackend(const HcaRequest& request, Backend backend);

/// Clusters data.n points. `backend` must be resolved (Cpu or Cuda). MHCA runs in double
/// precision on Dataset::valuesAsDouble(); classic linkages on the float values.
/// Throws InvalidInput on bad options (k > N, apriori length), Cancelled when cancelled.
Linkage runHca(const Dataset& data, const HcaRequest& request, Backend backend, JobControl* control = nullptr);

} // namespace clusterlens
