// Host side of the GPU classic linkages: validation, device state, the launch loop of the
// persistent ward / centroid kernels (cancel checks and active-list compaction between launches)
// and scipy's labelling of the recorded merges.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/classic_linkage_cuda.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "clusterlens/hca/minimum_spanning_tree_cuda.hpp"
#include "cpu/classic_linkage_detail.hpp"
#include "cuda/kernels/linkage_centroid_kernels.cuh"
#include "cuda/kernels/linkage_ward_kernels.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/device_buffer.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens {
namespace {

using cuda::DeviceBuffer;
using cuda::LinkageDeviceData;
using cuda::LinkageKey;
using cuda::LinkageState;

constexpr int kThreads = 256;
constexpr std::size_t kSharedBudget = 40 * 1024;  // bytes of dynamic shared memory we ask for
constexpr double kLaunchSeconds = 0.03;           // target duration of one persistent launch

/// Labels merges recorded in merge order (centroid): union-find whose roots are renamed n, n+1, ...
/// in that order, as scipy's `label` without the sort.
Linkage labelMergesInOrder(const std::vector<cpu::RawMerge>& merges, std::size_t n) {
    std::vector<std::int64_t> parent(2 * n - 1);
    std::iota(parent.begin(), parent.end(), std::int64_t{0});
    std::vector<std::int64_t> size(2 * n - 1, 1);
    auto find = [&parent](std::int64_t v) {
        std::int64_t root = v;
        while (parent[root] != root) root = parent[root];
        while (parent[v] != root) {
            const std::int64_t next = parent[v];
            parent[v] = root;
            v = next;
        }
        return root;
    };
    Linkage linkage;
    linkage.leafCount = n;
    linkage.merges.reserve(merges.size());
    for (std::size_t i = 0; i < merges.size(); ++i) {
        const std::int64_t a = find(merges[i].x), b = find(merges[i].y);
        const auto id = static_cast<std::int64_t>(n + i);
        parent[a] = parent[b] = id;
        size[id] = size[a] + size[b];
        linkage.merges.push_back(Merge{std::min(a, b), std::max(a, b), merges[i].height, size[id]});
    }
    return linkage;
}

/// Device state of one matrix-free linkage run.
class MatrixFreeLinkage {
public:
    MatrixFreeLinkage(const float* x, int n, int d, LinkageMethod method) : m_n(n), m_d(d), m_method(method) {
        const cudaStream_t stream = cudaStreamPerThread;
        const auto un = static_cast<std::size_t>(n);
        // Ward never reuses an id: room for the 2n-1 clusters of the whole tree.
        const std::size_t slots = method == LinkageMethod::Ward ? 2 * un - 1 : un;
        std::vector<double> centroid(slots * static_cast<std::size_t>(d), 0.0);
        std::copy(x, x + un * static_cast<std::size_t>(d), centroid.begin());
        d_centroid = DeviceBuffer<double>(centroid.size(), stream);
        d_centroid.copyFromHost(centroid.data(), centroid.size());
        std::vector<int> size(slots, 0);
        std::fill(size.begin(), size.begin() + n, 1);
        d_size = DeviceBuffer<int>(slots, stream);
        d_size.copyFromHost(size.data(), slots);
        m_list.resize(un);
        std::iota(m_list.begin(), m_list.end(), 0);
        m_firstNew = n;
        d_list = DeviceBuffer<int>(un, stream);
        d_list.copyFromHost(m_list.data(), un);
        d_mergeLo = DeviceBuffer<int>(un - 1, stream);
        d_mergeHi = DeviceBuffer<int>(un - 1, stream);
        d_mergeValue = DeviceBuffer<double>(un - 1, stream);
        const LinkageState initial{0, 0};
        d_state = DeviceBuffer<LinkageState>(1, stream);
        d_state.copyFromHost(&initial, 1);
        const std::size_t rowBytes = static_cast<std::size_t>(d) * sizeof(double);
        if (method == LinkageMethod::Ward) {
            d_chain = DeviceBuffer<int>(un, stream);
            m_shared = 2 * rowBytes;
        } else {
            d_position = DeviceBuffer<int>(un, stream);
            d_position.copyFromHost(m_list.data(), un);
            d_nn = DeviceBuffer<int>(un, stream);
            d_nnDist = DeviceBuffer<double>(un, stream);
            const std::vector<unsigned char> exact(un, 0);
            d_stale = DeviceBuffer<unsigned char>(un, stream);
            d_stale.copyFromHost(exact.data(), un);
            m_shared = rowBytes;
            initialNearest();
        }
        configureGrid();
        d_partial = DeviceBuffer<LinkageKey>(2 * static_cast<std::size_t>(m_grid), stream);
    }

    /// Runs merges until all n-1 are done; returns them in merge order (x = lo slot, y = hi slot).
    std::vector<cpu::RawMerge> run(JobControl* control) {
        const cudaStream_t stream = cudaStreamPerThread;
        int merges = 0;
        int maxMerges = 256;
        while (merges < m_n - 1) {
            LinkageDeviceData data = deviceData(maxMerges);
            void* args[] = {&data};
            const auto started = std::chrono::steady_clock::now();
            CL_CUDA_TRY(cudaLaunchCooperativeKernel(kernel(), dim3(static_cast<unsigned>(m_grid)), dim3(kThreads), args,
                                                    m_shared, stream));
            CL_CUDA_CHECK_LAUNCH();
            LinkageState state{};
            d_state.copyToHost(&state, 1);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            const int done = state.merges - merges;
            merges = state.merges;
            if (control) {
                control->checkCancelled();
                cpu::reportQuadraticProgress(control, static_cast<std::size_t>(merges),
                                             static_cast<std::size_t>(m_n - 1));
            }
            const double perMerge = seconds / std::max(done, 1);
            maxMerges = static_cast<int>(std::clamp(kLaunchSeconds / std::max(perMerge, 1e-9), 64.0, double(m_n)));
            const int scanned =
                static_cast<int>(m_list.size()) + (m_method == LinkageMethod::Ward ? m_n + merges - m_firstNew : 0);
            if (m_n - merges < scanned / 2) compact(merges);
        }
        return collect();
    }

private:
    LinkageDeviceData deviceData(int maxMerges) {
        LinkageDeviceData a{};
        a.centroid = d_centroid.data();
        a.size = d_size.data();
        a.list = d_list.data();
        a.position = d_position.data();
        a.listLength = static_cast<int>(m_list.size());
        a.firstNew = m_firstNew;
        a.n = m_n;
        a.d = m_d;
        a.maxMerges = maxMerges;
        a.nn = d_nn.data();
        a.nnDist = d_nnDist.data();
        a.stale = d_stale.data();
        a.chain = d_chain.data();
        a.partial = d_partial.data();
        a.mergeLo = d_mergeLo.data();
        a.mergeHi = d_mergeHi.data();
        a.mergeValue = d_mergeValue.data();
        a.state = d_state.data();
        return a;
    }

    void initialNearest() {
        const int tileRows =
            static_cast<int>(std::clamp<std::size_t>(kSharedBudget / (static_cast<std::size_t>(m_d) * 8), 1, 128));
        const std::size_t shared = static_cast<std::size_t>(tileRows) * static_cast<std::size_t>(m_d) * sizeof(double);
        const unsigned blocks = static_cast<unsigned>((m_n + 127) / 128);
        cuda::initialNearestKernel<<<blocks, 128, shared, cudaStreamPerThread>>>(d_centroid.data(), m_n, m_d, tileRows,
                                                                                 d_nn.data(), d_nnDist.data());
        CL_CUDA_CHECK_LAUNCH();
    }

    void configureGrid() {
        int device = 0, sms = 0, cooperative = 0, perSm = 0;
        CL_CUDA_TRY(cudaGetDevice(&device));
        CL_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        CL_CUDA_TRY(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
        if (!cooperative) throw CudaError("this GPU does not support cooperative kernel launches; use --backend cpu");
        CL_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel(), kThreads, m_shared));
        if (perSm < 1) throw CudaError("the linkage kernel cannot be resident on this GPU");
        // One block per multiprocessor: more blocks only make the grid-wide barriers dearer (measured
        // on an H200: 1x256 threads per SM was fastest of 1x256, 2x256, 1x512, 2x512, 1x1024, 4x128).
        m_grid = sms;
    }

    const void* kernel() const {
        return m_method == LinkageMethod::Ward ? reinterpret_cast<const void*>(&cuda::wardChainKernel)
                                               : reinterpret_cast<const void*>(&cuda::centroidLinkageKernel);
    }

    /// Drops dead slots from the scanned list (ascending slot order); ward also takes in the ids
    /// created since the last compaction.
    void compact(int merges) {
        const std::size_t used =
            m_method == LinkageMethod::Ward ? static_cast<std::size_t>(m_n + merges) : static_cast<std::size_t>(m_n);
        std::vector<int> size(used);
        CL_CUDA_TRY(cudaMemcpyAsync(size.data(), d_size.data(), used * sizeof(int), cudaMemcpyDeviceToHost,
                                    cudaStreamPerThread));
        CL_CUDA_TRY(cudaStreamSynchronize(cudaStreamPerThread));
        m_list.clear();
        for (std::size_t s = 0; s < used; ++s)
            if (size[s] > 0) m_list.push_back(static_cast<int>(s));
        d_list.copyFromHost(m_list.data(), m_list.size());
        m_firstNew = m_n + merges;
        if (m_method == LinkageMethod::Centroid) {
            std::vector<int> position(static_cast<std::size_t>(m_n), -1);
            for (std::size_t p = 0; p < m_list.size(); ++p)
                position[static_cast<std::size_t>(m_list[p])] = static_cast<int>(p);
            d_position.copyFromHost(position.data(), position.size());
        }
    }

    /// The merges in merge order with x, y leaves of the two clusters (ward ids mapped to a leaf).
    std::vector<cpu::RawMerge> collect() {
        const auto count = static_cast<std::size_t>(m_n - 1);
        std::vector<int> lo(count), hi(count);
        std::vector<double> value(count);
        d_mergeLo.copyToHost(lo.data(), count);
        d_mergeHi.copyToHost(hi.data(), count);
        d_mergeValue.copyToHost(value.data(), count);
        std::vector<std::int64_t> leaf(2 * count + 1);
        std::iota(leaf.begin(), leaf.end(), std::int64_t{0});
        std::vector<cpu::RawMerge> merges(count);
        for (std::size_t i = 0; i < count; ++i) {
            merges[i] = cpu::RawMerge{leaf[static_cast<std::size_t>(lo[i])], leaf[static_cast<std::size_t>(hi[i])],
                                      std::sqrt(value[i])};
            if (m_method == LinkageMethod::Ward) leaf[static_cast<std::size_t>(m_n) + i] = merges[i].x;
        }
        return merges;
    }

    int m_n;
    int m_d;
    LinkageMethod m_method;
    int m_grid = 1;
    int m_firstNew = 0;
    std::size_t m_shared = 0;
    std::vector<int> m_list;
    DeviceBuffer<double> d_centroid;
    DeviceBuffer<int> d_size;
    DeviceBuffer<int> d_list;
    DeviceBuffer<int> d_position;
    DeviceBuffer<int> d_nn;
    DeviceBuffer<double> d_nnDist;
    DeviceBuffer<unsigned char> d_stale;
    DeviceBuffer<int> d_chain;
    DeviceBuffer<LinkageKey> d_partial;
    DeviceBuffer<int> d_mergeLo;
    DeviceBuffer<int> d_mergeHi;
    DeviceBuffer<double> d_mergeValue;
    DeviceBuffer<LinkageState> d_state;
};

}  // namespace

Linkage classicLinkageCuda(const float* x, std::size_t n, std::size_t d, LinkageMethod method, JobControl* control) {
    if (method != LinkageMethod::Single && method != LinkageMethod::Ward && method != LinkageMethod::Centroid)
        throw InvalidInput("--linkage " + linkageMethodName(method) +
                           " is not available on the GPU; use --backend cpu");
    cpu::checkPoints(x, n, d, 2, "hierarchical clustering");
    if (n >= static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw InvalidInput("GPU hierarchical clustering supports fewer than 2^31 points; subsample the data");
    if (method == LinkageMethod::Single) {
        Linkage linkage = singleLinkageFromMst(minimumSpanningTreeCuda(x, n, d, control), n);
        if (control) control->setProgress(1.0);
        return linkage;
    }
    if (d * sizeof(double) * 2 > kSharedBudget)
        throw InvalidInput("GPU " + linkageMethodName(method) + " linkage supports at most " +
                           std::to_string(kSharedBudget / (2 * sizeof(double))) + " features, got " +
                           std::to_string(d) + "; use --backend cpu or reduce the features first");
    MatrixFreeLinkage onDevice(x, static_cast<int>(n), static_cast<int>(d), method);
    std::vector<cpu::RawMerge> merges = onDevice.run(control);
    Linkage linkage = method == LinkageMethod::Ward ? cpu::labelMergesSortedByHeight(std::move(merges), n)
                                                    : labelMergesInOrder(merges, n);
    if (control) control->setProgress(1.0);
    return linkage;
}

CL_CUDA_KERNEL_MODULE(cuda::initialNearestKernel)

}  // namespace clusterlens
