#include "cpu/kd_tree.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace clusterlens::cpu {

namespace {

// Relative widening of the box bounds (see the header): rounding of exact squared distances is below
// (d + 2)·2^-53, so 1e-12 holds for any d up to ~4000 features.
constexpr double kWiden = 1e-12;

}  // namespace

KdTree::KdTree(const float* x, std::size_t n, std::size_t d, std::size_t leafSize)
    : m_n(n), m_d(d), m_leafSize(std::max<std::size_t>(leafSize, 1)), m_x(x), m_order(n), m_position(n) {
    std::iota(m_order.begin(), m_order.end(), std::uint32_t{0});
    m_nodes.reserve(2 * (n / m_leafSize + 1));
    if (n > 0) build(0, n);
    for (std::size_t p = 0; p < n; ++p) m_position[m_order[p]] = static_cast<std::uint32_t>(p);
    m_values.resize(n * d);
    for (std::size_t p = 0; p < n; ++p)
        for (std::size_t k = 0; k < d; ++k) m_values[k * n + p] = x[static_cast<std::size_t>(m_order[p]) * d + k];
}

// Median split on the widest axis of the node's box; depth is at most log2(n / leafSize) + 1.
std::int32_t KdTree::build(std::size_t begin, std::size_t end) {
    const auto id = static_cast<std::int32_t>(m_nodes.size());
    m_nodes.push_back(Node{static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end), -1, -1});
    m_lo.resize(m_lo.size() + m_d, std::numeric_limits<double>::infinity());
    m_hi.resize(m_hi.size() + m_d, -std::numeric_limits<double>::infinity());
    double* lo = m_lo.data() + static_cast<std::size_t>(id) * m_d;
    double* hi = m_hi.data() + static_cast<std::size_t>(id) * m_d;
    for (std::size_t p = begin; p < end; ++p) {
        const float* row = m_x + static_cast<std::size_t>(m_order[p]) * m_d;
        for (std::size_t k = 0; k < m_d; ++k) {
            lo[k] = std::min(lo[k], static_cast<double>(row[k]));
            hi[k] = std::max(hi[k], static_cast<double>(row[k]));
        }
    }
    if (end - begin <= m_leafSize) return id;
    std::size_t axis = 0;
    for (std::size_t k = 1; k < m_d; ++k)
        if (hi[k] - lo[k] > hi[axis] - lo[axis]) axis = k;
    if (!(hi[axis] > lo[axis])) return id;  // all points equal: one leaf, however large
    const std::size_t middle = begin + (end - begin) / 2;
    const float* x = m_x;
    const std::size_t d = m_d;
    std::nth_element(
        m_order.begin() + static_cast<std::ptrdiff_t>(begin), m_order.begin() + static_cast<std::ptrdiff_t>(middle),
        m_order.begin() + static_cast<std::ptrdiff_t>(end), [x, d, axis](std::uint32_t a, std::uint32_t b) {
            return x[static_cast<std::size_t>(a) * d + axis] < x[static_cast<std::size_t>(b) * d + axis];
        });
    const std::int32_t left = build(begin, middle);
    const std::int32_t right = build(middle, end);
    m_nodes[static_cast<std::size_t>(id)].left = left;
    m_nodes[static_cast<std::size_t>(id)].right = right;
    return id;
}

double KdTree::lowerBound(const double* q, std::size_t node) const {
    const double* lo = m_lo.data() + node * m_d;
    const double* hi = m_hi.data() + node * m_d;
    double sum = 0.0;
    for (std::size_t k = 0; k < m_d; ++k) {
        const double gap = q[k] < lo[k] ? lo[k] - q[k] : (q[k] > hi[k] ? q[k] - hi[k] : 0.0);
        sum += gap * gap;
    }
    return sum * (1.0 - kWiden);
}

double KdTree::upperBound(const double* q, std::size_t node) const {
    const double* lo = m_lo.data() + node * m_d;
    const double* hi = m_hi.data() + node * m_d;
    double sum = 0.0;
    for (std::size_t k = 0; k < m_d; ++k) {
        const double reach = std::max(q[k] - lo[k], hi[k] - q[k]);
        sum += reach * reach;
    }
    return sum * (1.0 + kWiden);
}

void KdTree::load(std::size_t point, double* q) const {
    for (std::size_t k = 0; k < m_d; ++k) q[k] = static_cast<double>(m_x[point * m_d + k]);
}

}  // namespace clusterlens::cpu
