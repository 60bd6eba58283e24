#pragma once
// The GPU side of one k-means run (kmeans.cu drives it): the points on one device, or spread over
// several. Each part assigns a contiguous range of the points on its device; the ranges begin on whole
// blocks of kKMeansThreads points, so every block total (potential, inertia, changed labels) is the one
// a single device computes, and the totals are summed on the host in block order: the same bits on any
// number of devices. The first part also holds every point and every label for the update step's sums
// (kmeans_cluster_sums.cuh), which then follow the same order as on one device; the other parts' labels
// reach it by a peer copy (NVLink where the devices have it) before each update.
//
// One host thread drives every part: each step queues its work on all of them, then collects in
// order, so the devices work at once while the host waits. Parts may share a device (the tests split
// one GPU so).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "clusterlens/cluster/kmeans_cuda.hpp"
#include "cuda/kernels/kmeans_arithmetic.cuh"
#include "cuda/util/pinned_buffer.cuh"

namespace clusterlens::cuda {

class KMeansDevices {
public:
    /// n points x d features (host, row-major) into k clusters, spread over `devices` (empty: the current
    /// device; a device may repeat). `requested`: the assignment asked for, resolved per device (every
    /// path gives the same labels bit for bit); `means`: the per-feature means the products shift by.
    /// Device memory: the first device O(N·D + K·D) as kmeansCuda states, with its part's assignment
    /// buffers; each other device its range's points and assignment buffers, O((N / parts)·D). Host:
    /// N doubles of page-locked memory for the seeding (k > 1).
    KMeansDevices(const float* x, std::size_t n, std::size_t d, std::size_t k, KMeansAssignment requested,
                  const std::vector<double>& means, const std::vector<int>& devices);
    ~KMeansDevices();
    KMeansDevices(const KMeansDevices&) = delete;
    KMeansDevices& operator=(const KMeansDevices&) = delete;

    /// The k-means++ potential against point `centre` (SeedMode as kmeansSeedKernel), its block totals
    /// summed in block order.
    double seed(std::size_t centre, SeedMode mode);
    /// The running sum of every point's squared distance to its closest centre so far (n values), in
    /// point order and rounded as std::partial_sum, so that the draws are kmeansCpu's. The copies from
    /// the devices run in chunks while the host sums the chunks already copied: the sum's dependent chain
    /// (about 1 ns a point) is the floor.
    void cumulativePotential(std::vector<double>& cumulative);

    struct Assignment {
        double inertia = 0.0;
        std::size_t changed = 0;
    };
    /// Assigns every point to the nearest of `centroids` (k x d, host).
    Assignment assign(const std::vector<double>& centroids);

    /// Per-cluster feature sums (k x d) and counts (k) of the current labels.
    void clusterSums(std::vector<double>& sums, std::vector<long long>& counts);

    void copyLabels(std::vector<std::int32_t>& labels);
    void uploadLabels(const std::vector<std::int32_t>& labels);
    void copyDistance(std::vector<double>& distance) const;

    /// Devices the points are spread over, one per part (parts without points are left out).
    std::size_t parts() const noexcept { return m_parts.size(); }

private:
    struct Part;
    /// Frees every part's buffers with its device current.
    void releaseParts() noexcept;
    /// Copies the other parts' labels into the first part's full label array.
    void gatherLabels();

    const float* m_x;
    std::size_t m_n, m_d, m_k;
    PinnedBuffer<double> m_staging;  // the potentials copied for the cumulative sum (k > 1)
    std::vector<std::unique_ptr<Part>> m_parts;
};

}  // namespace clusterlens::cuda
