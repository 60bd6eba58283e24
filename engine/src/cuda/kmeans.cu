// Host side of the GPU k-means: the k-means++ draws and the bookkeeping of Lloyd's loop run on the
// host exactly as in kmeansCpu; distances, potentials, assignments and centroid sums on the GPU.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "clusterlens/cluster/kmeans_cuda.hpp"
#include "clusterlens/errors.hpp"
#include "cpu/classic_linkage_detail.hpp"
#include "cuda/kernels/kmeans_kernels.cuh"
#include "cuda/kmeans_cluster_sums.cuh"
#include "cuda/kmeans_matrix_assign.cuh"
#include "cuda/kmeans_tile_assign.cuh"
#include "cuda/util/cublas_library.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/device_buffer.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens {
namespace {

using cuda::DeviceBuffer;
using cuda::kKMeansThreads;
using cuda::SeedMode;

constexpr std::size_t kSharedBudget = 40 * 1024;
/// k x d from which Auto assigns through the matrix product (between the measured 64 x 14 and 128 x 39).
constexpr std::size_t kMatrixAssignMinWork = 4096;
/// Centroids from which Auto assigns in tensor-core tiles (the smallest count measured, at 1M x 14).
constexpr std::size_t kTileAssignMinK = 64;

double uniform01(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// Per-feature means, summed in point order.
std::vector<double> featureMeans(const float* x, std::size_t n, std::size_t d) {
    std::vector<double> means(d, 0.0);
    for (std::size_t j = 0; j < d; ++j) {
        for (std::size_t i = 0; i < n; ++i) means[j] += static_cast<double>(x[i * d + j]);
        means[j] /= static_cast<double>(n);
    }
    return means;
}

/// Mean over features of the per-feature variance (divided by n) about `means`, as kmeansCpu scales
/// the tolerance.
double meanVariance(const float* x, std::size_t n, std::size_t d, const std::vector<double>& means) {
    double total = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
        const double mean = means[j];
        double ss = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            const double diff = static_cast<double>(x[i * d + j]) - mean;
            ss += diff * diff;
        }
        total += ss / static_cast<double>(n);
    }
    return total / static_cast<double>(d);
}

class KMeansDevice {
public:
    /// `path`: Kernel, MatrixProduct or TensorTiles; `means`: the per-feature means, which the products
    /// shift by.
    KMeansDevice(const float* x, std::size_t n, std::size_t d, std::size_t k, KMeansAssignment path,
                 const std::vector<double>& means)
        : m_n(static_cast<int>(n)),
          m_d(static_cast<int>(d)),
          m_k(static_cast<int>(k)),
          m_blocks(static_cast<int>((n + kKMeansThreads - 1) / kKMeansThreads)) {
        const cudaStream_t stream = cudaStreamPerThread;
        d_x = DeviceBuffer<float>(n * d, stream);
        d_x.copyFromHost(x, n * d);
        d_closest = DeviceBuffer<double>(n, stream);
        d_blockSums = DeviceBuffer<double>(static_cast<std::size_t>(m_blocks), stream);
        d_blockChanged = DeviceBuffer<int>(static_cast<std::size_t>(m_blocks), stream);
        const std::vector<int> unset(n, -1);
        d_labels = DeviceBuffer<int>(n, stream);
        d_labels.copyFromHost(unset.data(), n);
        d_distance = DeviceBuffer<double>(n, stream);
        d_centroids = DeviceBuffer<double>(k * d, stream);
        m_sharedCentroids = k * d * sizeof(double) <= kSharedBudget;
        m_sums = std::make_unique<cuda::KMeansClusterSums>(d_x.data(), n, d, k, stream);
        if (path == KMeansAssignment::MatrixProduct)
            m_matrix = std::make_unique<cuda::KMeansMatrixAssign>(d_x.data(), n, d, k, means, stream);
        if (path == KMeansAssignment::TensorTiles)
            m_tiles = std::make_unique<cuda::KMeansTileAssign>(d_x.data(), n, d, k, means, stream);
    }

    /// Launches the seeding kernel for candidate `centre`; returns the potential (blocks in order).
    double seed(int centre, SeedMode mode) {
        const std::size_t rowBytes = static_cast<std::size_t>(m_d) * sizeof(double);
        const bool sharedCentre = rowBytes <= kSharedBudget;
        cuda::kmeansSeedKernel<<<static_cast<unsigned>(m_blocks), kKMeansThreads, sharedCentre ? rowBytes : 0,
                                 cudaStreamPerThread>>>(d_x.data(), m_n, m_d, centre, mode, sharedCentre,
                                                        d_closest.data(), d_blockSums.data());
        CL_CUDA_CHECK_LAUNCH();
        return sumBlocks();
    }

    void copyClosest(std::vector<double>& h_closest) const { d_closest.copyToHost(h_closest.data(), h_closest.size()); }

    struct Assignment {
        double inertia = 0.0;
        std::size_t changed = 0;
    };

    Assignment assign(const std::vector<double>& h_centroids) {
        d_centroids.copyFromHost(h_centroids.data(), h_centroids.size());
        if (m_matrix) {
            m_matrix->assign(h_centroids, d_centroids.data(), d_labels.data(), d_distance.data(), d_blockSums.data(),
                             d_blockChanged.data());
        } else if (m_tiles) {
            m_tiles->assign(h_centroids, d_centroids.data(), d_labels.data(), d_distance.data(), d_blockSums.data(),
                            d_blockChanged.data());
        } else {
            const std::size_t shared = m_sharedCentroids ? h_centroids.size() * sizeof(double) : 0;
            cuda::kmeansAssignKernel<<<static_cast<unsigned>(m_blocks), kKMeansThreads, shared, cudaStreamPerThread>>>(
                d_x.data(), m_n, m_d, d_centroids.data(), m_k, m_sharedCentroids, d_labels.data(), d_distance.data(),
                d_blockSums.data(), d_blockChanged.data());
            CL_CUDA_CHECK_LAUNCH();
        }
        Assignment a;
        a.inertia = sumBlocks();
        std::vector<int> changed(static_cast<std::size_t>(m_blocks));
        d_blockChanged.copyToHost(changed.data(), changed.size());
        for (const int c : changed) a.changed += static_cast<std::size_t>(c);
        return a;
    }

    /// Per-cluster feature sums and counts of the current labels.
    void clusterSums(std::vector<double>& h_sums, std::vector<long long>& h_counts) {
        m_sums->compute(d_labels.data(), h_sums, h_counts);
    }

    void copyLabels(std::vector<std::int32_t>& h_labels) const {
        d_labels.copyToHost(reinterpret_cast<int*>(h_labels.data()), h_labels.size());
    }
    void uploadLabels(const std::vector<std::int32_t>& h_labels) {
        d_labels.copyFromHost(reinterpret_cast<const int*>(h_labels.data()), h_labels.size());
    }
    void copyDistance(std::vector<double>& h_distance) const {
        d_distance.copyToHost(h_distance.data(), h_distance.size());
    }

private:
    double sumBlocks() {
        std::vector<double> partial(static_cast<std::size_t>(m_blocks));
        d_blockSums.copyToHost(partial.data(), partial.size());
        double total = 0.0;
        for (const double p : partial) total += p;
        return total;
    }

    int m_n, m_d, m_k;
    int m_blocks;
    bool m_sharedCentroids = false;
    DeviceBuffer<float> d_x;
    DeviceBuffer<double> d_closest;
    DeviceBuffer<double> d_blockSums;
    DeviceBuffer<int> d_blockChanged;
    DeviceBuffer<int> d_labels;
    DeviceBuffer<double> d_distance;
    DeviceBuffer<double> d_centroids;
    std::unique_ptr<cuda::KMeansClusterSums> m_sums;     // the update step's sums
    std::unique_ptr<cuda::KMeansMatrixAssign> m_matrix;  // the assignment through cuBLAS, if chosen
    std::unique_ptr<cuda::KMeansTileAssign> m_tiles;     // the assignment in tensor-core tiles, if chosen
};

/// Greedy k-means++ (Arthur & Vassilvitskii 2007; scikit-learn's greedy variant), step for step as
/// kmeansCpu's seeding: the same draws from `rng`, the cumulative potential summed sequentially on
/// the host from the GPU's squared distances, the best of 2 + floor(ln k) candidates.
std::vector<double> seedPlusPlus(KMeansDevice& device, const float* x, std::size_t n, std::size_t d, std::size_t k,
                                 std::mt19937_64& rng, JobControl* control) {
    std::vector<double> centroids(k * d);
    const auto setCentre = [&](std::size_t c, std::size_t i) {
        for (std::size_t j = 0; j < d; ++j) centroids[c * d + j] = static_cast<double>(x[i * d + j]);
    };
    const auto first = static_cast<std::size_t>(rng() % n);
    setCentre(0, first);
    double potential = device.seed(static_cast<int>(first), SeedMode::Initialise);
    const std::size_t trials = 2 + static_cast<std::size_t>(std::log(static_cast<double>(k)));
    std::vector<double> closest(n), cumulative(n);
    std::vector<std::size_t> candidate(trials);
    std::vector<double> candidatePotential(trials);
    for (std::size_t c = 1; c < k; ++c) {
        if (potential > 0.0) {
            device.copyClosest(closest);
            std::partial_sum(closest.begin(), closest.end(), cumulative.begin());
            for (std::size_t t = 0; t < trials; ++t) {
                const double r = uniform01(rng) * cumulative.back();
                const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), r);
                candidate[t] = std::min<std::size_t>(n - 1, static_cast<std::size_t>(it - cumulative.begin()));
            }
        } else {
            for (std::size_t t = 0; t < trials; ++t) candidate[t] = static_cast<std::size_t>(rng() % n);
        }
        for (std::size_t t = 0; t < trials; ++t)
            candidatePotential[t] = device.seed(static_cast<int>(candidate[t]), SeedMode::Trial);
        const auto best = static_cast<std::size_t>(
            std::min_element(candidatePotential.begin(), candidatePotential.end()) - candidatePotential.begin());
        setCentre(c, candidate[best]);
        potential = device.seed(static_cast<int>(candidate[best]), SeedMode::Update);
        if (control) control->checkCancelled();
    }
    return centroids;
}

/// Update step of kmeansCpu on the GPU's sums: means, and an empty cluster takes the point farthest
/// from its centroid among clusters keeping at least one point. Returns the summed squared shift.
double updateCentroids(KMeansDevice& device, const float* x, std::size_t n, std::size_t d, std::size_t k,
                       std::vector<double>& centroids) {
    std::vector<double> sums(k * d);
    std::vector<long long> counts(k);
    device.clusterSums(sums, counts);
    if (std::find(counts.begin(), counts.end(), 0LL) != counts.end()) {
        std::vector<std::int32_t> labels(n);
        std::vector<double> distance(n);
        device.copyLabels(labels);
        device.copyDistance(distance);
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t l, std::size_t r) { return distance[l] > distance[r]; });
        std::size_t next = 0;
        for (std::size_t c = 0; c < k; ++c) {
            if (counts[c] != 0) continue;
            while (next < n && counts[static_cast<std::size_t>(labels[order[next]])] < 2) ++next;
            if (next == n) break;
            const std::size_t i = order[next++];
            const auto from = static_cast<std::size_t>(labels[i]);
            --counts[from];
            counts[c] = 1;
            for (std::size_t j = 0; j < d; ++j) {
                const double v = static_cast<double>(x[i * d + j]);
                sums[from * d + j] -= v;
                sums[c * d + j] = v;
            }
            labels[i] = static_cast<std::int32_t>(c);
        }
        device.uploadLabels(labels);
    }
    double shift = 0.0;
    for (std::size_t c = 0; c < k; ++c) {
        if (counts[c] == 0) continue;
        for (std::size_t j = 0; j < d; ++j) {
            const double mean = sums[c * d + j] / static_cast<double>(counts[c]);
            const double delta = mean - centroids[c * d + j];
            shift += delta * delta;
            centroids[c * d + j] = mean;
        }
    }
    return shift;
}

/// The assignment `requested` resolves to. Measured on an H200 at 1M points, per Lloyd iteration
/// (docs/benchmarks.md): the tensor tiles were the fastest at every shape measured, from k x d = 64 x 14
/// (0.46 ms, the kernel 0.72) to 1000 x 39 (3.9 ms, cuBLAS 7.6, the kernel 83); the cuBLAS product beat
/// the kernel from 128 x 39 on. Auto takes the tiles from k = 64 where the device has FP64 tensor cores,
/// else cuBLAS from k x d = 4096 where it can be loaded (MatrixProduct then throws CudaError), else the
/// kernel.
KMeansAssignment assignmentPath(KMeansAssignment requested, std::size_t k, std::size_t d) {
    const bool tilesFit = d <= cuda::KMeansTileAssign::kMaxFeatures && cuda::KMeansTileAssign::deviceSupported();
    if (requested == KMeansAssignment::TensorTiles && !tilesFit)
        throw InvalidInput(
            "the tensor-tile k-means assignment needs FP64 tensor cores (compute capability 8.0, 9.0 "
            "or 10.0) and at most 64 features");
    if (requested != KMeansAssignment::Auto) return requested;
    if (tilesFit && k >= kTileAssignMinK) return KMeansAssignment::TensorTiles;
    if (k * d >= kMatrixAssignMinWork && cuda::cublasLibrary() != nullptr) return KMeansAssignment::MatrixProduct;
    return KMeansAssignment::Kernel;
}

}  // namespace

KMeansResult kmeansCuda(const float* x, std::size_t n, std::size_t d, const KMeansOptions& options, JobControl* control,
                        KMeansAssignment assignment) {
    if (options.k == 0) throw InvalidInput("-k must be at least 1");
    cpu::checkPoints(x, n, d, 1, "k-means");
    if (options.k > n)
        throw InvalidInput("-k " + std::to_string(options.k) + " is larger than the number of points (" +
                           std::to_string(n) + ")");
    if (!(options.tolerance >= 0.0)) throw InvalidInput("the k-means tolerance must be zero or positive");
    const std::size_t k = options.k;
    if (n >= static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        k * d >= static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw InvalidInput("GPU k-means supports fewer than 2^31 points and k·D below 2^31; use --backend cpu");

    const KMeansAssignment path = assignmentPath(assignment, k, d);
    const std::vector<double> means = featureMeans(x, n, d);
    KMeansDevice device(x, n, d, k, path, means);
    std::mt19937_64 rng(options.seed);
    std::vector<double> centroids = seedPlusPlus(device, x, n, d, k, rng, control);
    KMeansResult result;
    KMeansDevice::Assignment step = device.assign(centroids);
    result.inertiaHistory.push_back(step.inertia);
    const double tolerance = options.tolerance * meanVariance(x, n, d, means);
    while (result.iterations < options.maxIterations) {
        const double shift = updateCentroids(device, x, n, d, k, centroids);
        ++result.iterations;
        step = device.assign(centroids);
        result.inertiaHistory.push_back(step.inertia);
        if (control) {
            control->checkCancelled();
            control->setProgress(static_cast<double>(result.iterations) / static_cast<double>(options.maxIterations));
        }
        if (step.changed == 0 || shift <= tolerance) {
            result.converged = true;
            break;
        }
    }
    result.labels.resize(n);
    device.copyLabels(result.labels);
    std::vector<std::size_t> counts(k, 0);
    for (const std::int32_t label : result.labels) ++counts[static_cast<std::size_t>(label)];
    result.emptyClusters = static_cast<std::size_t>(std::count(counts.begin(), counts.end(), std::size_t{0}));
    result.inertia = step.inertia;
    result.centroids = std::move(centroids);
    if (control) control->setProgress(1.0);
    return result;
}

CL_CUDA_KERNEL_MODULE(cuda::kmeansSeedKernel)

}  // namespace clusterlens
