// Distances from one point to a block of feature-major points: the inner loops of the CPU VAT
// (farthest pair, Prim, viewport rendering).

#include "cpu/vat_distance_block.hpp"

#include <algorithm>

#include "cpu/vector_clones.hpp"

// These loops are the whole cost of the CPU VAT; their AVX2 copy (vector_clones.hpp) runs about 1.6x
// faster.

namespace clusterlens::cpu {

namespace {

// Slots per pass: the partial sums (8 KiB) stay in L1 while the d feature rows stream past.
constexpr std::size_t kBlock = 1024;

template <Metric M>
inline double term(double a, double b) {
    if constexpr (M == Metric::Manhattan) {
        return std::fabs(a - b);
    } else if constexpr (M == Metric::Cosine) {
        return a * b;
    } else {
        const double diff = a - b;
        return diff * diff;
    }
}

template <Metric M>
CLUSTERLENS_VECTOR_CLONES void blockDistances(const double* a, double aRootNorm, const double* values,
                                              std::size_t stride, const double* rootNorm, std::size_t d,
                                              std::size_t begin, std::size_t count, double* out) {
    for (std::size_t k = 0; k < count; ++k) out[k] = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
        const double aj = a[j];
        const double* c = values + j * stride + begin;
        for (std::size_t k = 0; k < count; ++k) out[k] += term<M>(aj, c[k]);
    }
    if constexpr (M == Metric::Euclidean) {
        for (std::size_t k = 0; k < count; ++k) out[k] = std::sqrt(out[k]);
    } else if constexpr (M == Metric::Cosine) {
        const double* norms = rootNorm + begin;
        for (std::size_t k = 0; k < count; ++k) out[k] = 1.0 - out[k] / (aRootNorm * norms[k]);
    }
}

}  // namespace

void FeatureMajorPoints::distances(Metric metric, const PointVector& a, std::size_t begin, std::size_t end,
                                   double* out) const {
    for (std::size_t b = begin; b < end; b += kBlock) {
        const std::size_t count = std::min(kBlock, end - b);
        double* o = out + (b - begin);
        const double* v = a.values.data();
        switch (metric) {
            case Metric::Euclidean:
                blockDistances<Metric::Euclidean>(v, a.rootNorm, m_values.data(), m_stride, m_rootNorm.data(), m_d, b,
                                                  count, o);
                break;
            case Metric::SqEuclidean:
                blockDistances<Metric::SqEuclidean>(v, a.rootNorm, m_values.data(), m_stride, m_rootNorm.data(), m_d, b,
                                                    count, o);
                break;
            case Metric::Manhattan:
                blockDistances<Metric::Manhattan>(v, a.rootNorm, m_values.data(), m_stride, m_rootNorm.data(), m_d, b,
                                                  count, o);
                break;
            case Metric::Cosine:
                blockDistances<Metric::Cosine>(v, a.rootNorm, m_values.data(), m_stride, m_rootNorm.data(), m_d, b,
                                               count, o);
                break;
        }
    }
}

}  // namespace clusterlens::cpu
