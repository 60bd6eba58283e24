// VAT order (Bezdek & Hathaway 2002) from an exact minimum spanning tree: the start point, Prim's walk
// of the tree, the backend dispatch, and the flat clusterings given by the largest cuts.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <queue>
#include <string>

#include "clusterlens/errors.hpp"
#include "clusterlens/vat/vat.hpp"
#include "backend_dispatch.hpp"
#include "clusterlens/vat/vat_cuda.hpp"
#include "cpu/classic_linkage_detail.hpp"
#include "cpu/tree_mst.hpp"
#include "cpu/vat_kernels.hpp"

namespace clusterlens {

namespace {

double orderSecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void checkVatPoints(const float* x, std::size_t n, std::size_t d, Metric metric) {
    cpu::checkPoints(x, n, d, 2, "VAT");
    if (n > std::numeric_limits<std::uint32_t>::max() - 1)
        throw InvalidInput("VAT supports at most 4 294 967 294 points, got " + std::to_string(n));
    if (metric == Metric::Cosine) cpu::checkNoZeroRows(x, n, d, "VAT with the cosine metric");
}

// The farthest pair of the points (VAT's start, DESIGN.md) over a source holding all of them.
cpu::FarPair farthestPoints(const float* x, std::size_t n, std::size_t d, Metric metric, JobControl* control,
                            double from, double to) {
    std::vector<std::uint32_t> all(n);
    std::iota(all.begin(), all.end(), std::uint32_t{0});
    const cpu::PointSource<float> source(x, d, metric, all.data(), n);
    return cpu::farthestPairScan(source, n, control, from, to);
}

// Fills order and cut from edges already in Prim order from `start`, checking that they are: every
// edge adds a new vertex to the tree through a vertex placed before it. O(N).
void fillFromPrimEdges(VatResult& r) {
    const std::size_t n = r.n;
    if (r.edges.size() + 1 != n)
        throw Error("VAT: the spanning tree has " + std::to_string(r.edges.size()) + " edges for " + std::to_string(n) +
                    " points");
    std::vector<char> placed(n, 0);
    placed[r.start] = 1;
    r.order.assign(n, 0);
    r.cut.assign(n, 0.0);
    r.order[0] = static_cast<std::int64_t>(r.start);
    for (std::size_t k = 0; k + 1 < n; ++k) {
        const MstEdge& e = r.edges[k];
        const bool inRange =
            e.u >= 0 && e.v >= 0 && static_cast<std::size_t>(e.u) < n && static_cast<std::size_t>(e.v) < n;
        if (!inRange || !placed[static_cast<std::size_t>(e.u)] || placed[static_cast<std::size_t>(e.v)])
            throw Error("VAT: the spanning tree edges are not in Prim order (edge " + std::to_string(k) + ")");
        placed[static_cast<std::size_t>(e.v)] = 1;
        r.order[k + 1] = e.v;
        r.cut[k + 1] = e.w;
    }
}

}  // namespace

std::pair<std::size_t, std::size_t> farthestPairCpu(const float* x, std::size_t n, std::size_t d, Metric metric,
                                                    JobControl* control) {
    checkVatPoints(x, n, d, metric);
    const cpu::FarPair far = farthestPoints(x, n, d, metric, control, 0.0, 1.0);
    return {far.i, far.j};
}

VatResult vatFromTree(const std::vector<MstEdge>& tree, std::size_t n, std::size_t start) {
    if (n == 0) throw InvalidInput("VAT needs at least 1 point, got 0");
    if (start >= n)
        throw InvalidInput("VAT start point " + std::to_string(start) + " is not below the number of points " +
                           std::to_string(n));
    if (tree.size() + 1 != n)
        throw InvalidInput("a spanning tree of " + std::to_string(n) + " points has " + std::to_string(n - 1) +
                           " edges, got " + std::to_string(tree.size()));
    // Adjacency in compressed rows: offsets (n+1) and (neighbour, edge) pairs (2(n-1)).
    std::vector<std::size_t> offset(n + 1, 0);
    for (const MstEdge& e : tree) {
        const bool inRange =
            e.u >= 0 && e.v >= 0 && static_cast<std::size_t>(e.u) < n && static_cast<std::size_t>(e.v) < n;
        if (!inRange) throw InvalidInput("a spanning tree edge names a point outside 0.." + std::to_string(n - 1));
        if (!(e.w == e.w)) throw InvalidInput("a spanning tree edge has a NaN weight");
        ++offset[static_cast<std::size_t>(e.u) + 1];
        ++offset[static_cast<std::size_t>(e.v) + 1];
    }
    std::partial_sum(offset.begin(), offset.end(), offset.begin());
    std::vector<std::size_t> fill(offset.begin(), offset.end() - 1);
    std::vector<std::uint32_t> incident(2 * tree.size());
    for (std::size_t k = 0; k < tree.size(); ++k) {
        incident[fill[static_cast<std::size_t>(tree[k].u)]++] = static_cast<std::uint32_t>(k);
        incident[fill[static_cast<std::size_t>(tree[k].v)]++] = static_cast<std::uint32_t>(k);
    }
    // Prim's rule on the tree: a min-heap of frontier edges keyed (weight, new vertex).
    struct Entry {
        double w;
        std::int64_t vertex;
        std::int64_t from;
        bool operator>(const Entry& o) const { return w > o.w || (w == o.w && vertex > o.vertex); }
    };
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    std::vector<char> placed(n, 0);
    VatResult r;
    r.n = n;
    r.start = start;
    r.edges.reserve(n - 1);
    auto place = [&](std::size_t v) {
        placed[v] = 1;
        for (std::size_t a = offset[v]; a < offset[v + 1]; ++a) {
            const MstEdge& e = tree[incident[a]];
            const auto other = static_cast<std::size_t>(e.u == static_cast<std::int64_t>(v) ? e.v : e.u);
            if (!placed[other]) heap.push(Entry{e.w, static_cast<std::int64_t>(other), static_cast<std::int64_t>(v)});
        }
    };
    place(start);
    while (!heap.empty()) {
        const Entry top = heap.top();
        heap.pop();
        if (placed[static_cast<std::size_t>(top.vertex)]) continue;
        r.edges.push_back(MstEdge{top.from, top.vertex, top.w});
        place(static_cast<std::size_t>(top.vertex));
    }
    if (r.edges.size() + 1 != n) throw InvalidInput("the edges do not connect all " + std::to_string(n) + " points");
    fillFromPrimEdges(r);
    return r;
}

double cpuVatSecondsEstimate(std::size_t n, std::size_t d, Metric metric, std::size_t threads) {
    const double cpuSeconds = cpu::usesTreeMst(n, d, metric, MstIndex::Auto)
                                  ? 41.4 * std::pow(static_cast<double>(n) / 2e5, 1.73) * static_cast<double>(d) / 14.0
                                  : 3.2e-10 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(d);
    return cpuSeconds / static_cast<double>(std::max<std::size_t>(threads, 1));
}

VatResult computeVat(const float* x, std::size_t n, std::size_t d, const VatOptions& options, JobControl* control) {
    // Both backends reject the same input with the same message (1-based point numbers).
    checkVatPoints(x, n, d, options.metric);
    VatResult r;
    r.n = n;
    r.metric = options.metric;
    const auto treeClock = std::chrono::steady_clock::now();
    const auto onCpu = [&] {
        std::optional<cpu::TreeMstSearch> search;
        if (cpu::usesTreeMst(n, d, options.metric, options.index))
            search.emplace(x, n, d, options.metric == Metric::SqEuclidean);
        r.start = search ? search->farthestPair(control, 0.0, 0.5).i
                         : farthestPoints(x, n, d, options.metric, control, 0.0, 0.5).i;
        bool usedTree = false;
        r.edges = cpu::primOrderTree(x, n, d, options.metric, search ? &*search : nullptr, r.start, control, 0.5, 1.0,
                                     &usedTree);
        r.index = !search ? "allpairs" : (usedTree ? "tree" : "tree+allpairs");
    };
    const auto onCuda = [&] {
        auto [start, edges] = vatTreeCuda(x, n, d, options.metric, control, options.trace ? &r.trace : nullptr);
        r.start = start;
        r.edges = std::move(edges);
    };
    r.backend = backendDescription(detail::runOnBackend("VAT", options.backend, onCpu, onCuda, r.warnings, control));
    r.secondsTree = orderSecondsSince(treeClock);
    const auto orderClock = std::chrono::steady_clock::now();
    fillFromPrimEdges(r);
    r.secondsOrder = orderSecondsSince(orderClock);
    if (control) control->setProgress(1.0);
    return r;
}

std::vector<std::size_t> largestCutPositions(const VatResult& vat, std::size_t k) {
    const std::size_t n = vat.cut.size();
    if (k < 1 || k > n)
        throw InvalidInput("the number of clusters must lie in 1.." + std::to_string(n) + ", got " + std::to_string(k));
    std::vector<std::size_t> positions(n - 1);
    std::iota(positions.begin(), positions.end(), std::size_t{1});
    // A strict total order (larger cut first, then the earlier position), so the choice is unique.
    const auto before = [&](std::size_t a, std::size_t b) {
        return vat.cut[a] > vat.cut[b] || (vat.cut[a] == vat.cut[b] && a < b);
    };
    if (k - 1 < positions.size())
        std::nth_element(positions.begin(), positions.begin() + static_cast<std::ptrdiff_t>(k - 1), positions.end(),
                         before);
    positions.resize(k - 1);
    std::sort(positions.begin(), positions.end());
    return positions;
}

std::vector<int> labelsFromLargestCuts(const VatResult& vat, std::size_t k) {
    const std::vector<std::size_t> boundaries = largestCutPositions(vat, k);
    if (vat.order.size() != vat.cut.size()) throw InvalidInput("VAT result: order and cut differ in length");
    std::vector<int> labels(vat.order.size(), 0);
    int label = 0;
    std::size_t next = 0;
    for (std::size_t p = 0; p < vat.order.size(); ++p) {
        if (next < boundaries.size() && boundaries[next] == p) {
            ++label;
            ++next;
        }
        labels[static_cast<std::size_t>(vat.order[p])] = label;
    }
    return labels;
}

}  // namespace clusterlens
