#pragma once
// One entry point for every hierarchical clustering of a dataset (MHCA and the classic linkages),
// choosing the CPU or CUDA implementation by backend. Used by the CLI (`hca`) and the GUI's clustering
// jobs.

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
    bool mahalanobis = true;  ///< MHCA when true, else `method`
    LinkageMethod method = LinkageMethod::Average;
    MhcaOptions mhca;               ///< variant, threshold, sub-threshold mode, normalize, apriori
    std::size_t aprioriKMeans = 0;  ///< > 0: apriori groups from k-means with this K (MHCA only)
    std::uint64_t seed = 1;         ///< k-means seed
};

/// Clusters data.n points on `backend` (Auto: CUDA when usable). MHCA runs in double precision on
/// Dataset::valuesAsDouble(), classic linkages on the float values; average, complete, weighted and
/// median linkage exist on the CPU only and run there whatever `backend` says. The result's backend
/// is the one that ran; GPU faults as Computed in backend.hpp says (under Auto a GPU out of memory runs
/// the CPU instead, with a warning). Throws InvalidInput on bad options (k > N, apriori length, CUDA
/// asked for but absent or too small), NonFiniteInput, Cancelled when cancelled.
Computed<Linkage> clusterHierarchically(const Dataset& data, const HcaRequest& request, Backend backend,
                                        JobControl* control = nullptr);

}  // namespace clusterlens
