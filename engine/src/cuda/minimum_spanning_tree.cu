// GPU minimum spanning tree: Borůvka rounds with a fused all-pairs nearest-other-component kernel,
// the per-component minimum and the joins on the host, then Prim's order on the tree.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/minimum_spanning_tree_cuda.hpp"
#include "cpu/classic_linkage_detail.hpp"
#include "cuda/kernels/boruvka_kernels.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/device_buffer.cuh"

namespace clusterlens {
namespace {

using cuda::DeviceBuffer;

constexpr int kThreads = 128;
constexpr std::size_t kMaxFeatures = 8192;  // a candidate tile of one row still fits in shared memory

/// Union-find with path halving; roots are the smallest member so labels are deterministic.
class DisjointSets {
public:
    explicit DisjointSets(std::size_t n) : m_parent(n) { std::iota(m_parent.begin(), m_parent.end(), 0); }
    int find(int v) {
        while (m_parent[v] != v) {
            m_parent[v] = m_parent[m_parent[v]];
            v = m_parent[v];
        }
        return v;
    }
    void join(int a, int b) {
        a = find(a);
        b = find(b);
        if (a < b) std::swap(a, b);
        m_parent[a] = b;
    }

private:
    std::vector<int> m_parent;
};

/// The order of candidate edges: exact squared weight, then (min endpoint, max endpoint).
struct Edge {
    double w2 = std::numeric_limits<double>::infinity();
    int lo = -1;
    int hi = -1;
    bool operator<(const Edge& o) const {
        if (w2 != o.w2) return w2 < o.w2;
        return lo != o.lo ? lo < o.lo : hi < o.hi;
    }
};

/// Device state of the Borůvka rounds: padded points, component labels, per-point nearest result.
class BoruvkaScanner {
public:
    BoruvkaScanner(const float* x, int n, int d) : m_n(n), m_d(d), m_stride(paddedStride(d)) {
        const cudaStream_t stream = cudaStreamPerThread;
        std::vector<float> padded(static_cast<std::size_t>(n) * m_stride, 0.0f);
        for (int i = 0; i < n; ++i)
            std::copy(x + static_cast<std::size_t>(i) * d, x + static_cast<std::size_t>(i + 1) * d,
                      padded.begin() + static_cast<std::ptrdiff_t>(i) * m_stride);
        d_x = DeviceBuffer<float>(padded.size(), stream);
        d_x.copyFromHost(padded.data(), padded.size());
        d_component = DeviceBuffer<int>(static_cast<std::size_t>(n), stream);
        d_bestW2 = DeviceBuffer<double>(static_cast<std::size_t>(n), stream);
        d_bestJ = DeviceBuffer<int>(static_cast<std::size_t>(n), stream);
        m_tileRows = std::max(1, std::min(256, 8192 / m_stride));
        // Float rounding bound of a squared distance is (d+2)·2^-24 relative; screen with a margin.
        m_tolerance = static_cast<float>(3.0 * (d + 3) * std::ldexp(1.0, -24));
        // Query rows per launch: about 2^32 pair-features (a few ms), at least one full wave.
        const double perRow = static_cast<double>(n) * m_stride;
        const double rows = std::ldexp(1.0, 32) / std::max(perRow, 1.0);
        m_launchRows = static_cast<int>(std::clamp(rows, std::min(65536.0, double(n)), double(n)));
    }

    /// One round: nearest point of another component for every point, copied to the host.
    void scan(const std::vector<int>& component, std::vector<double>& h_bestW2, std::vector<int>& h_bestJ,
              JobControl* control) {
        const cudaStream_t stream = cudaStreamPerThread;
        d_component.copyFromHost(component.data(), component.size());
        const std::size_t shared = static_cast<std::size_t>(m_tileRows) * m_stride * sizeof(float) +
                                   static_cast<std::size_t>(m_tileRows) * sizeof(int);
        for (int begin = 0; begin < m_n; begin += m_launchRows) {
            const int end = std::min(m_n, begin + m_launchRows);
            const unsigned blocks = static_cast<unsigned>((end - begin + kThreads - 1) / kThreads);
            launch(blocks, shared, begin, end, stream);
            CL_CUDA_CHECK_LAUNCH();
            if (control && end < m_n) {
                CL_CUDA_TRY(cudaStreamSynchronize(stream));
                control->checkCancelled();
            }
        }
        d_bestW2.copyToHost(h_bestW2.data(), h_bestW2.size());
        d_bestJ.copyToHost(h_bestJ.data(), h_bestJ.size());
    }

private:
    /// Chunk counts with a register-resident kernel instance; wider rows use the generic instance.
    static constexpr int kInstances[] = {1, 2, 3, 4, 6, 8, 12, 16};

    /// Row stride: 4 × the smallest instantiated chunk count that holds d features.
    static int paddedStride(int d) {
        const int chunks = (d + 3) / 4;
        for (int c : kInstances)
            if (c >= chunks) return 4 * c;
        return 4 * chunks;
    }

    void launch(unsigned blocks, std::size_t shared, int begin, int end, cudaStream_t stream) {
        const int chunks = m_stride / 4;
        auto run = [&](auto kernel) {
            kernel<<<blocks, kThreads, shared, stream>>>(d_x.data(), d_component.data(), m_n, m_d, m_stride,
                                                        m_tileRows, begin, end, m_tolerance, d_bestW2.data(),
                                                        d_bestJ.data());
        };
        switch (chunks) {
        case 1: run(cuda::boruvkaNearestKernel<1>); break;
        case 2: run(cuda::boruvkaNearestKernel<2>); break;
        case 3: run(cuda::boruvkaNearestKernel<3>); break;
        case 4: run(cuda::boruvkaNearestKernel<4>); break;
        case 6: run(cuda::boruvkaNearestKernel<6>); break;
        case 8: run(cuda::boruvkaNearestKernel<8>); break;
        case 12: run(cuda::boruvkaNearestKernel<12>); break;
        case 16: run(cuda::boruvkaNearestKernel<16>); break;
        default: run(cuda::boruvkaNearestKernel<0>); break;
        }
    }

    int m_n;
    int m_d;
    int m_stride;
    int m_tileRows = 1;
    int m_launchRows = 1;
    float m_tolerance = 0.0f;
    DeviceBuffer<float> d_x;
    DeviceBuffer<int> d_component;
    DeviceBuffer<double> d_bestW2;
    DeviceBuffer<int> d_bestJ;
};

/// Borůvka's rounds: returns the n-1 tree edges (lo, hi) in the order they were found.
std::vector<Edge> boruvkaEdges(const float* x, int n, int d, JobControl* control) {
    BoruvkaScanner scanner(x, n, d);
    DisjointSets sets(static_cast<std::size_t>(n));
    std::vector<int> component(static_cast<std::size_t>(n), 0);
    std::iota(component.begin(), component.end(), 0);
    std::vector<double> bestW2(static_cast<std::size_t>(n));
    std::vector<int> bestJ(static_cast<std::size_t>(n));
    std::vector<Edge> componentBest(static_cast<std::size_t>(n));
    std::vector<Edge> tree;
    tree.reserve(static_cast<std::size_t>(n) - 1);
    int components = n;
    while (components > 1) {
        scanner.scan(component, bestW2, bestJ, control);
        std::fill(componentBest.begin(), componentBest.end(), Edge{});
        for (int i = 0; i < n; ++i) {
            if (bestJ[i] < 0) throw CudaError("minimum spanning tree: a Borůvka round found no outgoing edge");
            const Edge e{bestW2[i], std::min(i, bestJ[i]), std::max(i, bestJ[i])};
            Edge& slot = componentBest[component[i]];
            if (e < slot) slot = e;
        }
        for (int c = 0; c < n; ++c) {
            const Edge& e = componentBest[c];
            if (e.lo < 0 || sets.find(e.lo) == sets.find(e.hi)) continue;
            sets.join(e.lo, e.hi);
            tree.push_back(e);
            --components;
        }
        for (int i = 0; i < n; ++i) component[i] = sets.find(i);
        if (control) {
            control->checkCancelled();
            control->setProgress(0.95 * (1.0 - std::log(static_cast<double>(components)) / std::log(double(n))));
        }
    }
    return tree;
}

/// Prim's algorithm restricted to the tree, from `start`: the fringe vertex with the smallest
/// (weight, index) joins next — the order minimumSpanningTreeCpu produces on the complete graph.
std::vector<MstEdge> primOrder(const std::vector<Edge>& tree, std::size_t n, std::size_t start,
                               const float* x, std::size_t d) {
    std::vector<std::size_t> degree(n + 1, 0);
    for (const Edge& e : tree) {
        ++degree[static_cast<std::size_t>(e.lo) + 1];
        ++degree[static_cast<std::size_t>(e.hi) + 1];
    }
    std::partial_sum(degree.begin(), degree.end(), degree.begin());
    std::vector<std::size_t> fill(degree.begin(), degree.end() - 1);
    std::vector<std::pair<int, double>> adjacency(2 * tree.size());
    for (const Edge& e : tree) {
        // Final weights: the host's double arithmetic, identical to the CPU implementation.
        const double w = std::sqrt(cpu::squaredEuclidean(x + static_cast<std::size_t>(e.lo) * d,
                                                         x + static_cast<std::size_t>(e.hi) * d, d));
        adjacency[fill[e.lo]++] = {e.hi, w};
        adjacency[fill[e.hi]++] = {e.lo, w};
    }
    struct Candidate {
        double w;
        int v;
        int u;
        bool operator>(const Candidate& o) const { return w != o.w ? w > o.w : v > o.v; }
    };
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> fringe;
    std::vector<char> inTree(n, 0);
    std::vector<MstEdge> edges;
    edges.reserve(n - 1);
    auto add = [&](std::size_t v) {
        inTree[v] = 1;
        for (std::size_t a = degree[v]; a < degree[v + 1]; ++a)
            if (!inTree[static_cast<std::size_t>(adjacency[a].first)])
                fringe.push({adjacency[a].second, adjacency[a].first, static_cast<int>(v)});
    };
    add(start);
    while (!fringe.empty()) {
        const Candidate c = fringe.top();
        fringe.pop();
        edges.push_back(MstEdge{c.u, c.v, c.w});
        add(static_cast<std::size_t>(c.v));
    }
    return edges;
}

} // namespace

std::vector<MstEdge> minimumSpanningTreeCuda(const float* x, std::size_t n, std::size_t d, JobControl* control,
                                             std::size_t start) {
    cpu::checkPoints(x, n, d, 1, "the minimum spanning tree");
    if (start >= n)
        throw InvalidInput("the minimum spanning tree start point " + std::to_string(start) +
                           " is not below the number of points " + std::to_string(n));
    if (n >= static_cast<std::size_t>(std::numeric_limits<int>::max()) || d > kMaxFeatures)
        throw InvalidInput("the GPU minimum spanning tree supports fewer than 2^31 points and at most " +
                           std::to_string(kMaxFeatures) + " features; use --backend cpu");
    if (n == 1) return {};
    const std::vector<Edge> tree = boruvkaEdges(x, static_cast<int>(n), static_cast<int>(d), control);
    std::vector<MstEdge> edges = primOrder(tree, n, start, x, d);
    if (control) control->setProgress(1.0);
    return edges;
}

} // namespace clusterlens
