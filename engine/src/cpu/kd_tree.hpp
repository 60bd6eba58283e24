#pragma once
// A kd-tree over float points (Bentley 1975; median splits on the widest axis, as in mlpack and
// scikit-learn) for the exact tree searches of density peaks. Points are stored permuted into leaf
// order, feature-major per tree, so a leaf scan is d vectorised passes whose squared distances have
// the bits of dpc::exactSquaredDistance (same operations, same order). Box bounds are widened by a
// relative 1e-12, far above the (d + 2)·2^-53 rounding of a computed squared distance, so a node is
// pruned or taken whole only where every exact distance inside it decides the same way.

#include <cstddef>
#include <cstdint>
#include <vector>

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
    /// 4·n·d + 4·n bytes for the permuted copy plus 16·d bytes per node.
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
    /// An upper bound of the exact squared distance from q to any point of the node.
    double upperBound(const double* q, std::size_t node) const;

    /// e[c] = exact squared distance from q to the point at position begin + c, c < end - begin.
    void distances(const double* q, std::size_t begin, std::size_t end, double* e) const {
        const std::size_t count = end - begin;
        for (std::size_t c = 0; c < count; ++c) e[c] = 0.0;
        for (std::size_t k = 0; k < m_d; ++k) {
            const double qk = q[k];
            const float* column = m_values.data() + k * m_n + begin;
            for (std::size_t c = 0; c < count; ++c) {
                const double diff = qk - static_cast<double>(column[c]);
                e[c] += diff * diff;
            }
        }
    }

    /// Copies point `point` (original index) into q as doubles.
    void load(std::size_t point, double* q) const;

private:
    std::int32_t build(std::size_t begin, std::size_t end);

    std::size_t m_n;
    std::size_t m_d;
    std::size_t m_leafSize;
    const float* m_x;
    std::vector<Node> m_nodes;
    std::vector<double> m_lo;  ///< per node, d lower box corners
    std::vector<double> m_hi;
    std::vector<std::uint32_t> m_order;
    std::vector<std::uint32_t> m_position;
    std::vector<float> m_values;  ///< feature-major permuted copy: m_values[k * n + position]
};

}  // namespace clusterlens::cpu
