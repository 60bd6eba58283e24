// The farthest pair of points (VAT's start) by branch and bound on the kd-tree of the distinct points.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "cpu/tree_mst.hpp"
#include "cpu/tree_mst_detail.hpp"

namespace clusterlens::cpu {

namespace {

/// Centre of the points' bounding box and the largest Euclidean distance from it (upward rounded by
/// the slack): |p - q| <= |p - centre| + radius for any two points.
struct Enclosure {
    std::vector<double> centre;
    double radius = 0.0;

    double distanceFrom(const double* q) const {
        double sum = 0.0;
        for (std::size_t k = 0; k < centre.size(); ++k) sum += (q[k] - centre[k]) * (q[k] - centre[k]);
        return std::sqrt(sum);
    }
};

Enclosure enclose(const std::vector<float>& values, std::size_t m, std::size_t d) {
    Enclosure e;
    e.centre.assign(d, 0.0);
    std::vector<double> lo(d, std::numeric_limits<double>::infinity()), hi(d, -lo[0]);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t k = 0; k < d; ++k) {
            lo[k] = std::min(lo[k], static_cast<double>(values[i * d + k]));
            hi[k] = std::max(hi[k], static_cast<double>(values[i * d + k]));
        }
    for (std::size_t k = 0; k < d; ++k) e.centre[k] = 0.5 * (lo[k] + hi[k]);
    std::vector<double> q(d);
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t k = 0; k < d; ++k) q[k] = static_cast<double>(values[i * d + k]);
        e.radius = std::max(e.radius, e.distanceFrom(q.data()));
    }
    e.radius *= 1.0 + tree_mst::kSlack;
    return e;
}

}  // namespace

FarPair TreeMstSearch::pairOf(double w, std::uint32_t a, std::uint32_t b) const {
    const std::size_t ra = m_points.rep[a], rb = m_points.rep[b];
    return FarPair{w, std::min(ra, rb), std::max(ra, rb)};
}

void TreeMstSearch::farthestFrom(std::size_t p, tree_mst::Scratch& scratch, FarPair& best) const {
    const tree_mst::Key key{m_squared};
    const std::uint32_t self = m_tree.pointAt(p);
    const auto& nodes = m_tree.nodes();
    scratch.stack.assign(1, tree_mst::NodeBound{0, std::numeric_limits<double>::infinity()});
    while (!scratch.stack.empty()) {
        const tree_mst::NodeBound top = scratch.stack.back();
        scratch.stack.pop_back();
        if (top.bound < key.floor(best.w)) continue;
        const KdTree::Node& node = nodes[top.node];
        if (node.left < 0) {
            tree_mst::scanLeaf(m_tree, scratch, node, [&](std::size_t position, double squared) {
                const std::uint32_t other = m_tree.pointAt(position);
                const FarPair c = pairOf(key.weight(squared), self, other);
                if (other != self && farther(c, best)) best = c;
            });
            continue;
        }
        tree_mst::NodeBound l{static_cast<std::size_t>(node.left), 0.0};
        tree_mst::NodeBound r{static_cast<std::size_t>(node.right), 0.0};
        l.bound = m_tree.upperBound(scratch.q.data(), l.node);
        r.bound = m_tree.upperBound(scratch.q.data(), r.node);
        if (l.bound > r.bound) std::swap(l, r);
        scratch.stack.push_back(l);  // the farther-reaching child is searched first
        scratch.stack.push_back(r);
    }
}

FarPair TreeMstSearch::farthestPair(JobControl* control, double from, double to) const {
    const std::size_t m = m_points.size();
    if (m == 1) return FarPair{0.0, 0, 1};  // all points equal: every pair is at 0, (0, 1) first
    const tree_mst::Key key{m_squared};
    // A first lower bound: the farthest point from distinct point 0, then the farthest from that one.
    tree_mst::Scratch probe(m_d);
    const auto scanAll = [&](std::uint32_t a) {
        FarPair best;
        m_tree.load(a, probe.q.data());
        tree_mst::scanLeaf(m_tree, probe, KdTree::Node{0, static_cast<std::uint32_t>(m), -1, -1},
                           [&](std::size_t position, double squared) {
                               const std::uint32_t b = m_tree.pointAt(position);
                               const FarPair c = pairOf(key.weight(squared), a, b);
                               if (b != a && farther(c, best)) best = c;
                           });
        return best;
    };
    const FarPair first = scanAll(0);
    FarPair seed = scanAll(m_points.group[first.i] == 0 ? m_points.group[first.j] : m_points.group[first.i]);
    if (farther(first, seed)) seed = first;

    const Enclosure enclosure = enclose(m_points.values, m, m_d);
    ThreadPool pool;
    std::vector<FarPair> found(pool.size(), seed);
    std::atomic<std::size_t> next{0};
    pool.run(found.size(), [&](std::size_t t) {
        tree_mst::Scratch scratch(m_d);
        for (std::size_t b = next.fetch_add(tree_mst::kPointsPerBlock); b < m;
             b = next.fetch_add(tree_mst::kPointsPerBlock)) {
            if (control) {
                control->checkCancelled();
                control->setProgress(from + (to - from) * static_cast<double>(b) / static_cast<double>(m));
            }
            for (std::size_t p = b; p < std::min(m, b + tree_mst::kPointsPerBlock); ++p) {
                m_tree.load(m_tree.pointAt(p), scratch.q.data());
                // No pair of this point can reach the best when even the enclosing ball cannot.
                const double reach =
                    (enclosure.distanceFrom(scratch.q.data()) + enclosure.radius) * (1.0 + tree_mst::kSlack);
                if (key.weight(reach * reach) * (1.0 + tree_mst::kSlack) < found[t].w) continue;
                farthestFrom(p, scratch, found[t]);
            }
        }
    });
    if (control) control->checkCancelled();
    FarPair best = seed;
    for (const FarPair& f : found)
        if (farther(f, best)) best = f;
    return best;
}

}  // namespace clusterlens::cpu
