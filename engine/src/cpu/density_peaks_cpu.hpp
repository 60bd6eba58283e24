#pragma once
// Tiled exact pairwise distances for the CPU density-peaks passes (rho, delta, dc selection, halo), and
// the halo steps that every backend shares.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"

namespace clusterlens::dpc {

/// The checks every halo backend makes (sizes, data, dc > 0 naming --dc); returns the number of
/// clusters (largest label + 1; 0 when every point is noise).
std::size_t haloClusterCount(const float* x, std::size_t n, std::size_t d, const DensityPeaksResult& result,
                             const std::vector<std::int32_t>& labels, double dc);

/// Labels with every point whose rho is below its cluster's border density set to -1. O(n).
std::vector<std::int32_t> haloLabels(const DensityPeaksResult& result, const std::vector<std::int32_t>& labels,
                                     const std::vector<double>& borderRho);

/// Candidate points handled per block of columns: the squared distances of one point to a block
/// stay in L1.
constexpr std::size_t kColumnBlock = 256;

/// Points stored feature-major (d rows of n floats), so that the distances from one point to a run
/// of consecutive points vectorise. Each distance has the bits of exactSquaredDistance (the sum runs
/// from feature 0 to d-1, multiply and add rounded separately). Memory 4·n·d bytes.
class FeatureMajorPoints {
public:
    /// Copies x (n x d, row-major); with `order`, point p of the copy is x[order[p]].
    FeatureMajorPoints(const float* x, std::size_t n, std::size_t d, const std::int64_t* order = nullptr)
        : m_n(n), m_d(d), m_values(n * d) {
        for (std::size_t p = 0; p < n; ++p) {
            const float* row = x + (order ? static_cast<std::size_t>(order[p]) : p) * d;
            for (std::size_t k = 0; k < d; ++k) m_values[k * n + p] = row[k];
        }
    }

    /// e[c] = exact squared distance from `point` (d floats) to copy points j0 .. j0+count-1.
    void distancesTo(const float* point, std::size_t j0, std::size_t count, double* e) const {
        for (std::size_t c = 0; c < count; ++c) e[c] = 0.0;
        for (std::size_t k = 0; k < m_d; ++k) {
            const double q = static_cast<double>(point[k]);
            const float* column = m_values.data() + k * m_n + j0;
            for (std::size_t c = 0; c < count; ++c) {
                const double diff = q - static_cast<double>(column[c]);
                e[c] += diff * diff;
            }
        }
    }

    std::size_t size() const { return m_n; }

private:
    std::size_t m_n;
    std::size_t m_d;
    std::vector<float> m_values;
};

}  // namespace clusterlens::dpc
