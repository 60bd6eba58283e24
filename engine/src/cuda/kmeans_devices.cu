#include "cuda/kmeans_devices.cuh"

#include <algorithm>
#include <string>

#include "clusterlens/errors.hpp"
#include "cuda/kernels/kmeans_kernels.cuh"
#include "cuda/kmeans_cluster_sums.cuh"
#include "cuda/kmeans_matrix_assign.cuh"
#include "cuda/kmeans_tile_assign.cuh"
#include "cuda/util/cublas_library.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/cuda_event.cuh"
#include "cuda/util/current_device.cuh"
#include "cuda/util/device_buffer.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens::cuda {
namespace {

constexpr std::size_t kSharedBudget = 40 * 1024;
/// k x d from which Auto assigns through the matrix product (between the measured 64 x 14 and 128 x 39).
constexpr std::size_t kMatrixAssignMinWork = 4096;
/// Centroids from which Auto assigns in tensor-core tiles (the smallest count measured, at 1M x 14).
constexpr std::size_t kTileAssignMinK = 64;
/// Potentials per copy of cumulativePotential (1 MiB): the host sums one while the next arrives.
constexpr std::size_t kPotentialChunk = std::size_t{1} << 17;

/// The assignment `requested` resolves to on the current device. Measured on an H200 at 1M points, per
/// Lloyd iteration (docs/benchmarks.md): the tensor tiles were the fastest at every shape measured, from
/// k x d = 64 x 14 (0.46 ms, the kernel 0.72) to 1000 x 39 (3.9 ms, cuBLAS 7.6, the kernel 83); the cuBLAS
/// product beat the kernel from 128 x 39 on. Auto takes the tiles from k = 64 where the device has FP64
/// tensor cores, else cuBLAS from k x d = 4096 where it can be loaded (MatrixProduct then throws
/// CudaError), else the kernel.
KMeansAssignment assignmentPath(KMeansAssignment requested, std::size_t k, std::size_t d) {
    const bool tilesFit = d <= KMeansTileAssign::kMaxFeatures && KMeansTileAssign::deviceSupported();
    if (requested == KMeansAssignment::TensorTiles && !tilesFit)
        throw InvalidInput(
            "the tensor-tile k-means assignment needs FP64 tensor cores (compute capability 8.0, 9.0 "
            "or 10.0) and at most 64 features");
    if (requested != KMeansAssignment::Auto) return requested;
    if (tilesFit && k >= kTileAssignMinK) return KMeansAssignment::TensorTiles;
    if (k * d >= kMatrixAssignMinWork && cublasLibrary() != nullptr) return KMeansAssignment::MatrixProduct;
    return KMeansAssignment::Kernel;
}

/// Lets `peer` write the memory that `owner`'s default pool hands out (pool memory ignores
/// cudaDeviceEnablePeerAccess; cudaMemPoolSetAccess maps it for the peer), where the two can reach
/// each other, so that the labels' peer copies can go over the link. Process-wide and lasting;
/// repeating it changes nothing.
void letPeerWrite(int owner, int peer) {
    if (owner == peer) return;
    int reachable = 0;
    CL_CUDA_TRY(cudaDeviceCanAccessPeer(&reachable, peer, owner));
    if (reachable == 0) return;
    cudaMemPool_t pool = nullptr;
    CL_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, owner));
    cudaMemAccessDesc access{};
    access.location.type = cudaMemLocationTypeDevice;
    access.location.id = peer;
    access.flags = cudaMemAccessFlagsProtReadWrite;
    CL_CUDA_TRY(cudaMemPoolSetAccess(pool, &access, 1));
}

}  // namespace

/// One device's range of the points [begin, begin + count), its buffers made on that device.
struct KMeansDevices::Part {
    int device = 0;
    std::size_t begin = 0, count = 0;
    int blocks = 0;
    bool holdsEveryPoint = false;  // d_x and d_labels cover all n points (the first part)
    bool sharedCentroids = false;
    cudaStream_t stream = cudaStreamPerThread;  // the driving thread's stream of `device`
    DeviceBuffer<float> d_x;                    // from point `begin` on (the first part: every point)
    DeviceBuffer<float> d_centre;               // a seeding centre that lies outside d_x
    DeviceBuffer<double> d_closest, d_blockSums, d_distance, d_centroids;
    DeviceBuffer<int> d_blockChanged, d_labels;               // d_labels: as d_x
    std::unique_ptr<KMeansClusterSums> sums;                  // the update's sums over every point (the first part)
    std::unique_ptr<KMeansMatrixAssign> matrix;               // the assignment through cuBLAS, if chosen
    std::unique_ptr<KMeansTileAssign> tiles;                  // the assignment in tensor-core tiles, if chosen
    std::vector<std::unique_ptr<CudaEvent>> potentialCopied;  // per kPotentialChunk of d_closest
};

KMeansDevices::KMeansDevices(const float* x, std::size_t n, std::size_t d, std::size_t k, KMeansAssignment requested,
                             const std::vector<double>& means, const std::vector<int>& devices)
    : m_x(x), m_n(n), m_d(d), m_k(k), m_staging(k > 1 ? n : 0) {
    int current = 0;
    CL_CUDA_TRY(cudaGetDevice(&current));
    const std::vector<int> chosen = devices.empty() ? std::vector<int>{current} : devices;
    checkDevices(chosen);
    const std::size_t blocks = (n + kKMeansThreads - 1) / kKMeansThreads;
    for (std::size_t g = 0; g < chosen.size(); ++g) {
        const std::size_t firstBlock = blocks * g / chosen.size(), endBlock = blocks * (g + 1) / chosen.size();
        if (endBlock == firstBlock) continue;  // more devices than blocks of points
        auto part = std::make_unique<Part>();
        part->device = chosen[g];
        part->begin = firstBlock * kKMeansThreads;
        part->count = std::min(n, endBlock * kKMeansThreads) - part->begin;
        part->blocks = static_cast<int>(endBlock - firstBlock);
        part->holdsEveryPoint = m_parts.empty();
        m_parts.push_back(std::move(part));
    }
    // Each part's buffers on its device; a failure releases the parts made so far, each with its device
    // current (~KMeansDevices does not run).
    try {
        for (auto& part : m_parts) {
            const CurrentDevice on(part->device);
            Part& p = *part;
            const std::size_t held = p.holdsEveryPoint ? n : p.count;
            p.d_x = DeviceBuffer<float>(held * d, p.stream);
            p.d_x.copyFromHost(x + p.begin * d, held * d);
            p.d_closest = DeviceBuffer<double>(p.count, p.stream);
            p.d_blockSums = DeviceBuffer<double>(static_cast<std::size_t>(p.blocks), p.stream);
            p.d_blockChanged = DeviceBuffer<int>(static_cast<std::size_t>(p.blocks), p.stream);
            const std::vector<int> unset(held, -1);
            p.d_labels = DeviceBuffer<int>(held, p.stream);
            p.d_labels.copyFromHost(unset.data(), held);
            p.d_distance = DeviceBuffer<double>(p.count, p.stream);
            p.d_centroids = DeviceBuffer<double>(k * d, p.stream);
            p.d_centre = DeviceBuffer<float>(d, p.stream);
            p.sharedCentroids = k * d * sizeof(double) <= kSharedBudget;
            if (p.holdsEveryPoint) p.sums = std::make_unique<KMeansClusterSums>(p.d_x.data(), n, d, k, p.stream);
            const KMeansAssignment path = assignmentPath(requested, k, d);
            if (path == KMeansAssignment::MatrixProduct)
                p.matrix = std::make_unique<KMeansMatrixAssign>(p.d_x.data(), p.count, d, k, means, p.stream);
            if (path == KMeansAssignment::TensorTiles)
                p.tiles = std::make_unique<KMeansTileAssign>(p.d_x.data(), p.count, d, k, means, p.stream);
            for (std::size_t c = 0; c < p.count; c += kPotentialChunk)
                p.potentialCopied.push_back(std::make_unique<CudaEvent>(cudaEventDisableTiming));
            letPeerWrite(m_parts.front()->device, p.device);
            // The upload's source is the caller's pageable memory: finish before the constructor returns.
            CL_CUDA_TRY(cudaStreamSynchronize(p.stream));
        }
    } catch (...) {
        releaseParts();
        throw;
    }
}

KMeansDevices::~KMeansDevices() {
    releaseParts();
}

void KMeansDevices::releaseParts() noexcept {
    while (!m_parts.empty()) {
        const CurrentDevice on(m_parts.back()->device);  // (a part's buffers are freed on its device's stream)
        m_parts.pop_back();
    }
}

double KMeansDevices::seed(std::size_t centre, SeedMode mode) {
    const std::size_t rowBytes = m_d * sizeof(double);
    const bool sharedCentre = rowBytes <= kSharedBudget;
    for (auto& part : m_parts) {
        const CurrentDevice on(part->device);
        Part& p = *part;
        const float* row = nullptr;
        if (p.holdsEveryPoint) {
            row = p.d_x.data() + centre * m_d;
        } else if (centre >= p.begin && centre < p.begin + p.count) {
            row = p.d_x.data() + (centre - p.begin) * m_d;
        } else {
            p.d_centre.copyFromHost(m_x + centre * m_d, m_d);
            row = p.d_centre.data();
        }
        kmeansSeedKernel<<<static_cast<unsigned>(p.blocks), kKMeansThreads, sharedCentre ? rowBytes : 0, p.stream>>>(
            p.d_x.data(), static_cast<int>(p.count), static_cast<int>(m_d), row, mode, sharedCentre, p.d_closest.data(),
            p.d_blockSums.data());
        CL_CUDA_CHECK_LAUNCH();
    }
    double total = 0.0;
    std::vector<double> partial;
    for (auto& part : m_parts) {
        const CurrentDevice on(part->device);
        partial.resize(static_cast<std::size_t>(part->blocks));
        part->d_blockSums.copyToHost(partial.data(), partial.size());
        for (const double p : partial) total += p;
    }
    return total;
}

void KMeansDevices::cumulativePotential(std::vector<double>& cumulative) {
    double* staged = m_staging.data();
    for (auto& part : m_parts) {
        const CurrentDevice on(part->device);
        for (std::size_t c = 0, first = 0; first < part->count; ++c, first += kPotentialChunk) {
            const std::size_t count = std::min(kPotentialChunk, part->count - first);
            CL_CUDA_TRY(cudaMemcpyAsync(staged + part->begin + first, part->d_closest.data() + first,
                                        count * sizeof(double), cudaMemcpyDeviceToHost, part->stream));
            CL_CUDA_TRY(cudaEventRecord(part->potentialCopied[c]->get(), part->stream));
        }
    }
    // From 0.0: the first value enters exactly (the potentials are +0 or positive), as std::partial_sum's
    // start from the first value.
    double sum = 0.0;
    for (auto& part : m_parts) {
        for (std::size_t c = 0, first = 0; first < part->count; ++c, first += kPotentialChunk) {
            CL_CUDA_TRY(cudaEventSynchronize(part->potentialCopied[c]->get()));
            const std::size_t begin = part->begin + first, end = begin + std::min(kPotentialChunk, part->count - first);
            for (std::size_t i = begin; i < end; ++i) {
                sum += staged[i];
                cumulative[i] = sum;
            }
        }
    }
}

KMeansDevices::Assignment KMeansDevices::assign(const std::vector<double>& centroids) {
    for (auto& part : m_parts) {
        const CurrentDevice on(part->device);
        Part& p = *part;
        p.d_centroids.copyFromHost(centroids.data(), centroids.size());
        if (p.matrix) {
            p.matrix->assign(centroids, p.d_centroids.data(), p.d_labels.data(), p.d_distance.data(),
                             p.d_blockSums.data(), p.d_blockChanged.data());
        } else if (p.tiles) {
            p.tiles->assign(centroids, p.d_centroids.data(), p.d_labels.data(), p.d_distance.data(),
                            p.d_blockSums.data(), p.d_blockChanged.data());
        } else {
            const std::size_t shared = p.sharedCentroids ? centroids.size() * sizeof(double) : 0;
            kmeansAssignKernel<<<static_cast<unsigned>(p.blocks), kKMeansThreads, shared, p.stream>>>(
                p.d_x.data(), static_cast<int>(p.count), static_cast<int>(m_d), p.d_centroids.data(),
                static_cast<int>(m_k), p.sharedCentroids, p.d_labels.data(), p.d_distance.data(), p.d_blockSums.data(),
                p.d_blockChanged.data());
            CL_CUDA_CHECK_LAUNCH();
        }
    }
    Assignment a;
    std::vector<double> partial;
    std::vector<int> changed;
    for (auto& part : m_parts) {
        const CurrentDevice on(part->device);
        partial.resize(static_cast<std::size_t>(part->blocks));
        changed.resize(partial.size());
        part->d_blockSums.copyToHost(partial.data(), partial.size());
        part->d_blockChanged.copyToHost(changed.data(), changed.size());
        for (const double p : partial) a.inertia += p;
        for (const int c : changed) a.changed += static_cast<std::size_t>(c);
    }
    return a;
}

void KMeansDevices::gatherLabels() {
    Part& first = *m_parts.front();
    for (std::size_t g = 1; g < m_parts.size(); ++g) {
        Part& p = *m_parts[g];
        const CurrentDevice on(p.device);
        CL_CUDA_TRY(cudaMemcpyPeerAsync(first.d_labels.data() + p.begin, first.device, p.d_labels.data(), p.device,
                                        p.count * sizeof(int), p.stream));
    }
    for (std::size_t g = 1; g < m_parts.size(); ++g) {
        const CurrentDevice on(m_parts[g]->device);
        CL_CUDA_TRY(cudaStreamSynchronize(m_parts[g]->stream));
    }
}

void KMeansDevices::clusterSums(std::vector<double>& sums, std::vector<long long>& counts) {
    gatherLabels();
    const CurrentDevice on(m_parts.front()->device);
    m_parts.front()->sums->compute(m_parts.front()->d_labels.data(), sums, counts);
}

void KMeansDevices::copyLabels(std::vector<std::int32_t>& labels) {
    gatherLabels();
    const CurrentDevice on(m_parts.front()->device);
    m_parts.front()->d_labels.copyToHost(reinterpret_cast<int*>(labels.data()), m_n);
}

void KMeansDevices::uploadLabels(const std::vector<std::int32_t>& labels) {
    for (auto& part : m_parts) {
        const CurrentDevice on(part->device);
        const std::size_t count = part->holdsEveryPoint ? m_n : part->count;
        part->d_labels.copyFromHost(reinterpret_cast<const int*>(labels.data()) + part->begin, count);
        CL_CUDA_TRY(cudaStreamSynchronize(part->stream));  // (the source may change after the call)
    }
}

void KMeansDevices::copyDistance(std::vector<double>& distance) const {
    for (const auto& part : m_parts) {
        const CurrentDevice on(part->device);
        part->d_distance.copyToHost(distance.data() + part->begin, part->count);
    }
}

CL_CUDA_KERNEL_MODULE(kmeansSeedKernel)

}  // namespace clusterlens::cuda
