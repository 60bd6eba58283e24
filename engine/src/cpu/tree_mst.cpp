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

constexpr double kInfinity = std::numeric_limits<double>::infinity();

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

/// Searching components from which each searches alone with its own outsideBoxes (an O(m·d) pass).
constexpr std::size_t kFewComponents = 64;

/// Component labels at the start of a round: per leaf position, and per node where all its points
/// share one component (kNone where they do not).
struct Labels {
    std::vector<std::uint32_t> atPosition;
    std::vector<std::uint32_t> atNode;
    std::vector<char> searching;  ///< per component: whether its points search this round
    std::size_t searchingCount = 0;

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
        searchingCount = static_cast<std::size_t>(std::count(searching.begin(), searching.end(), 1));
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

/// Per node, the bounding box of its points outside component c, laid out as KdTree's boxes; empty
/// (+inf, -inf) where all of them are in c. In the last rounds a few large components search far and
/// their nodes hold points of several components: the box of the others alone prunes far more. O(m·d).
void outsideBoxes(const KdTree& tree, const Labels& labels, std::uint32_t c, std::vector<float>& boxes) {
    const std::size_t d = tree.dimension();
    const auto& nodes = tree.nodes();
    boxes.resize(nodes.size() * 2 * d);
    // Children follow their parent in the node list, so a backward pass sees them first.
    for (std::size_t v = nodes.size(); v-- > 0;) {
        float* lo = boxes.data() + v * 2 * d;
        float* hi = lo + d;
        std::fill(lo, hi, std::numeric_limits<float>::infinity());
        std::fill(hi, hi + d, -std::numeric_limits<float>::infinity());
        const KdTree::Node& node = nodes[v];
        if (labels.atNode[v] == c) continue;
        if (node.left >= 0) {
            for (const std::int32_t child : {node.left, node.right}) {
                const float* box = boxes.data() + static_cast<std::size_t>(child) * 2 * d;
                for (std::size_t k = 0; k < d; ++k) {
                    lo[k] = std::min(lo[k], box[k]);
                    hi[k] = std::max(hi[k], box[d + k]);
                }
            }
            continue;
        }
        for (std::size_t k = 0; k < d; ++k)
            for (std::size_t p = node.begin; p < node.end; ++p) {
                if (labels.atPosition[p] == c) continue;
                lo[k] = std::min(lo[k], tree.coordinate(p, k));
                hi[k] = std::max(hi[k], tree.coordinate(p, k));
            }
    }
}

/// Offers best[c] every edge from the point at position p to a point of another component that could
/// be lighter than or as light as the lightest one known (c = p's component), and updates p's memo.
/// Skips the point when its memo already says (pass of knownNearest) or proves it has no such edge.
/// `outside` (if given) holds outsideBoxes for c.
void searchOutside(const KdTree& tree, const Labels& labels, const tree_mst::Key& key, std::size_t p,
                   const float* outside, tree_mst::Scratch& scratch, std::vector<Lightest>& best, SharedBounds& shared,
                   PointMemo& memo) {
    const std::uint32_t c = labels.atPosition[p];
    const auto limit = [&] { return std::min(best[c].w, shared.get(c)); };
    if (!labels.searching[c] || memo.near[p] != kNone || memo.low[p] > limit()) return;
    const std::uint32_t self = tree.pointAt(p);
    tree.load(self, scratch.q.data());
    tree.load(self, scratch.qf.data());
    // Lanes certainly beyond the limit are skipped; the limit only falls, so one taken at the start of a
    // block stays valid through it.
    const auto screen = [&] {
        const double reach = key.reach(limit());
        return ScreenBound{-1.0f, screenBound(std::nextafter(reach, kInfinity), tree.dimension()).atOrAbove};
    };
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
            screenLeaf(tree, scratch.qf.data(), scratch.q.data(), node.begin, node.end, screen, nullptr,
                       [&](std::size_t position, double squared) {
                           // Most points lie beyond the limit: the squared test spares their square roots.
                           if (labels.atPosition[position] == c || squared > key.reach(limit())) return;
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
            const double lower = outside ? tree.lowerBound(scratch.q.data(), outside + k * 2 * tree.dimension())
                                         : tree.lowerBound(scratch.q.data(), k);
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

/// The positions that may search this round (in a searching component, no remembered nearest outside
/// point), those with the smallest known distance to the outside first: they lie on their
/// components' borders, find the lightest edges early and so tighten the bounds that spare the
/// searches from deeper inside. The order changes no result.
void searchOrder(const Labels& labels, const PointMemo& memo, std::vector<std::uint32_t>& queue) {
    queue.clear();
    for (std::size_t p = 0; p < memo.near.size(); ++p)
        if (labels.searching[labels.atPosition[p]] && memo.near[p] == kNone)
            queue.push_back(static_cast<std::uint32_t>(p));
    std::stable_sort(queue.begin(), queue.end(),
                     [&memo](std::uint32_t a, std::uint32_t b) { return memo.low[a] < memo.low[b]; });
}

/// Progress of the spanning tree from `from` to `to`. A round covers the log-scale share of the
/// components it joins (it leaves at most 3/4 of them: at least half the components search, and each
/// search joins two), and inside a round the share of its searches done. The last rounds, a few
/// components joined by long edges, take much of the time; a count of rounds showed 100 % for minutes.
class RoundProgress {
public:
    RoundProgress(JobControl* control, double from, double to, std::size_t m)
        : m_control(control),
          m_from(from),
          m_to(to),
          m_logM(std::log(static_cast<double>(std::max<std::size_t>(m, 2)))) {}

    void startRound(std::size_t components, std::size_t searches) {
        m_roundFrom = share(components);
        m_roundTo = share(std::max<std::size_t>(1, components * 3 / 4));
        m_searches = std::max<std::size_t>(searches, 1);
        m_done.store(0, std::memory_order_relaxed);
        report(0);
    }
    /// Thread-safe.
    void searched(std::size_t count) { report(m_done.fetch_add(count, std::memory_order_relaxed) + count); }

private:
    double share(std::size_t components) const {
        return 1.0 - std::log(static_cast<double>(std::max<std::size_t>(components, 1))) / m_logM;
    }
    void report(std::size_t done) const {
        if (!m_control) return;
        const double inRound = std::min(1.0, static_cast<double>(done) / static_cast<double>(m_searches));
        m_control->setProgress(m_from + (m_to - m_from) * (m_roundFrom + (m_roundTo - m_roundFrom) * inRound));
    }

    JobControl* m_control;
    double m_from, m_to, m_logM;
    double m_roundFrom = 0.0, m_roundTo = 0.0;
    std::size_t m_searches = 1;
    std::atomic<std::size_t> m_done{0};
};

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
      m_tree(m_points.values.data(), m_points.size(), d, d <= 3 ? 32 : 96) {}

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
    std::vector<std::uint32_t> roots, queue;
    std::vector<float> boxes;
    std::vector<MstEdge> distinctEdges;
    distinctEdges.reserve(m > 0 ? m - 1 : 0);
    RoundProgress progress(control, from, to, m);
    while (distinctEdges.size() + 1 < m) {
        labels.update(m_tree, components);
        knownNearest(m_tree, labels, memo, known);
        shared.reset(known);
        searchOrder(labels, memo, queue);
        progress.startRound(m - distinctEdges.size(), queue.size());
        for (std::vector<Lightest>& best : found) std::copy(known.begin(), known.end(), best.begin());
        const auto search = [&](std::size_t begin, std::size_t end, const float* outside) {
            std::atomic<std::size_t> next{begin};
            pool.run(found.size(), [&](std::size_t t) {
                tree_mst::Scratch scratch(m_d);
                for (std::size_t b = next.fetch_add(tree_mst::kPointsPerBlock); b < end;
                     b = next.fetch_add(tree_mst::kPointsPerBlock)) {
                    if (control) control->checkCancelled();
                    for (std::size_t k = b; k < std::min(end, b + tree_mst::kPointsPerBlock); ++k)
                        searchOutside(m_tree, labels, key, queue[k], outside, scratch, found[t], shared, memo);
                    progress.searched(std::min(end, b + tree_mst::kPointsPerBlock) - b);
                }
            });
        };
        if (labels.searchingCount > kFewComponents) {
            search(0, queue.size(), nullptr);
        } else {
            // Few components search: one after the other, each with the boxes of the points outside it.
            std::stable_sort(queue.begin(), queue.end(), [&labels](std::uint32_t a, std::uint32_t b) {
                return labels.atPosition[a] < labels.atPosition[b];
            });
            for (std::size_t begin = 0, end = 0; begin < queue.size(); begin = end) {
                const std::uint32_t c = labels.atPosition[queue[begin]];
                while (end < queue.size() && labels.atPosition[queue[end]] == c) ++end;
                outsideBoxes(m_tree, labels, c, boxes);
                search(begin, end, boxes.data());
            }
        }
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
