#pragma once
// The agglomeration loop of mhclust.c (tsieger/mhca, src/mhclust.c, mhclust_'s main loop) over a set
// of clusters, with a nearest-neighbour array instead of mhca's packed distance matrix.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/job_control.hpp"
#include "mhca_clusters.hpp"
#include "mhca_parallel.hpp"

namespace clusterlens::mhca {

struct AgglomerationParams {
    MhcaVariant variant = MhcaVariant::Full;
    SubthresholdMode subthreshold = SubthresholdMode::Mahal;
    bool normalize = false;
    double threshold = 0.5;
    std::size_t nFull = 0;        ///< size of the whole dataset (the threshold is threshold·nFull)
    std::int64_t firstNewId = 0;  ///< id of the cluster made by the first merge of this run
};

/// Progress over all merges of one mhcaCpu call, and its cancellation point.
class ProgressTracker {
public:
    ProgressTracker(JobControl* control, std::size_t totalMerges) : m_control(control), m_total(totalMerges) {}
    /// A tracker for one of several runs side by side: it checks for cancellation and counts its
    /// merges, but reports no progress (the caller adds its count to the shared tracker).
    static ProgressTracker cancelOnly(JobControl* control) {
        ProgressTracker t(control, 0);
        t.m_reports = false;
        return t;
    }
    void checkCancelled() const {
        if (m_control) m_control->checkCancelled();
    }
    void advance(std::size_t merges = 1) {
        m_done += merges;
        if (m_control && m_reports)
            m_control->setProgress(m_total ? static_cast<double>(m_done) / static_cast<double>(m_total) : 1.0);
    }
    JobControl* control() const { return m_control; }

private:
    JobControl* m_control;
    std::size_t m_total;
    std::size_t m_done = 0;
    bool m_reports = true;
};

/// Merges the clusters in `liveSlots` (ascending slot = mhca's list order) until one is left, appending
/// one Merge per step with ids firstNewId, firstNewId+1, ... The distances of the initial clusters are
/// computed with each slot's DistanceMode (ClusterSet::setStamp). Clusters of at least threshold·nFull
/// points count as reaching the threshold from the start; later, a cluster counts when its weight is 1,
/// as mhclust.c's fullMahalClusterCount bookkeeping does. Complexity: see mhcaCpu.
void agglomerate(ClusterSet& clusters, std::vector<std::int32_t> liveSlots, const AgglomerationParams& params,
                 WorkerPool& pool, ProgressTracker& progress, std::vector<Merge>& merges);

}  // namespace clusterlens::mhca
