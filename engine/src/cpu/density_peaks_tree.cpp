#include "cpu/density_peaks_tree.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "cpu/density_peaks_math.hpp"

namespace clusterlens::dpc {

namespace {

using cpu::KdTree;

constexpr double kNoDistance = std::numeric_limits<double>::infinity();

// Points per thread-pool task; a cancel is checked before each task.
constexpr std::size_t kPointsPerTask = 64;
// Leaf positions scanned per distance call (the squared distances stay in L1).
constexpr std::size_t kScanBlock = 64;

/// A node to visit and a lower bound of the squared distance from the query to it.
struct NodeBound {
    std::int32_t node = 0;
    double bound = 0.0;
};

/// The query point of a search, as doubles (exact distances, box bounds) and as floats (the screen).
struct Query {
    explicit Query(std::size_t d) : q(d), qf(d) {}
    void load(const KdTree& tree, std::size_t point) {
        tree.load(point, q.data());
        tree.load(point, qf.data());
    }
    std::vector<double> q;
    std::vector<float> qf;
};

/// Runs task(i, query, stack) for every point i in tasks of kPointsPerTask points, with a per-task
/// Query and node stack of Entry, checking for a cancel before each task.
template <class Entry = std::int32_t, class Task>
void forEachPoint(std::size_t n, std::size_t d, cpu::ThreadPool& pool, JobControl* control, double from, double to,
                  Task&& task) {
    const std::size_t tasks = (n + kPointsPerTask - 1) / kPointsPerTask;
    std::atomic<std::size_t> done{0};
    pool.run(tasks, [&](std::size_t t) {
        if (control) {
            control->checkCancelled();
            control->setProgress(from + (to - from) * static_cast<double>(done.load()) / static_cast<double>(tasks));
        }
        Query query(d);
        std::vector<Entry> stack;
        for (std::size_t i = t * kPointsPerTask; i < std::min(n, (t + 1) * kPointsPerTask); ++i) task(i, query, stack);
        done.fetch_add(1, std::memory_order_relaxed);
    });
    if (control) control->checkCancelled();
}

/// Calls visit(position, e) for the leaf positions [begin, end), in blocks.
template <class Visit>
void scanLeaf(const KdTree& tree, const double* q, std::size_t begin, std::size_t end, Visit&& visit) {
    double e[kScanBlock];
    for (std::size_t b = begin; b < end; b += kScanBlock) {
        const std::size_t stop = std::min(end, b + kScanBlock);
        tree.distances(q, b, stop, e);
        for (std::size_t p = b; p < stop; ++p) visit(p, e[p - b]);
    }
}

/// Largest rho per node (children come after their parent in the node array).
std::vector<double> nodeMaxRho(const KdTree& tree, const std::vector<double>& rho) {
    const auto& nodes = tree.nodes();
    std::vector<double> best(nodes.size(), -std::numeric_limits<double>::infinity());
    for (std::size_t v = nodes.size(); v-- > 0;) {
        const KdTree::Node& node = nodes[v];
        if (node.left < 0) {
            for (std::size_t p = node.begin; p < node.end; ++p) best[v] = std::max(best[v], rho[tree.pointAt(p)]);
        } else {
            best[v] = std::max(best[static_cast<std::size_t>(node.left)], best[static_cast<std::size_t>(node.right)]);
        }
    }
    return best;
}

/// One thread's share of the symmetric range count: pairs found per position, and per node the
/// times it was counted whole (each of its points is then in one more pair).
struct PairCounts {
    std::vector<std::uint32_t> atPosition;
    std::vector<std::uint32_t> atNode;
};

/// Counts the pairs closer than the threshold between the point at position s and the points at
/// later positions, for both ends: each pair is counted once, from its earlier end, and a search
/// skips every node that ends at or before s. A node is counted whole only when it lies entirely
/// after s.
void countLaterPairs(const KdTree& tree, std::size_t s, double threshold, Query& query,
                     std::vector<std::int32_t>& stack, PairCounts& counts) {
    const auto& nodes = tree.nodes();
    const std::size_t first = s + 1;
    query.load(tree, tree.pointAt(s));
    const double* q = query.q.data();
    const cpu::ScreenBound bound = cpu::screenBound(threshold, tree.dimension());
    std::uint64_t own = 0;
    stack.assign(1, 0);
    while (!stack.empty()) {
        const auto v = static_cast<std::size_t>(stack.back());
        stack.pop_back();
        const KdTree::Node& node = nodes[v];
        if (node.end <= first || tree.lowerBound(q, v) >= threshold) continue;
        if (node.begin >= first && tree.upperBound(q, v) < threshold) {
            own += node.end - node.begin;
            ++counts.atNode[v];
        } else if (node.left < 0) {
            // The lanes the float screen decides are counted by screenLeaf, the others here.
            const std::uint64_t certain = cpu::screenLeaf(
                tree, query.qf.data(), q, std::max<std::size_t>(node.begin, first), node.end, [&] { return bound; },
                counts.atPosition.data(),
                [&](std::size_t p, double e) {
                    if (e < threshold) {
                        ++own;
                        ++counts.atPosition[p];
                    }
                });
            own += certain;
        } else {
            stack.push_back(node.right);
            stack.push_back(node.left);
        }
    }
    counts.atPosition[s] += static_cast<std::uint32_t>(own);
}

}  // namespace

std::vector<double> treeCutoffRho(const KdTree& tree, double dc, cpu::ThreadPool& pool, JobControl* control) {
    const double threshold = cutoffSquaredThreshold(dc);
    const std::size_t n = tree.size();
    const auto& nodes = tree.nodes();
    std::vector<PairCounts> perThread(pool.size());
    std::atomic<std::size_t> next{0};
    pool.run(perThread.size(), [&](std::size_t t) {
        PairCounts& counts = perThread[t];
        counts.atPosition.assign(n, 0);
        counts.atNode.assign(nodes.size(), 0);
        Query query(tree.dimension());
        std::vector<std::int32_t> stack;
        for (std::size_t b = next.fetch_add(kPointsPerTask); b < n; b = next.fetch_add(kPointsPerTask)) {
            if (control) {
                control->checkCancelled();
                control->setProgress(0.2 + 0.4 * static_cast<double>(b) / static_cast<double>(n));
            }
            for (std::size_t s = b; s < std::min(n, b + kPointsPerTask); ++s)
                countLaterPairs(tree, s, threshold, query, stack, counts);
        }
    });
    if (control) control->checkCancelled();
    // A node counted whole adds one to each of its points: pass the counts down (children follow
    // their parent in the node array).
    std::vector<std::uint64_t> down(nodes.size(), 0);
    for (const PairCounts& counts : perThread)
        for (std::size_t v = 0; v < nodes.size(); ++v) down[v] += counts.atNode[v];
    std::vector<double> rho(n, 0.0);
    for (std::size_t v = 0; v < nodes.size(); ++v) {
        const KdTree::Node& node = nodes[v];
        if (node.left >= 0) {
            down[static_cast<std::size_t>(node.left)] += down[v];
            down[static_cast<std::size_t>(node.right)] += down[v];
            continue;
        }
        for (std::size_t p = node.begin; p < node.end; ++p) {
            std::uint64_t count = down[v];
            for (const PairCounts& counts : perThread) count += counts.atPosition[p];
            rho[tree.pointAt(p)] = static_cast<double>(count);
        }
    }
    return rho;
}

void treeDelta(const KdTree& tree, DensityPeaksResult& result, cpu::ThreadPool& pool, JobControl* control) {
    const std::size_t n = tree.size();
    const std::vector<double>& rho = result.rho;
    const std::vector<double> maxRho = nodeMaxRho(tree, rho);
    const auto& nodes = tree.nodes();
    result.delta.assign(n, 0.0);
    result.nearestHigher.assign(n, -1);
    const auto densest = static_cast<std::size_t>(result.densityOrder.at(0));
    const std::size_t d = tree.dimension();
    const auto search = [&](std::size_t i, Query& query, std::vector<NodeBound>& stack) {
        query.load(tree, i);
        const double* q = query.q.data();
        if (i == densest) {
            double far = 0.0;
            scanLeaf(tree, q, 0, n, [&](std::size_t, double e) { far = std::max(far, e); });
            result.delta[i] = std::sqrt(far);
            return;
        }
        const auto self = static_cast<std::int64_t>(i);
        double best = std::numeric_limits<double>::infinity();
        std::int64_t bestJ = -1;
        // A candidate needs e <= best (equal distances go to the smaller index): lanes certainly
        // above best are skipped, no lane is counted.
        const auto screen = [&] {
            return cpu::ScreenBound{-1.0f, cpu::screenBound(std::nextafter(best, kNoDistance), d).atOrAbove};
        };
        stack.assign(1, NodeBound{0, 0.0});
        while (!stack.empty()) {
            const NodeBound top = stack.back();
            stack.pop_back();
            if (top.bound > best) continue;
            const KdTree::Node& node = nodes[static_cast<std::size_t>(top.node)];
            if (node.left < 0) {
                cpu::screenLeaf(tree, query.qf.data(), q, node.begin, node.end, screen, nullptr,
                                [&](std::size_t p, double e) {
                                    const auto j = static_cast<std::int64_t>(tree.pointAt(p));
                                    if (higherThan(rho[static_cast<std::size_t>(j)], j, rho[i], self) &&
                                        candidateBefore(e, j, best, bestJ)) {
                                        best = e;
                                        bestJ = j;
                                    }
                                });
                continue;
            }
            NodeBound children[2];
            std::size_t count = 0;
            for (const std::int32_t child : {node.left, node.right}) {
                // Equal densities may still be higher (smaller index): only a smaller maximum prunes.
                if (maxRho[static_cast<std::size_t>(child)] < rho[i]) continue;
                const double bound = tree.lowerBound(q, static_cast<std::size_t>(child));
                if (bound <= best) children[count++] = NodeBound{child, bound};
            }
            // The nearer child is searched first (pushed last).
            if (count == 2 && children[0].bound <= children[1].bound) std::swap(children[0], children[1]);
            for (std::size_t c = 0; c < count; ++c) stack.push_back(children[c]);
        }
        result.delta[i] = std::sqrt(best);
        result.nearestHigher[i] = bestJ;
    };
    forEachPoint<NodeBound>(n, tree.dimension(), pool, control, 0.6, 1.0, search);
}

PairWindowCounts treeWindowPass(const KdTree& tree, const PairWindow& window, cpu::ThreadPool& pool,
                                JobControl* control, double from, double to) {
    const std::size_t n = tree.size();
    const auto& nodes = tree.nodes();
    const std::size_t tasks = (n + kPointsPerTask - 1) / kPointsPerTask;
    std::vector<PairWindowCounts> partial(tasks);
    std::atomic<std::size_t> collected{0};
    std::atomic<bool> overflow{false};
    const int bins = static_cast<int>(window.bins);
    const double scale = static_cast<double>(window.bins) / (window.hi - window.lo);
    // Each pair once: point i pairs with the points at later positions of the leaf order, so a search
    // skips every node that ends at or before i's own position.
    // Lanes certainly below lo are counted, lanes certainly at or above hi skipped, the rest decided
    // on their exact values.
    const cpu::ScreenBound screen{cpu::screenBound(window.lo, tree.dimension()).below,
                                  cpu::screenBound(window.hi, tree.dimension()).atOrAbove};
    forEachPoint(n, tree.dimension(), pool, control, from, to, [&](std::size_t i, Query& query, auto& stack) {
        PairWindowCounts& local = partial[i / kPointsPerTask];
        if (local.hist.size() != window.bins) local.hist.assign(window.bins, 0);
        query.load(tree, i);
        const double* q = query.q.data();
        const std::size_t first = tree.positionOf(i) + 1;
        stack.assign(1, 0);
        while (!stack.empty()) {
            const auto v = static_cast<std::size_t>(stack.back());
            stack.pop_back();
            const KdTree::Node& node = nodes[v];
            if (node.end <= first || tree.lowerBound(q, v) >= window.hi) continue;
            const std::size_t begin = std::max<std::size_t>(node.begin, first);
            if (tree.upperBound(q, v) < window.lo) {
                local.below += node.end - begin;
            } else if (node.left < 0) {
                const std::uint64_t certain = cpu::screenLeaf(
                    tree, query.qf.data(), q, begin, node.end, [&] { return screen; }, nullptr,
                    [&](std::size_t, double e) {
                        if (e < window.lo) {
                            ++local.below;
                        } else if (e < window.hi) {
                            ++local.inside;
                            if (window.bins) ++local.hist[static_cast<std::size_t>(binOf(e, window.lo, scale, bins))];
                            if (window.collect && !overflow.load(std::memory_order_relaxed)) {
                                if (collected.fetch_add(1, std::memory_order_relaxed) < window.capacity)
                                    local.values.push_back(e);
                                else
                                    overflow.store(true, std::memory_order_relaxed);
                            }
                        }
                    });
                local.below += certain;
            } else {
                stack.push_back(node.right);
                stack.push_back(node.left);
            }
        }
    });
    PairWindowCounts total;
    total.hist.assign(window.bins, 0);
    total.overflow = overflow.load();
    for (PairWindowCounts& p : partial) {
        total.below += p.below;
        total.inside += p.inside;
        for (std::size_t b = 0; b < p.hist.size(); ++b) total.hist[b] += p.hist[b];
        if (window.collect && !total.overflow)
            total.values.insert(total.values.end(), p.values.begin(), p.values.end());
    }
    return total;
}

}  // namespace clusterlens::dpc
