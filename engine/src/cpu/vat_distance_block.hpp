#pragma once
// Points in feature-major layout, so that the distances from one point to many run as d passes
// over contiguous memory (vectorised), each distance still summed in feature order exactly as
// metricDistance() sums it. Used by the CPU farthest-pair scan, Prim's fringe and the viewport
// renderer.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "clusterlens/vat/metric.hpp"

namespace clusterlens::cpu {

/// A point as one distance source sees it: its features in double and sqrt(|p|²) (summed in feature
/// order), the cosine denominator's factor.
struct PointVector {
    std::vector<double> values;
    double rootNorm = 0.0;

    template <class T>
    void assign(const T* p, std::size_t d) {
        values.resize(d);
        double norm = 0.0;
        for (std::size_t j = 0; j < d; ++j) {
            values[j] = static_cast<double>(p[j]);
            norm += values[j] * values[j];
        }
        rootNorm = std::sqrt(norm);
    }
};

/// `count` points of d features as d rows of `count` doubles plus sqrt(|p|²) per point. Memory
/// 8·(d+1)·count bytes.
class FeatureMajorPoints {
public:
    FeatureMajorPoints() = default;

    /// Slot s holds point ids[s] of the row-major n x d matrix x.
    template <class T, class Index>
    FeatureMajorPoints(const T* x, std::size_t d, const Index* ids, std::size_t count)
        : m_d(d), m_count(count), m_stride(count), m_values(d * count), m_rootNorm(count) {
        for (std::size_t s = 0; s < count; ++s) {
            const T* p = x + static_cast<std::size_t>(ids[s]) * d;
            double norm = 0.0;
            for (std::size_t j = 0; j < d; ++j) {
                const double v = static_cast<double>(p[j]);
                m_values[j * m_stride + s] = v;
                norm += v * v;
            }
            m_rootNorm[s] = std::sqrt(norm);
        }
    }

    std::size_t size() const { return m_count; }

    /// out[s - begin] = metricDistance(a, slot s) for s in [begin, end), bit for bit. O((end-begin)·d).
    void distances(Metric metric, const PointVector& a, std::size_t begin, std::size_t end, double* out) const;

    /// Removes slot s by moving the last slot into it (as Prim's compacted fringe does). O(d).
    void removeByMovingLast(std::size_t s) {
        const std::size_t last = m_count - 1;
        for (std::size_t j = 0; j < m_d; ++j) m_values[j * m_stride + s] = m_values[j * m_stride + last];
        m_rootNorm[s] = m_rootNorm[last];
        --m_count;
    }

private:
    std::size_t m_d = 0;
    std::size_t m_count = 0;
    std::size_t m_stride = 0;
    std::vector<double> m_values;
    std::vector<double> m_rootNorm;
};

}  // namespace clusterlens::cpu
