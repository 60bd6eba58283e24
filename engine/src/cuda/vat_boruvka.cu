// Exact minimum spanning tree and farthest pair on the GPU for VAT (Bezdek & Hathaway 2002) and
// single linkage: Borůvka's rounds (Borůvka 1926) on cached k-NN lists and lower bounds, with scans
// of only the rows whose nearest point of another component is not yet certain; the tree is then
// walked into Prim's order (Prim 1957) on the host. See vat_engine.cuh for the pipeline and
// vat_boruvka_kernels.cuh for the rounds.

#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/vat/vat_cuda.hpp"
#include "cpu/classic_linkage_detail.hpp"
#include "cpu/vat_kernels.hpp"
#include "cuda/kernels/vat_boruvka_kernels.cuh"
#include "cuda/kernels/vat_engine.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens {
namespace {

using cuda::DeviceBuffer;
using cuda::gridFor;

constexpr std::size_t kMaxFeatures = 8192;  // a ball centre still fits in shared memory
constexpr unsigned kThreads = 256;

void checkInput(const float* x, std::size_t n, std::size_t d, Metric metric, std::size_t minPoints, const char* what) {
    cpu::checkPoints(x, n, d, minPoints, what);
    if (n >= static_cast<std::size_t>(std::numeric_limits<int>::max() / 2) || d > kMaxFeatures)
        throw InvalidInput(std::string(what) + " on the GPU supports fewer than 2^30 points and at most " +
                           std::to_string(kMaxFeatures) + " features; use --backend cpu");
    if (metric == Metric::Cosine) cpu::checkNoZeroRows(x, n, d, what);
    if (!cudaAvailable()) throw InvalidInput(std::string(what) + ": no CUDA device is available; use --backend cpu");
}

/// A tree edge by original indices lo < hi, with the device's exact weight.
struct TreeEdge {
    int lo;
    int hi;
    double w;
};

/// Union-find over component labels (positions) with set sizes; the root of a set is its smallest label.
class LabelSets {
public:
    explicit LabelSets(std::size_t size) : m_parent(size), m_size(size, 1) {
        std::iota(m_parent.begin(), m_parent.end(), 0);
    }
    std::size_t size(int root) const { return m_size[static_cast<std::size_t>(root)]; }
    int find(int v) {
        while (m_parent[v] != v) {
            m_parent[v] = m_parent[m_parent[v]];
            v = m_parent[v];
        }
        return v;
    }
    bool unite(int a, int b) {
        a = find(a);
        b = find(b);
        if (a == b) return false;
        if (a > b) std::swap(a, b);
        m_parent[b] = a;
        m_size[static_cast<std::size_t>(a)] += m_size[static_cast<std::size_t>(b)];
        return true;
    }

private:
    std::vector<int> m_parent;
    std::vector<std::size_t> m_size;
};

/// Device state of the rounds (see cuda::VatForest) and the scratch of the row selections.
struct ForestBuffers {
    DeviceBuffer<int> comp, cachePos, candPos, compOther, labelMap, tileComp, selected, numSelected, iota;
    DeviceBuffer<double> cacheW, lb, candW, compW;
    DeviceBuffer<unsigned char> candCert, flags;
    DeviceBuffer<unsigned long long> compUpper, compBest, compKey;
    DeviceBuffer<unsigned int> error;
    DeviceBuffer<unsigned char> temp;
    std::size_t tempBytes = 0;

    ForestBuffers(std::size_t positions, std::size_t tiles, cudaStream_t s)
        : comp(positions, s),
          cachePos(positions, s),
          candPos(positions, s),
          compOther(positions, s),
          labelMap(positions, s),
          tileComp(tiles, s),
          selected(positions, s),
          numSelected(1, s),
          iota(positions, s),
          cacheW(positions, s),
          lb(positions, s),
          candW(positions, s),
          compW(positions, s),
          candCert(positions, s),
          flags(positions, s),
          compUpper(positions, s),
          compBest(positions, s),
          compKey(positions, s),
          error(1, s) {
        CL_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, tempBytes, iota.data(), flags.data(), selected.data(),
                                               numSelected.data(), static_cast<int>(positions), s));
        temp = DeviceBuffer<unsigned char>(std::max<std::size_t>(tempBytes, 1), s);
    }

    /// Positions whose flag is set, ascending, into `selected`; returns their number.
    int select(int positions, cudaStream_t s) {
        std::size_t bytes = tempBytes;
        CL_CUDA_TRY(cub::DeviceSelect::Flagged(temp.data(), bytes, iota.data(), flags.data(), selected.data(),
                                               numSelected.data(), positions, s));
        int count = 0;
        numSelected.copyToHost(&count, 1);
        return count;
    }
};

cuda::VatForest forestView(ForestBuffers& b, const cuda::VatSpace& space, const DeviceBuffer<int>& knnPos,
                           const DeviceBuffer<double>& knnBound) {
    const cuda::VatSpaceView view = space.view();
    cuda::VatForest f{};
    f.positions = space.positions();
    f.skip = -1;
    f.comp = b.comp.data();
    f.perm = view.perm;
    f.points = view.points;
    f.d = view.d;
    f.metric = space.metric();
    f.knnPos = knnPos.data();
    f.knnBound = knnBound.data();
    f.cachePos = b.cachePos.data();
    f.cacheW = b.cacheW.data();
    f.lb = b.lb.data();
    f.candW = b.candW.data();
    f.candPos = b.candPos.data();
    f.candCert = b.candCert.data();
    f.compUpper = b.compUpper.data();
    f.compBest = b.compBest.data();
    f.compKey = b.compKey.data();
    f.compOther = b.compOther.data();
    f.compW = b.compW.data();
    f.error = b.error.data();
    return f;
}

/// One Borůvka round on the device up to each component's chosen edge (vat_boruvka_kernels.cuh).
void chooseEdges(ForestBuffers& b, const cuda::VatForest& f, cuda::VatPasses& passes, int positions, int tiles) {
    const cudaStream_t s = cudaStreamPerThread;
    const unsigned grid = gridFor(static_cast<std::size_t>(positions), kThreads);
    cuda::vatTileCompKernel<<<gridFor(static_cast<std::size_t>(tiles), kThreads), kThreads, 0, s>>>(
        b.comp.data(), tiles, b.tileComp.data());
    CL_CUDA_CHECK_LAUNCH();
    CL_CUDA_TRY(cudaMemsetAsync(b.compUpper.data(), 0xff, b.compUpper.bytes(), s));
    CL_CUDA_TRY(cudaMemsetAsync(b.compBest.data(), 0xff, b.compBest.bytes(), s));
    CL_CUDA_TRY(cudaMemsetAsync(b.compKey.data(), 0xff, b.compKey.bytes(), s));
    cuda::vatResolveKernel<<<grid, kThreads, 0, s>>>(f);
    CL_CUDA_CHECK_LAUNCH();
    cuda::vatProbeFlagsKernel<<<grid, kThreads, 0, s>>>(f, b.flags.data());
    CL_CUDA_CHECK_LAUNCH();
    int count = b.select(positions, s);
    passes.nearest(b.selected.data(), count, true, f, b.tileComp.data());
    cuda::vatScanFlagsKernel<<<grid, kThreads, 0, s>>>(f, b.flags.data());
    CL_CUDA_CHECK_LAUNCH();
    count = b.select(positions, s);
    passes.nearest(b.selected.data(), count, false, f, b.tileComp.data());
    cuda::vatComponentMinKernel<<<grid, kThreads, 0, s>>>(f);
    CL_CUDA_CHECK_LAUNCH();
    cuda::vatComponentTieKernel<<<grid, kThreads, 0, s>>>(f);
    CL_CUDA_CHECK_LAUNCH();
    cuda::vatComponentEdgeKernel<<<grid, kThreads, 0, s>>>(f);
    CL_CUDA_CHECK_LAUNCH();
    unsigned int error = 0;
    b.error.copyToHost(&error, 1);
    if (error != 0)
        throw CudaError("minimum spanning tree: a Borůvka round broke an invariant (code " + std::to_string(error) +
                        ")");
}

/// The host side of a round: reads each component's chosen edge, joins the components with the
/// union-find (the component that sat the round out contributes none) and relabels the positions on
/// the device. O(k) host work for k components plus one O(P) relabelling launch.
class ComponentJoiner {
public:
    /// Returns the labels after the round; appends the new tree edges.
    std::vector<int> join(const std::vector<int>& labels, const cuda::VatForest& f, LabelSets& sets, int* labelMap,
                          std::vector<TreeEdge>& tree) {
        const cudaStream_t s = cudaStreamPerThread;
        const std::size_t k = labels.size();
        cuda::ensureCapacity(d_labels, k);
        cuda::ensureCapacity(d_to, k);
        cuda::ensureCapacity(d_key, k);
        cuda::ensureCapacity(d_w, k);
        d_labels.copyFromHost(labels.data(), k);
        cuda::vatGatherEdgesKernel<<<gridFor(k, kThreads), kThreads, 0, s>>>(f, d_labels.data(), static_cast<int>(k),
                                                                             d_key.data(), d_to.data(), d_w.data());
        CL_CUDA_CHECK_LAUNCH();
        m_key.resize(k), m_other.resize(k), m_w.resize(k);
        d_key.copyToHost(m_key.data(), k);
        d_to.copyToHost(m_other.data(), k);
        d_w.copyToHost(m_w.data(), k);
        for (std::size_t i = 0; i < k; ++i) {
            if (labels[i] == f.skip) continue;
            if (m_key[i] == cuda::kVatNoEdge)
                throw CudaError("minimum spanning tree: a component found no outgoing edge");
            if (sets.unite(labels[i], m_other[i]))
                tree.push_back(
                    TreeEdge{static_cast<int>(m_key[i] >> 32), static_cast<int>(m_key[i] & 0xffffffffu), m_w[i]});
        }
        std::vector<int> to(k);
        for (std::size_t i = 0; i < k; ++i) to[i] = sets.find(labels[i]);
        d_to.copyFromHost(to.data(), k);
        cuda::vatScatterKernel<<<gridFor(k, kThreads), kThreads, 0, s>>>(d_labels.data(), d_to.data(),
                                                                         static_cast<int>(k), labelMap);
        CL_CUDA_CHECK_LAUNCH();
        cuda::vatRelabelKernel<<<gridFor(static_cast<std::size_t>(f.positions), kThreads), kThreads, 0, s>>>(f,
                                                                                                             labelMap);
        CL_CUDA_CHECK_LAUNCH();
        std::sort(to.begin(), to.end());
        to.erase(std::unique(to.begin(), to.end()), to.end());
        if (to.size() >= k) throw CudaError("minimum spanning tree: a Borůvka round joined no components");
        return to;
    }

private:
    DeviceBuffer<int> d_labels, d_to;
    DeviceBuffer<unsigned long long> d_key;
    DeviceBuffer<double> d_w;
    std::vector<unsigned long long> m_key;
    std::vector<int> m_other;
    std::vector<double> m_w;
};

/// Every valid position its own component (labels: the positions), no cache, lower bounds -inf.
std::vector<int> initialComponents(ForestBuffers& b, const cuda::VatSpace& space) {
    const cudaStream_t s = cudaStreamPerThread;
    const std::size_t P = static_cast<std::size_t>(space.positions());
    std::vector<int> labels, init(P);
    for (std::size_t p = 0; p < P; ++p) {
        init[p] = space.perm()[p] >= 0 ? static_cast<int>(p) : -1;
        if (init[p] >= 0) labels.push_back(init[p]);
    }
    b.comp.copyFromHost(init.data(), P);
    std::iota(init.begin(), init.end(), 0);
    b.iota.copyFromHost(init.data(), P);
    CL_CUDA_TRY(cudaMemsetAsync(b.cachePos.data(), 0xff, b.cachePos.bytes(), s));
    CL_CUDA_TRY(cudaMemsetAsync(b.error.data(), 0, b.error.bytes(), s));
    cuda::vatFillKernel<double><<<gridFor(P, kThreads), kThreads, 0, s>>>(b.lb.data(), P, -INFINITY);
    CL_CUDA_CHECK_LAUNCH();
    return labels;
}

/// Borůvka's rounds (Borůvka 1926) over the prepared space: the n-1 tree edges. Each round the
/// largest component (ties: the smaller label) sits out; every other one certifies its lightest
/// outgoing edge on the device (chooseEdges) and the host joins them.
std::vector<TreeEdge> boruvkaTree(const cuda::VatSpace& space, cuda::VatPasses& passes, JobControl* control,
                                  cuda::VatTrace& trace) {
    const std::size_t P = static_cast<std::size_t>(space.positions());
    DeviceBuffer<int> knnPos;
    DeviceBuffer<double> knnBound;
    passes.knn(knnPos, knnBound);
    if (control) control->setProgress(0.2);

    const auto clock = std::chrono::steady_clock::now();
    ForestBuffers b(P, static_cast<std::size_t>(space.tileCount()), cudaStreamPerThread);
    std::vector<int> labels = initialComponents(b, space);
    cuda::VatForest f = forestView(b, space, knnPos, knnBound);
    LabelSets sets(P);
    ComponentJoiner joiner;
    std::vector<TreeEdge> tree;
    tree.reserve(static_cast<std::size_t>(space.n()) - 1);
    const double logN = std::log(static_cast<double>(labels.size()));
    while (labels.size() > 1) {
        ++trace.rounds;
        f.skip = labels[0];
        for (const int label : labels)
            if (sets.size(label) > sets.size(f.skip)) f.skip = label;
        chooseEdges(b, f, passes, space.positions(), space.tileCount());
        labels = joiner.join(labels, f, sets, b.labelMap.data(), tree);
        if (control) {
            control->checkCancelled();
            control->setProgress(0.2 + 0.75 * (1.0 - std::log(static_cast<double>(labels.size())) / logN));
        }
    }
    CL_CUDA_TRY(cudaStreamSynchronize(cudaStreamPerThread));
    trace.secondsRounds += cuda::secondsSince(clock);
    return tree;
}

/// Prim's algorithm (Prim 1957) restricted to a spanning tree, from `start`: the frontier vertex of
/// smallest (weight, index) joins next through its tree neighbour — vatFromTree's rule, here with
/// 16-byte heap entries and compressed adjacency (a tree pushes every vertex exactly once).
/// O(N log N) time, O(N) memory.
std::vector<MstEdge> primWalk(const std::vector<MstEdge>& tree, std::size_t n, std::size_t start) {
    std::vector<std::uint32_t> offset(n + 1, 0);
    for (const MstEdge& e : tree) {
        ++offset[static_cast<std::size_t>(e.u) + 1];
        ++offset[static_cast<std::size_t>(e.v) + 1];
    }
    std::partial_sum(offset.begin(), offset.end(), offset.begin());
    std::vector<std::uint32_t> fill(offset.begin(), offset.end() - 1);
    std::vector<std::uint32_t> neighbour(2 * tree.size());
    std::vector<double> weight(2 * tree.size());
    for (const MstEdge& e : tree) {
        const auto u = static_cast<std::uint32_t>(e.u), v = static_cast<std::uint32_t>(e.v);
        neighbour[fill[u]] = v, weight[fill[u]++] = e.w;
        neighbour[fill[v]] = u, weight[fill[v]++] = e.w;
    }
    struct Entry {
        double w;
        std::uint32_t v;
        std::uint32_t u;
    };
    const auto later = [](const Entry& a, const Entry& b) { return a.w > b.w || (a.w == b.w && a.v > b.v); };
    std::vector<Entry> heap;
    std::vector<char> placed(n, 0);
    std::vector<MstEdge> edges;
    edges.reserve(n - 1);
    const auto place = [&](std::uint32_t v) {
        placed[v] = 1;
        for (std::uint32_t a = offset[v]; a < offset[v + 1]; ++a)
            if (!placed[neighbour[a]]) {
                heap.push_back(Entry{weight[a], neighbour[a], v});
                std::push_heap(heap.begin(), heap.end(), later);
            }
    };
    place(static_cast<std::uint32_t>(start));
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        const Entry e = heap.back();
        heap.pop_back();
        if (placed[e.v]) throw CudaError("minimum spanning tree: the Borůvka edges contain a cycle");
        edges.push_back(MstEdge{e.u, e.v, e.w});
        place(e.v);
    }
    if (edges.size() + 1 != n) throw CudaError("minimum spanning tree: the Borůvka edges do not span all points");
    return edges;
}

}  // namespace

namespace {

/// The tree of a prepared point set walked into Prim's order from `start`, with the reference
/// weights (the device decided with the same bits; a difference would be a bug and throws).
std::vector<MstEdge> orderedTree(const cuda::VatSpace& space, cuda::VatPasses& passes, const float* x, std::size_t n,
                                 std::size_t d, Metric metric, JobControl* control, std::size_t start,
                                 cuda::VatTrace& trace) {
    const std::vector<TreeEdge> tree = boruvkaTree(space, passes, control, trace);
    if (tree.size() + 1 != n) throw CudaError("minimum spanning tree: the Borůvka rounds did not give n-1 edges");
    const auto clock = std::chrono::steady_clock::now();
    std::vector<MstEdge> edges;
    edges.reserve(n - 1);
    for (const TreeEdge& e : tree) {
        const double w = metricDistance(x + std::size_t(e.lo) * d, x + std::size_t(e.hi) * d, d, metric);
        if (w != e.w) throw CudaError("minimum spanning tree: GPU and CPU distances differ");
        edges.push_back(MstEdge{e.lo, e.hi, w});
    }
    std::vector<MstEdge> ordered = primWalk(edges, n, start);
    trace.secondsWalk = cuda::secondsSince(clock);
    if (control) control->setProgress(1.0);
    return ordered;
}

/// The point set prepared once for every pass of one call.
struct PreparedSpace {
    cuda::VatTrace trace;
    std::unique_ptr<cuda::VatSpace> space;

    PreparedSpace(const float* x, std::size_t n, std::size_t d, Metric metric, JobControl* control) {
        const auto clock = std::chrono::steady_clock::now();
        space = std::make_unique<cuda::VatSpace>(x, n, d, metric);
        trace.secondsPrepare = cuda::secondsSince(clock);
        trace.tileCount = space->tileCount();
        trace.outlierTiles = space->outlierTiles();
        if (control) control->checkCancelled();
    }
};

}  // namespace

std::vector<MstEdge> minimumSpanningTreeCuda(const float* x, std::size_t n, std::size_t d, Metric metric,
                                             JobControl* control, std::size_t start) {
    checkInput(x, n, d, metric, 1, "the minimum spanning tree");
    if (start >= n)
        throw InvalidInput("the minimum spanning tree start point " + std::to_string(start) +
                           " is not below the number of points " + std::to_string(n));
    if (n == 1) return {};
    PreparedSpace prepared(x, n, d, metric, control);
    cuda::VatPasses passes(*prepared.space, control, prepared.trace);
    std::vector<MstEdge> ordered =
        orderedTree(*prepared.space, passes, x, n, d, metric, control, start, prepared.trace);
    return ordered;
}

std::pair<std::size_t, std::vector<MstEdge>> vatTreeCuda(const float* x, std::size_t n, std::size_t d, Metric metric,
                                                         JobControl* control, std::string* trace) {
    checkInput(x, n, d, metric, 2, "VAT");
    PreparedSpace prepared(x, n, d, metric, control);
    // Separate pass objects, so the tree's passes start from the state a plain tree call has.
    const std::size_t start = cuda::VatPasses(*prepared.space, control, prepared.trace).farthest().first;
    cuda::VatPasses passes(*prepared.space, control, prepared.trace);
    std::vector<MstEdge> ordered =
        orderedTree(*prepared.space, passes, x, n, d, metric, control, start, prepared.trace);
    if (trace) *trace = prepared.trace.describe("VAT tree");
    return {start, std::move(ordered)};
}

std::pair<std::size_t, std::size_t> farthestPairCuda(const float* x, std::size_t n, std::size_t d, Metric metric,
                                                     JobControl* control) {
    checkInput(x, n, d, metric, 2, "VAT");
    PreparedSpace prepared(x, n, d, metric, control);
    cuda::VatPasses passes(*prepared.space, control, prepared.trace);
    const auto pair = passes.farthest();
    return pair;
}

CL_CUDA_KERNEL_MODULE(cuda::vatResolveKernel)

}  // namespace clusterlens
