#include "clusterlens/synthetic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"

namespace clusterlens {
namespace {

/// Portable random source: mt19937_64's sequence is fixed by the standard; the transforms are ours.
class Random {
public:
    explicit Random(std::uint64_t seed) : m_engine(seed) {}
    /// Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    /// Standard normal by the Box–Muller transform (both values of a pair are used).
    double normal() {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        double u1 = 0.0;
        while (u1 <= 0.0) u1 = uniform();
        const double u2 = uniform();
        const double radius = std::sqrt(-2.0 * std::log(u1));
        m_spare = radius * std::sin(2.0 * std::numbers::pi * u2);
        m_hasSpare = true;
        return radius * std::cos(2.0 * std::numbers::pi * u2);
    }
    /// Uniform integer in [0, bound) without modulo bias (rejection of the incomplete last block).
    std::uint64_t below(std::uint64_t bound) {
        const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() / bound * bound;
        std::uint64_t x = m_engine();
        while (x >= limit) x = m_engine();
        return x % bound;
    }

private:
    std::mt19937_64 m_engine;
    double m_spare = 0.0;
    bool m_hasSpare = false;
};

/// Random rotation: Gram–Schmidt orthonormalisation of a d×d standard Gaussian matrix (rows).
std::vector<double> randomRotation(std::size_t d, Random& random) {
    std::vector<double> q(d * d);
    for (std::size_t r = 0; r < d; ++r) {
        double norm = 0.0;
        while (norm < 1e-6) {
            for (std::size_t c = 0; c < d; ++c) q[r * d + c] = random.normal();
            for (std::size_t p = 0; p < r; ++p) {
                double dot = 0.0;
                for (std::size_t c = 0; c < d; ++c) dot += q[r * d + c] * q[p * d + c];
                for (std::size_t c = 0; c < d; ++c) q[r * d + c] -= dot * q[p * d + c];
            }
            norm = 0.0;
            for (std::size_t c = 0; c < d; ++c) norm += q[r * d + c] * q[r * d + c];
            norm = std::sqrt(norm);
        }
        for (std::size_t c = 0; c < d; ++c) q[r * d + c] /= norm;
    }
    return q;
}

/// Splits `total` points into `k` populations with random relative weights, each at least 1.
std::vector<std::size_t> populationSizes(std::size_t total, std::size_t k, Random& random) {
    std::vector<double> weights(k);
    double sum = 0.0;
    for (double& w : weights) sum += (w = random.uniform(0.05, 1.0));
    std::vector<std::size_t> sizes(k, 1);
    std::size_t assigned = k;
    const std::size_t spare = total - k;
    for (std::size_t c = 0; c < k; ++c) {
        const auto extra = static_cast<std::size_t>(std::floor(weights[c] / sum * static_cast<double>(spare)));
        sizes[c] += extra;
        assigned += extra;
    }
    for (std::size_t c = 0; assigned < total; c = (c + 1) % k, ++assigned) ++sizes[c];
    return sizes;
}

void validate(const SyntheticOptions& o) {
    if (o.n < 2) throw InvalidInput("synthetic data: need at least 2 points, got " + std::to_string(o.n));
    if (o.d == 0) throw InvalidInput("synthetic data: need at least 1 feature");
    if (o.clusters == 0) throw InvalidInput("synthetic data: need at least 1 population");
    if (!(o.noiseFraction >= 0.0 && o.noiseFraction < 1.0))
        throw InvalidInput("synthetic data: the noise fraction must lie in [0, 1)");
    if (!(o.minScale > 0.0 && o.maxScale >= o.minScale && o.centreRange >= 0.0))
        throw InvalidInput("synthetic data: scales must satisfy 0 < minScale <= maxScale, centreRange >= 0");
}

}  // namespace

Dataset makeCytometryLike(const SyntheticOptions& options) {
    validate(options);
    const std::size_t n = options.n;
    const std::size_t d = options.d;
    const auto noise = static_cast<std::size_t>(std::llround(options.noiseFraction * static_cast<double>(n)));
    const std::size_t clustered = n - std::min(noise, n - 1);
    const std::size_t k = std::min(options.clusters, clustered);
    Random random(options.seed);

    std::vector<float> values(n * d);
    std::vector<std::int32_t> labels(n, -1);
    const std::vector<std::size_t> sizes = populationSizes(clustered, k, random);
    std::vector<double> centre(d), scale(d), z(d);
    std::size_t row = 0;
    for (std::size_t c = 0; c < k; ++c) {
        for (std::size_t j = 0; j < d; ++j) centre[j] = random.uniform(0.0, options.centreRange);
        for (std::size_t j = 0; j < d; ++j) scale[j] = random.uniform(options.minScale, options.maxScale);
        const std::vector<double> rotation = randomRotation(d, random);
        for (std::size_t i = 0; i < sizes[c]; ++i, ++row) {
            for (std::size_t j = 0; j < d; ++j) z[j] = random.normal() * scale[j];
            // x = centre + Rᵀ·(s ⊙ z): the rows of `rotation` are the principal axes.
            for (std::size_t j = 0; j < d; ++j) {
                double v = centre[j];
                for (std::size_t a = 0; a < d; ++a) v += rotation[a * d + j] * z[a];
                values[row * d + j] = static_cast<float>(v);
            }
            labels[row] = static_cast<std::int32_t>(c);
        }
    }

    std::vector<float> lo(d, std::numeric_limits<float>::max()), hi(d, std::numeric_limits<float>::lowest());
    for (std::size_t i = 0; i < row; ++i)
        for (std::size_t j = 0; j < d; ++j) {
            lo[j] = std::min(lo[j], values[i * d + j]);
            hi[j] = std::max(hi[j], values[i * d + j]);
        }
    for (; row < n; ++row)
        for (std::size_t j = 0; j < d; ++j) values[row * d + j] = static_cast<float>(random.uniform(lo[j], hi[j]));

    // Fisher–Yates shuffle so that populations are not contiguous in input order.
    for (std::size_t i = n - 1; i > 0; --i) {
        const auto r = static_cast<std::size_t>(random.below(i + 1));
        if (r == i) continue;
        std::swap_ranges(values.begin() + static_cast<std::ptrdiff_t>(i * d),
                         values.begin() + static_cast<std::ptrdiff_t>((i + 1) * d),
                         values.begin() + static_cast<std::ptrdiff_t>(r * d));
        std::swap(labels[i], labels[r]);
    }

    Dataset data;
    data.n = n;
    data.d = d;
    data.values = std::move(values);
    data.labels = std::move(labels);
    data.labelSource = "synthetic populations (-1 = uniform noise)";
    for (std::size_t j = 0; j < d; ++j) data.features.push_back("marker" + std::to_string(j + 1));
    data.provenance.path = "synthetic";
    data.provenance.format = "synthetic";
    data.provenance.detail = "cytometry-like: " + std::to_string(k) + " anisotropic Gaussians + " +
                             std::to_string(n - clustered) + " uniform noise points, seed " +
                             std::to_string(options.seed);
    return data;
}

}  // namespace clusterlens
