#pragma once
// A kd-tree over float points (Bentley 1975; median splits on the widest axis, as in mlpack and
// scikit-learn) for the exact tree searches of density peaks. Points are stored permuted into leaf
// order, feature-major per tree, so a leaf scan is d vectorised passes whose squared distances have
// the bits of dpc::exactSquaredDistance (same operations, same order). Box bounds are widened by a
// relative 1e-12, far above the (d + 2)·2^-53 rounding of a computed squared distance, so a node is
// pruned or taken whole only where every exact distance inside it decides the same way.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cpu/screened_distances.hpp"

namespace clusterlens::cpu {

class KdTree {
public:
    struct Node {
        std::uint32_t begin = 0;  ///< positions [begin, end) of the permuted points
        std::uint32_t end = 0;
        std::int32_t left = -1;  ///< child nodes; -1 for a leaf
        std::int32_t right = -1;
    };

    /// Builds the tree over n points x d features (row-major). O(n log n · d) time, memory
    /// 4·n·d + 4·n bytes for the permuted copy plus 8·d bytes per node.
    KdTree(const float* x, std::size_t n, std::size_t d, std::size_t leafSize = 24);

    std::size_t size() const { return m_n; }
    std::size_t dimension() const { return m_d; }
    const std::vector<Node>& nodes() const { return m_nodes; }
    /// point index at a position of the leaf order
    std::uint32_t pointAt(std::size_t position) const { return m_order[position]; }
    /// position of a point in the leaf order
    std::uint32_t positionOf(std::size_t point) const { return m_position[point]; }

    /// A lower bound of the exact squared distance from q (d values) to any point of the node.
    double lowerBound(const double* q, std::size_t node) const;
    /// A lower bound of the exact squared distance from q to any point of a box laid out as the
    /// tree's own (d lower then d upper corners; an empty box, lower above upper, gives +inf).
    double lowerBound(const double* q, const float* box) const;
    /// An upper bound of the exact squared distance from q to any point of the node.
    double upperBound(const double* q, std::size_t node) const;

    /// e[c] = exact squared distance from q to the point at position begin + c, c < end - begin.
    void distances(const double* q, std::size_t begin, std::size_t end, double* e) const;

    /// f[c] = squared distance in float from qf (d floats) to the point at position begin + c, for the
    /// float screen of screened_distances.hpp (exact values come from distances()).
    void screenedDistances(const float* qf, std::size_t begin, std::size_t end, float* f) const;

    /// Coordinate k of the point at a position of the leaf order.
    float coordinate(std::size_t position, std::size_t k) const { return m_values[k * m_n + position]; }

    /// Copies point `point` (original index) into q as doubles.
    void load(std::size_t point, double* q) const;
    /// Copies point `point` (original index) into qf as floats.
    void load(std::size_t point, float* qf) const;

private:
    std::int32_t build(std::size_t begin, std::size_t end);

    std::size_t m_n;
    std::size_t m_d;
    std::size_t m_leafSize;
    const float* m_x;
    std::vector<Node> m_nodes;
    std::vector<float> m_box;  ///< per node, d lower then d upper box corners (one or two cache lines)
    std::vector<std::uint32_t> m_order;
    std::vector<std::uint32_t> m_position;
    std::vector<float> m_values;  ///< feature-major permuted copy: m_values[k * n + position]
};

/// A screened scan of the leaf positions [begin, end) (screened_distances.hpp): in blocks of 64, the
/// float squared distances from qf; the lanes with f < bound().below are counted (and one is added
/// to counts[position] for each when counts is given); visit(position, e) gets the exact squared
/// distance e from q (the bits of distances()) of every lane the float value leaves undecided. Lanes
/// with f >= bound().atOrAbove are skipped. bound() is asked once per block, so a bound that tightens
/// while visiting takes effect at the next block. Returns the count.
template <class Bound, class Visit>
std::uint64_t screenLeaf(const KdTree& tree, const float* qf, const double* q, std::size_t begin, std::size_t end,
                         Bound&& bound, std::uint32_t* counts, Visit&& visit) {
    constexpr std::size_t kBlock = 64;
    float f[kBlock];
    std::uint32_t band[kBlock];
    std::uint64_t below = 0;
    for (std::size_t b = begin; b < end; b += kBlock) {
        const std::size_t stop = std::min(end, b + kBlock);
        tree.screenedDistances(qf, b, stop, f);
        below += screenLanes(f, stop - b, bound(), counts ? counts + b : nullptr, band);
        forEachBandLane(band, stop - b, [&](std::size_t c) {
            double e;
            tree.distances(q, b + c, b + c + 1, &e);
            visit(b + c, e);
        });
    }
    return below;
}

}  // namespace clusterlens::cpu
