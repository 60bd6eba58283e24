// Borůvka's minimum spanning tree on a kd-tree over the distinct points (see tree_mst.hpp), the
// collapse of equal points, and the choice between it and the all-pairs Prim.

#include "cpu/tree_mst.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "clusterlens/errors.hpp"
#include "clusterlens/vat/vat.hpp"
#include "cpu/tree_mst_detail.hpp"

namespace clusterlens {

MstIndex parseMstIndex(const std::string& text) {
    if (text == "auto") return MstIndex::Auto;
    if (text == "allpairs") return MstIndex::AllPairs;
    if (text == "tree") return MstIndex::Tree;
    throw InvalidInput("--index: unknown value '" + text + "' (expected auto, allpairs or tree)");
}

}  // namespace clusterlens

namespace clusterlens::cpu {

namespace {
using tree_mst::kNone;

/// The lightest edge leaving one component that a task has seen, and whether another edge of the
/// same weight leaves it too.
struct Lightest {
    double w = std::numeric_limits<double>::infinity();
    std::uint32_t inside = kNone;
    std::uint32_t outside = kNone;
    bool tie = false;

    void offer(double weight, std::uint32_t a, std::uint32_t b) {
        if (weight < w) {
            *this = Lightest{weight, a, b, false};
        } else if (weight == w && (a != inside || b != outside)) {
            tie = true;
        }
    }
    /// Joins another task's finding for the same component (the same edge when both started from the
    /// known ones).
    void join(const Lightest& other) {
        if (other.w < w) {
            *this = other;
        } else if (other.w == w && other.inside != kNone) {
            tie = tie || other.tie || other.inside != inside || other.outside != outside;
        }
    }
};

struct UnionFind {
    std::vector<std::uint32_t> parent;

    explicit UnionFind(std::size_t m) : parent(m) { std::iota(parent.begin(), parent.end(), std::uint32_t{0}); }
    std::uint32_t find(std::uint32_t v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    }
};

/// Component labels at the start of a round: per leaf position, and per node where all its points
/// share one component (kNone where they do not).
struct Labels {
    std::vector<std::uint32_t> atPosition;
    std::vector<std::uint32_t> atNode;
    std::vector<char> searching;  ///< per component: whether its points search this round

    void update(const KdTree& tree, UnionFind& components) {
        const std::size_t m = tree.size();
        atPosition.resize(m);
        for (std::size_t p = 0; p < m; ++p) atPosition[p] = components.find(tree.pointAt(p));
        const auto& nodes = tree.nodes();
        atNode.assign(nodes.size(), kNone);
        // Children follow their parent in the node list, so a backward pass sees them first.
        for (std::size_t k = nodes.size(); k-- > 0;) {
            const KdTree::Node& node = nodes[k];
            if (node.left >= 0) {
                const std::uint32_t l = atNode[static_cast<std::size_t>(node.left)];
                atNode[k] = l == atNode[static_cast<std::size_t>(node.right)] ? l : kNone;
                continue;
            }
            const std::uint32_t first = atPosition[node.begin];
            const bool same = std::all_of(atPosition.begin() + node.begin, atPosition.begin() + node.end,
                                          [first](std::uint32_t c) { return c == first; });
            atNode[k] = same ? first : kNone;
        }
        chooseSearching(m);
    }

    /// Components whose points search this round: those of at most the median size. Borůvka stays
    /// exact when only some components add their lightest edge; the smaller half is cheap to certify,
    /// while a large component whose lightest edge is long would have every point search far (in a
    /// dozen dimensions nearly all points) — it joins through the smaller ones' edges instead.
    void chooseSearching(std::size_t m) {
        std::vector<std::uint32_t> size(m, 0);
        for (const std::uint32_t c : atPosition) ++size[c];
        std::vector<std::uint32_t> sizes;
        for (const std::uint32_t s : size)
            if (s > 0) sizes.push_back(s);
        const auto middle = sizes.begin() + static_cast<std::ptrdiff_t>((sizes.size() - 1) / 2);
        std::nth_element(sizes.begin(), middle, sizes.end());
        searching.resize(m);
        for (std::size_t c = 0; c < m; ++c) searching[c] = size[c] > 0 && size[c] <= *middle ? 1 : 0;
    }
};

/// Per component, the lightest edge weight any thread has seen leave it this round: a bound all
/// threads prune with.
class SharedBounds {
public:
    explicit SharedBounds(std::size_t m) : m_bound(m) {}
    void reset(const std::vector<Lightest>& known) {
        for (std::size_t c = 0; c < m_bound.size(); ++c) m_bound[c].store(known[c].w, std::memory_order_relaxed);
    }
    double get(std::uint32_t c) const { return m_bound[c].load(std::memory_order_relaxed); }
    void lower(std::uint32_t c, double w) {
        double now = m_bound[c].load(std::memory_order_relaxed);
        while (w < now && !m_bound[c].compare_exchange_weak(now, w, std::memory_order_relaxed)) {
        }
    }

private:
    std::vector<std::atomic<double>> m_bound;
};

/// What the last search from a point learned: every point outside its component then was at least
/// `low` away, and `near` (a position) was the nearest of them, alone at that distance unless `tied`.
/// Components only grow, so `low` stays a lower bound and `near`, while outside, stays the nearest.
struct PointMemo {
    std::vector<double> low;
    std::vector<std::uint32_t> near;
    std::vector<char> tied;

    explicit PointMemo(std::size_t m) : low(m, 0.0), near(m, kNone), tied(m, 0) {}
};

/// Offers best[c] every edge from the point at position p to a point of another component that could
/// be lighter than or as light as the lightest one known (c = p's component), and updates p's memo.
/// Skips the point when its memo already says (pass of knownNearest) or proves it has no such edge.
void searchOutside(const KdTree& tree, const Labels& labels, const tree_mst::Key& key, std::size_t p,
                   tree_mst::Scratch& scratch, std::vector<Lightest>& best, SharedBounds& shared, PointMemo& memo) {
    const std::uint32_t c = labels.atPosition[p];
    const auto limit = [&] { return std::min(best[c].w, shared.get(c)); };
    if (!labels.searching[c] || memo.near[p] != kNone || memo.low[p] > limit()) return;
    const std::uint32_t self = tree.pointAt(p);
    tree.load(self, scratch.q.data());
    Lightest own;  // p's nearest outside point, as a position
    const auto& nodes = tree.nodes();
    auto& stack = scratch.stack;
    stack.clear();
    stack.push_back({0, 0.0});
    while (!stack.empty()) {
        const auto [id, bound] = stack.back();
        stack.pop_back();
        if (bound > key.reach(limit())) continue;
        const KdTree::Node& node = nodes[id];
        if (node.left < 0) {
            tree_mst::scanLeaf(tree, scratch, node, [&](std::size_t position, double squared) {
                if (labels.atPosition[position] == c) return;
                const double w = key.weight(squared);
                if (w > limit()) return;
                const std::uint32_t other = tree.pointAt(position);
                own.offer(w, self, static_cast<std::uint32_t>(position));
                // The edge leaves both components: it bounds the other one's lightest edge too.
                best[c].offer(w, self, other);
                best[labels.atPosition[position]].offer(w, other, self);
                shared.lower(c, w);
                shared.lower(labels.atPosition[position], w);
            });
            continue;
        }
        tree_mst::NodeBound children[2];
        std::size_t count = 0;
        for (const std::int32_t child : {node.left, node.right}) {
            const auto k = static_cast<std::size_t>(child);
            if (labels.atNode[k] == c) continue;
            const double lower = tree.lowerBound(scratch.q.data(), k);
            if (lower <= key.reach(limit())) children[count++] = {k, lower};
        }
        if (count == 2 && children[0].bound < children[1].bound) std::swap(children[0], children[1]);
        for (std::size_t i = 0; i < count; ++i) stack.push_back(children[i]);
    }
    // Every outside point up to the final limit was seen: own is exact when it lies within it.
    const double reached = limit();
    if (own.w <= reached) {
        memo.low[p] = own.w;
        memo.near[p] = own.outside;
        memo.tied[p] = own.tie ? 1 : 0;
    } else {
        memo.low[p] = std::max(memo.low[p], reached);
    }
}

/// The lightest edges the memos already know: points whose nearest outside point is still outside.
/// Forgets the nearest points that the last round joined to their component. O(m).
void knownNearest(const KdTree& tree, const Labels& labels, PointMemo& memo, std::vector<Lightest>& known) {
    std::fill(known.begin(), known.end(), Lightest{});
    for (std::size_t p = 0; p < memo.near.size(); ++p) {
        const std::uint32_t near = memo.near[p];
        if (near == kNone) continue;
        const std::uint32_t c = labels.atPosition[p];
        if (labels.atPosition[near] == c) {
            memo.near[p] = kNone;
            continue;
        }
        const std::uint32_t a = tree.pointAt(p), b = tree.pointAt(near);
        known[c].offer(memo.low[p], a, b);
        if (memo.tied[p] && known[c].w == memo.low[p]) known[c].tie = true;
        known[labels.atPosition[near]].offer(memo.low[p], b, a);
    }
}

}  // namespace

DistinctPoints collapseDuplicates(const float* x, std::size_t n, std::size_t d) {
    std::vector<std::uint32_t> byValue(n);
    std::iota(byValue.begin(), byValue.end(), std::uint32_t{0});
    std::stable_sort(byValue.begin(), byValue.end(), [x, d](std::uint32_t a, std::uint32_t b) {
        const float* pa = x + static_cast<std::size_t>(a) * d;
        const float* pb = x + static_cast<std::size_t>(b) * d;
        return std::lexicographical_compare(pa, pa + d, pb, pb + d);
    });
    DistinctPoints r;
    r.d = d;
    r.group.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t i = byValue[k];
        const float* p = x + static_cast<std::size_t>(i) * d;
        const bool fresh = k == 0 || !std::equal(p, p + d, x + static_cast<std::size_t>(byValue[k - 1]) * d);
        if (fresh) {
            r.rep.push_back(i);  // the stable sort puts the group's smallest index first
            r.values.insert(r.values.end(), p, p + d);
        }
        r.group[i] = static_cast<std::uint32_t>(r.rep.size() - 1);
    }
    return r;
}

TreeMstSearch::TreeMstSearch(const float* x, std::size_t n, std::size_t d, bool squared)
    : m_n(n),
      m_d(d),
      m_squared(squared),
      m_points(collapseDuplicates(x, n, d)),
      m_tree(m_points.values.data(), m_points.size(), d, 32) {}

std::optional<std::vector<MstEdge>> TreeMstSearch::spanningTree(std::size_t start, JobControl* control, double from,
                                                                double to) const {
    const std::size_t m = m_points.size();
    const tree_mst::Key key{m_squared};
    UnionFind components(m);
    Labels labels;
    ThreadPool pool;
    std::vector<std::vector<Lightest>> found(pool.size(), std::vector<Lightest>(m));
    std::vector<Lightest> known(m);
    PointMemo memo(m);
    SharedBounds shared(m);
    std::vector<std::uint32_t> roots;
    std::vector<MstEdge> distinctEdges;
    distinctEdges.reserve(m > 0 ? m - 1 : 0);
    for (std::size_t round = 0; distinctEdges.size() + 1 < m; ++round) {
        labels.update(m_tree, components);
        knownNearest(m_tree, labels, memo, known);
        shared.reset(known);
        std::atomic<std::size_t> next{0};
        pool.run(found.size(), [&](std::size_t t) {
            std::vector<Lightest>& best = found[t];
            std::copy(known.begin(), known.end(), best.begin());
            tree_mst::Scratch scratch(m_d);
            for (std::size_t b = next.fetch_add(tree_mst::kPointsPerBlock); b < m;
                 b = next.fetch_add(tree_mst::kPointsPerBlock)) {
                if (control) control->checkCancelled();
                for (std::size_t p = b; p < std::min(m, b + tree_mst::kPointsPerBlock); ++p)
                    searchOutside(m_tree, labels, key, p, scratch, best, shared, memo);
            }
        });
        roots.clear();
        for (std::uint32_t c = 0; c < m; ++c) {
            if (components.find(c) != c || !labels.searching[c]) continue;
            Lightest merged = found[0][c];
            for (std::size_t t = 1; t < found.size(); ++t) merged.join(found[t][c]);
            if (merged.tie) return std::nullopt;
            found[0][c] = merged;
            roots.push_back(c);
        }
        for (const std::uint32_t c : roots) {
            const Lightest& e = found[0][c];
            if (e.inside == kNone) continue;
            const std::uint32_t a = components.find(e.inside), b = components.find(e.outside);
            if (a == b) continue;  // both components picked this edge
            components.parent[a] = b;
            distinctEdges.push_back(MstEdge{e.inside, e.outside, e.w});
        }
        if (control) control->setProgress(from + (to - from) * (1.0 - std::ldexp(1.0, -static_cast<int>(round + 1))));
    }
    return onInputPoints(distinctEdges, start);
}

std::vector<MstEdge> TreeMstSearch::onInputPoints(const std::vector<MstEdge>& distinctEdges, std::size_t start) const {
    // Each group's first point (or `start`) stands for it; the other members hang on it at weight 0.
    const std::uint32_t startGroup = m_points.group[start];
    const auto standIn = [&](std::uint32_t g) -> std::int64_t {
        return g == startGroup ? static_cast<std::int64_t>(start) : static_cast<std::int64_t>(m_points.rep[g]);
    };
    std::vector<MstEdge> tree;
    tree.reserve(m_n - 1);
    for (const MstEdge& e : distinctEdges)
        tree.push_back(
            MstEdge{standIn(static_cast<std::uint32_t>(e.u)), standIn(static_cast<std::uint32_t>(e.v)), e.w});
    for (std::size_t i = 0; i < m_n; ++i) {
        const std::int64_t first = standIn(m_points.group[i]);
        if (static_cast<std::int64_t>(i) != first) tree.push_back(MstEdge{first, static_cast<std::int64_t>(i), 0.0});
    }
    return tree;
}

bool usesTreeMst(std::size_t n, std::size_t d, Metric metric, MstIndex index) {
    const bool euclidean = metric == Metric::Euclidean || metric == Metric::SqEuclidean;
    if (index == MstIndex::Tree && !euclidean)
        throw InvalidInput(std::string("--index tree: the kd-tree spanning tree needs the euclidean or sqeuclidean "
                                       "metric, not ") +
                           metricName(metric) + "; use --index allpairs");
    // A kd-tree prunes well once the points outnumber its 2^d orthants several times (at d = 14 the
    // all-pairs Prim still wins at 20K points on 2 cores, docs/benchmarks.md).
    if (index == MstIndex::Auto)
        return euclidean && d <= kTreeMstMaxDimension && n >= kTreeMstMinPoints && n >= (std::size_t{4} << d);
    return index == MstIndex::Tree;
}

std::vector<MstEdge> primOrderTree(const float* x, std::size_t n, std::size_t d, Metric metric,
                                   const TreeMstSearch* search, std::size_t start, JobControl* control, double from,
                                   double to, bool* usedTree) {
    if (usedTree) *usedTree = false;
    if (search) {
        if (auto tree = search->spanningTree(start, control, from, to)) {
            if (usedTree) *usedTree = true;
            return vatFromTree(*tree, n, start).edges;
        }
    }
    const auto source = [&](const std::uint32_t* fringe, std::size_t count) {
        return PointSource<float>(x, d, metric, fringe, count);
    };
    return primFromStart(source, n, control, start, from, to);
}

}  // namespace clusterlens::cpu
