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

// Points per thread-pool task; a cancel is checked before each task.
constexpr std::size_t kPointsPerTask = 64;
// Leaf positions scanned per distance call (the squared distances stay in L1).
constexpr std::size_t kScanBlock = 64;

/// Runs task(i, scratch) for every point i in tasks of kPointsPerTask points, with per-task scratch
/// of d doubles (the query point), checking for a cancel before each task.
template <class Task>
void forEachPoint(std::size_t n, std::size_t d, cpu::ThreadPool& pool, JobControl* control, double from, double to,
                  Task&& task) {
    const std::size_t tasks = (n + kPointsPerTask - 1) / kPointsPerTask;
    std::atomic<std::size_t> done{0};
    pool.run(tasks, [&](std::size_t t) {
        if (control) {
            control->checkCancelled();
            control->setProgress(from + (to - from) * static_cast<double>(done.load()) / static_cast<double>(tasks));
        }
        std::vector<double> q(d);
        std::vector<std::int32_t> stack;
        for (std::size_t i = t * kPointsPerTask; i < std::min(n, (t + 1) * kPointsPerTask); ++i) task(i, q, stack);
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

bool contains(const KdTree::Node& node, std::size_t position) {
    return position >= node.begin && position < node.end;
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

}  // namespace

std::vector<double> treeCutoffRho(const KdTree& tree, double dc, cpu::ThreadPool& pool, JobControl* control) {
    const double threshold = cutoffSquaredThreshold(dc);
    const auto& nodes = tree.nodes();
    std::vector<double> rho(tree.size(), 0.0);
    forEachPoint(tree.size(), tree.dimension(), pool, control, 0.2, 0.6,
                 [&](std::size_t i, std::vector<double>& q, auto& stack) {
                     tree.load(i, q.data());
                     const std::size_t self = tree.positionOf(i);
                     std::uint64_t count = 0;
                     stack.assign(1, 0);
                     while (!stack.empty()) {
                         const auto v = static_cast<std::size_t>(stack.back());
                         stack.pop_back();
                         const KdTree::Node& node = nodes[v];
                         if (tree.lowerBound(q.data(), v) >= threshold) continue;
                         if (tree.upperBound(q.data(), v) < threshold) {
                             count += node.end - node.begin - (contains(node, self) ? 1 : 0);
                         } else if (node.left < 0) {
                             scanLeaf(tree, q.data(), node.begin, node.end, [&](std::size_t p, double e) {
                                 if (e < threshold && p != self) ++count;
                             });
                         } else {
                             stack.push_back(node.right);
                             stack.push_back(node.left);
                         }
                     }
                     rho[i] = static_cast<double>(count);
                 });
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
    forEachPoint(n, tree.dimension(), pool, control, 0.6, 1.0, [&](std::size_t i, std::vector<double>& q, auto& stack) {
        tree.load(i, q.data());
        if (i == densest) {
            double far = 0.0;
            scanLeaf(tree, q.data(), 0, n, [&](std::size_t, double e) { far = std::max(far, e); });
            result.delta[i] = std::sqrt(far);
            return;
        }
        const auto self = static_cast<std::int64_t>(i);
        double best = std::numeric_limits<double>::infinity();
        std::int64_t bestJ = -1;
        stack.assign(1, 0);
        while (!stack.empty()) {
            const auto v = static_cast<std::size_t>(stack.back());
            stack.pop_back();
            const KdTree::Node& node = nodes[v];
            // Equal densities may still be higher (smaller index): only a smaller maximum prunes.
            if (maxRho[v] < rho[i] || tree.lowerBound(q.data(), v) > best) continue;
            if (node.left < 0) {
                scanLeaf(tree, q.data(), node.begin, node.end, [&](std::size_t p, double e) {
                    const auto j = static_cast<std::int64_t>(tree.pointAt(p));
                    if (higherThan(rho[static_cast<std::size_t>(j)], j, rho[i], self) &&
                        candidateBefore(e, j, best, bestJ)) {
                        best = e;
                        bestJ = j;
                    }
                });
                continue;
            }
            const auto left = static_cast<std::size_t>(node.left);
            const auto right = static_cast<std::size_t>(node.right);
            const bool leftFirst = tree.lowerBound(q.data(), left) <= tree.lowerBound(q.data(), right);
            stack.push_back(static_cast<std::int32_t>(leftFirst ? right : left));
            stack.push_back(static_cast<std::int32_t>(leftFirst ? left : right));
        }
        result.delta[i] = std::sqrt(best);
        result.nearestHigher[i] = bestJ;
    });
}

PairWindowCounts treeWindowPass(const KdTree& tree, const PairWindow& window, cpu::ThreadPool& pool,
                                JobControl* control) {
    const std::size_t n = tree.size();
    const auto& nodes = tree.nodes();
    const std::size_t tasks = (n + kPointsPerTask - 1) / kPointsPerTask;
    std::vector<PairWindowCounts> partial(tasks);
    std::atomic<std::size_t> collected{0};
    std::atomic<bool> overflow{false};
    const int bins = static_cast<int>(window.bins);
    const double scale = static_cast<double>(window.bins) / (window.hi - window.lo);
    // Ordered pairs (i, j), i != j: counts and histogram are halved at the end; values are collected
    // from i < j only.
    forEachPoint(n, tree.dimension(), pool, control, 0.0, 0.2, [&](std::size_t i, std::vector<double>& q, auto& stack) {
        PairWindowCounts& local = partial[i / kPointsPerTask];
        if (local.hist.size() != window.bins) local.hist.assign(window.bins, 0);
        tree.load(i, q.data());
        const std::size_t self = tree.positionOf(i);
        stack.assign(1, 0);
        while (!stack.empty()) {
            const auto v = static_cast<std::size_t>(stack.back());
            stack.pop_back();
            const KdTree::Node& node = nodes[v];
            if (tree.lowerBound(q.data(), v) >= window.hi) continue;
            if (tree.upperBound(q.data(), v) < window.lo) {
                local.below += node.end - node.begin - (contains(node, self) ? 1 : 0);
            } else if (node.left < 0) {
                scanLeaf(tree, q.data(), node.begin, node.end, [&](std::size_t p, double e) {
                    if (p == self) return;
                    if (e < window.lo) {
                        ++local.below;
                    } else if (e < window.hi) {
                        ++local.inside;
                        if (window.bins) ++local.hist[static_cast<std::size_t>(binOf(e, window.lo, scale, bins))];
                        if (window.collect && i < tree.pointAt(p) && !overflow.load(std::memory_order_relaxed)) {
                            if (collected.fetch_add(1, std::memory_order_relaxed) < window.capacity)
                                local.values.push_back(e);
                            else
                                overflow.store(true, std::memory_order_relaxed);
                        }
                    }
                });
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
    total.below /= 2;
    total.inside /= 2;
    for (std::uint64_t& h : total.hist) h /= 2;
    return total;
}

}  // namespace clusterlens::dpc
