#pragma once
// k-means: greedy k-means++ seeding (Arthur & Vassilvitskii 2007, with 2 + ln k candidates per
// centre as scikit-learn) and Lloyd iterations (Lloyd 1982) with a multithreaded assignment step.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

struct KMeansOptions {
    std::size_t k = 0;                ///< number of clusters, 1 <= k <= n
    std::uint64_t seed = 1;           ///< std::mt19937_64 seed of the k-means++ draws
    std::size_t maxIterations = 300;  ///< Lloyd update steps at most
    /// Stop when the summed squared centroid shift of one update is at most tolerance times the
    /// mean per-feature variance of the data (scikit-learn's convention); 0 waits for stable labels.
    double tolerance = 1e-6;
    /// CUDA only: the devices the points are spread over (parseGpus gives them for --gpus all|N; a
    /// device may repeat); empty: the current device alone. The result is the same bit for bit on any
    /// number of devices. The CPU ignores it.
    std::vector<int> cudaDevices;
};

struct KMeansResult {
    std::vector<std::int32_t> labels;    ///< n labels in 0..k-1, each the nearest centroid (ties: lower label)
    std::vector<double> centroids;       ///< k*d, row-major
    double inertia = 0.0;                ///< sum of squared distances of the points to their centroids
    std::size_t iterations = 0;          ///< Lloyd update steps done
    bool converged = false;              ///< labels stable or shift below tolerance before maxIterations
    std::size_t emptyClusters = 0;       ///< clusters without points at the end (only with < k distinct points)
    std::vector<double> inertiaHistory;  ///< inertia after the seeding and after each update: non-increasing
};

/// Clusters n points x d features (row-major) into k groups. Squared distances are accumulated
/// in double. Reproducible: the same input and options give the same result whatever the thread
/// count. An empty cluster takes the point farthest from its centroid (among clusters with more
/// than one point). Time O(n k d) per iteration, memory O(n + k d).
/// Throws InvalidInput naming -k (k = 0, k > n), InvalidInput (n = 0, d = 0), NonFiniteInput, Cancelled.
KMeansResult kmeansCpu(const float* x, std::size_t n, std::size_t d, const KMeansOptions& options,
                       JobControl* control = nullptr);
KMeansResult kmeansCpu(const double* x, std::size_t n, std::size_t d, const KMeansOptions& options,
                       JobControl* control = nullptr);

/// kmeansCpu or kmeansCuda by `backend` (Auto: CUDA when usable), with the GPU fault handling that
/// Computed in backend.hpp describes. Throws what the chosen implementation throws.
Computed<KMeansResult> kmeans(const float* x, std::size_t n, std::size_t d, const KMeansOptions& options,
                              Backend backend, JobControl* control = nullptr);

}  // namespace clusterlens
