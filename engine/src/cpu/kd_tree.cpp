#include "cpu/kd_tree.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

#include "cpu/screened_distances.hpp"
#include "cpu/vector_clones.hpp"

namespace clusterlens::cpu {

namespace {

// Relative widening of the box bounds (see the header): rounding of exact squared distances is below
// (d + 2)·2^-53, so 1e-12 holds for any d up to ~4000 features.
constexpr double kWiden = 1e-12;

// Four doubles, four floats and four lane masks as GCC/clang vectors: eight leaf positions, or four
// box sides, at a time (the -O2 vectoriser leaves the plain loops scalar).
using Double4 = double __attribute__((vector_size(32)));
using Float4 = float __attribute__((vector_size(16)));
using Mask4 = long long __attribute__((vector_size(32)));

inline double gapOf(double q, float lo, float hi) {
    const double below = static_cast<double>(lo) - q, above = q - static_cast<double>(hi);
    const double gap = below > above ? below : above;
    return gap > 0.0 ? gap : 0.0;
}

inline double reachOf(double q, float lo, float hi) {
    const double left = q - static_cast<double>(lo), right = static_cast<double>(hi) - q;
    return left > right ? left : right;
}

/// The sum over k of f(q[k], lo[k], hi[k])^2, four sides at a time, where f is gapOf (Gap) or
/// reachOf. The summation order differs from a plain loop by far less than kWiden.
template <bool Gap>
__attribute__((always_inline)) inline double boxSum(const double* q, const float* lo, const float* hi, std::size_t d) {
    Double4 acc = {0.0, 0.0, 0.0, 0.0};
    std::size_t k = 0;
    for (; k + 4 <= d; k += 4) {
        Double4 qk;
        Float4 l, h;
        std::memcpy(&qk, q + k, sizeof qk);
        std::memcpy(&l, lo + k, sizeof l);
        std::memcpy(&h, hi + k, sizeof h);
        const Double4 low = __builtin_convertvector(l, Double4), high = __builtin_convertvector(h, Double4);
        const Double4 a = Gap ? low - qk : qk - low;
        const Double4 b = Gap ? qk - high : high - qk;
        const Mask4 first = a > b;
        Mask4 bits = (__builtin_bit_cast(Mask4, a) & first) | (__builtin_bit_cast(Mask4, b) & ~first);
        if (Gap) bits &= __builtin_bit_cast(Double4, bits) > 0.0;
        const Double4 t = __builtin_bit_cast(Double4, bits);
        acc += t * t;
    }
    double sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (; k < d; ++k) {
        const double t = Gap ? gapOf(q[k], lo[k], hi[k]) : reachOf(q[k], lo[k], hi[k]);
        sum += t * t;
    }
    return sum;
}

/// The squared distance from q to the box [lo, hi] (0 inside), before widening.
CLUSTERLENS_VECTOR_CLONES double boxGapSum(const double* q, const float* lo, const float* hi, std::size_t d) {
    return boxSum<true>(q, lo, hi, d);
}

/// The squared distance from q to the farthest corner of the box [lo, hi], before widening.
CLUSTERLENS_VECTOR_CLONES double boxReachSum(const double* q, const float* lo, const float* hi, std::size_t d) {
    return boxSum<false>(q, lo, hi, d);
}

/// e[c] = sum over k of (q[k] - column k at c)^2, k ascending from 0.0, multiply and add rounded
/// separately in every lane: the bits of dpc::exactSquaredDistance.
CLUSTERLENS_VECTOR_CLONES void columnDistances(const double* q, const float* values, std::size_t stride, std::size_t d,
                                               std::size_t count, double* e) {
    std::size_t c = 0;
    for (; c + 8 <= count; c += 8) {
        Double4 a = {0.0, 0.0, 0.0, 0.0}, b = a;
        for (std::size_t k = 0; k < d; ++k) {
            const Double4 qk = {q[k], q[k], q[k], q[k]};
            Float4 fa, fb;
            std::memcpy(&fa, values + k * stride + c, sizeof fa);
            std::memcpy(&fb, values + k * stride + c + 4, sizeof fb);
            const Double4 da = qk - __builtin_convertvector(fa, Double4);
            const Double4 db = qk - __builtin_convertvector(fb, Double4);
            a += da * da;
            b += db * db;
        }
        std::memcpy(e + c, &a, sizeof a);
        std::memcpy(e + c + 4, &b, sizeof b);
    }
    for (; c < count; ++c) {
        double sum = 0.0;
        for (std::size_t k = 0; k < d; ++k) {
            const double diff = q[k] - static_cast<double>(values[k * stride + c]);
            sum += diff * diff;
        }
        e[c] = sum;
    }
}

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
    m_box.resize(m_box.size() + m_d, std::numeric_limits<float>::infinity());
    m_box.resize(m_box.size() + m_d, -std::numeric_limits<float>::infinity());
    float* lo = m_box.data() + static_cast<std::size_t>(id) * 2 * m_d;
    float* hi = lo + m_d;
    for (std::size_t p = begin; p < end; ++p) {
        const float* row = m_x + static_cast<std::size_t>(m_order[p]) * m_d;
        for (std::size_t k = 0; k < m_d; ++k) {
            lo[k] = std::min(lo[k], row[k]);
            hi[k] = std::max(hi[k], row[k]);
        }
    }
    if (end - begin <= m_leafSize) return id;
    const auto width = [lo, hi](std::size_t k) { return static_cast<double>(hi[k]) - static_cast<double>(lo[k]); };
    std::size_t axis = 0;
    for (std::size_t k = 1; k < m_d; ++k)
        if (width(k) > width(axis)) axis = k;
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
    return lowerBound(q, m_box.data() + node * 2 * m_d);
}

double KdTree::lowerBound(const double* q, const float* box) const {
    return boxGapSum(q, box, box + m_d, m_d) * (1.0 - kWiden);
}

double KdTree::upperBound(const double* q, std::size_t node) const {
    const float* box = m_box.data() + node * 2 * m_d;
    return boxReachSum(q, box, box + m_d, m_d) * (1.0 + kWiden);
}

void KdTree::distances(const double* q, std::size_t begin, std::size_t end, double* e) const {
    columnDistances(q, m_values.data() + begin, m_n, m_d, end - begin, e);
}

void KdTree::screenedDistances(const float* qf, std::size_t begin, std::size_t end, float* f) const {
    screenedSquaredDistances(qf, m_values.data(), m_n, m_d, begin, end - begin, f);
}

void KdTree::load(std::size_t point, float* qf) const {
    std::copy(m_x + point * m_d, m_x + (point + 1) * m_d, qf);
}

void KdTree::load(std::size_t point, double* q) const {
    for (std::size_t k = 0; k < m_d; ++k) q[k] = static_cast<double>(m_x[point * m_d + k]);
}

}  // namespace clusterlens::cpu
