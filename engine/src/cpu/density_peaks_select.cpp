// Validation, pair sampling and the exact dc percentile of density-peaks clustering, shared by the
// CPU reference and the CUDA host code.

#include "cpu/density_peaks_select.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "clusterlens/errors.hpp"
#include "cpu/density_peaks_math.hpp"

namespace clusterlens::dpc {

namespace {

std::uint64_t splitMix64(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// An index in [0, n) from 64 random bits (bias below n / 2^64).
std::uint64_t scaleToRange(std::uint64_t r, std::uint64_t n) {
    return r % n;
}

std::string formatNumber(double v) {
    std::ostringstream out;
    out.precision(10);
    out << v;
    return out.str();
}

}  // namespace

void validateInput(const float* x, std::size_t n, std::size_t d, const DensityPeaksOptions& options) {
    if (n < 2) throw InvalidInput("density peaks needs at least 2 points, got " + std::to_string(n));
    if (d == 0) throw InvalidInput("density peaks needs at least one feature (d = 0)");
    if (x == nullptr) throw InvalidInput("density peaks: no data");
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < d; ++k)
            if (!std::isfinite(x[i * d + k]))
                throw NonFiniteInput("density peaks: point " + std::to_string(i) + ", feature " + std::to_string(k) +
                                     " is NaN or infinite; remove or replace such values first");
    if (options.dc) {
        const double dc = *options.dc;
        if (!std::isfinite(dc) || dc <= 0.0)
            throw InvalidInput("--dc: the cutoff distance must be a positive number, got " + formatNumber(dc));
    } else {
        const double p = options.dcPercent;
        if (!std::isfinite(p) || p <= 0.0 || p >= 100.0)
            throw InvalidInput("--dc-percent: the percentile must lie strictly between 0 and 100, got " +
                               formatNumber(p));
        if (!options.exactPercentile && options.sampleSize == 0)
            throw InvalidInput("--dc-percent: a sampled percentile needs a sample of at least one pair");
    }
}

double squaredDistanceUpperBound(const float* x, std::size_t n, std::size_t d) {
    double bound = 0.0;
    for (std::size_t k = 0; k < d; ++k) {
        double lo = std::numeric_limits<double>::infinity();
        double hi = -lo;
        for (std::size_t i = 0; i < n; ++i) {
            lo = std::min(lo, static_cast<double>(x[i * d + k]));
            hi = std::max(hi, static_cast<double>(x[i * d + k]));
        }
        bound += (hi - lo) * (hi - lo);
    }
    // Exact squared distances carry at most (d+1) roundings of 2^-53: 1e-9 relative is ample.
    return std::nextafter(bound * (1.0 + 1e-9) + 1e-300, std::numeric_limits<double>::infinity());
}

std::vector<double> samplePairSquaredDistances(const float* x, std::size_t n, std::size_t d, std::size_t count,
                                               std::uint64_t seed, cpu::ThreadPool& pool) {
    std::vector<double> sample(count);
    const std::uint64_t base = splitMix64(seed ^ 0x6A09E667F3BCC909ULL);
    cpu::parallelFor(pool, count, 4096, [&](std::size_t begin, std::size_t end) {
        for (std::size_t s = begin; s < end; ++s) {
            const std::uint64_t r1 = splitMix64(base + 2 * static_cast<std::uint64_t>(s));
            const std::uint64_t r2 = splitMix64(base + 2 * static_cast<std::uint64_t>(s) + 1);
            const std::uint64_t i = scaleToRange(r1, n);
            std::uint64_t j = scaleToRange(r2, n - 1);
            if (j >= i) ++j;
            const float* a = x + i * d;
            const float* b = x + j * d;
            sample[s] =
                exactSquaredDistance([a](int k) { return a[k]; }, [b](int k) { return b[k]; }, static_cast<int>(d));
        }
    });
    return sample;
}

namespace {

/// The value of (0-based) rank r of `values`, partially reordering them.
double orderStatistic(std::vector<double>& values, std::size_t r) {
    const auto nth = values.begin() + static_cast<std::ptrdiff_t>(r);
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

}  // namespace

namespace {

/// A window whose exact counts showed that it holds rank k, with its histogram.
struct VerifiedWindow {
    double lo = 0.0;
    double hi = 0.0;
    std::vector<std::uint64_t> hist;
    std::size_t rankBin = 0;  ///< the bin holding rank k
    std::size_t margin = 0;   ///< bins on each side of rankBin taken into the next window
    bool valid = false;

    double edge(std::size_t e) const {
        const std::size_t bins = hist.size();
        return e >= bins ? hi : lo + (hi - lo) * static_cast<double>(e) / static_cast<double>(bins);
    }
    /// The next window: rankBin and `bins` bins on each side; its expected count.
    double narrow(std::size_t bins, double& newLo, double& newHi) const {
        const std::size_t b0 = rankBin > bins ? rankBin - bins : 0;
        const std::size_t b1 = std::min(hist.size(), rankBin + 1 + bins);
        newLo = edge(b0);
        newHi = edge(b1);
        if (newHi <= newLo) newHi = std::nextafter(newLo, std::numeric_limits<double>::infinity());
        double expected = 0.0;
        for (std::size_t e = b0; e < b1; ++e) expected += static_cast<double>(hist[e]);
        return expected;
    }
};

}  // namespace

double selectPairSquared(std::uint64_t k, std::uint64_t m, double upper, std::vector<double> sample,
                         std::size_t capacity, const PairWindowPass& pass, int& passes) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double lo = 0.0;
    double hi = upper;
    double expected = static_cast<double>(m);
    if (!sample.empty() && m > capacity) {
        // Rank of the percentile within the sample: binomial, mean S·q, bracketed at 6 deviations.
        const double s = static_cast<double>(sample.size());
        const double q = static_cast<double>(k) / static_cast<double>(m);
        const double mean = s * q;
        const double spread = 6.0 * std::sqrt(s * q * (1.0 - q)) + 2.0;
        const double loRank = std::floor(mean - spread);
        const double hiRank = std::ceil(mean + spread);
        if (loRank >= 0.0) lo = orderStatistic(sample, static_cast<std::size_t>(loRank));
        if (hiRank < s)
            hi = std::min(upper, std::nextafter(orderStatistic(sample, static_cast<std::size_t>(hiRank)), kInf));
        expected = static_cast<double>(m) * (std::min(hiRank, s) - std::max(loRank, 0.0) + 1.0) / s;
    }
    VerifiedWindow verified;
    for (int iteration = 0; iteration < 200; ++iteration) {
        const bool single = hi <= std::nextafter(lo, kInf);
        PairWindow window;
        window.lo = lo;
        window.hi = hi;
        window.bins = single ? 0 : kHistogramBins;
        window.collect = !single && expected <= static_cast<double>(capacity);
        window.capacity = capacity;
        PairWindowCounts counts = pass(window);
        ++passes;
        if (counts.below >= k || counts.below + counts.inside < k) {
            if (verified.valid) {
                // Histogram bins are estimates (the GPU bins pairs by their float distance): go back
                // to the last window known to hold rank k and take more bins around it.
                verified.margin = 2 * verified.margin + 1;
                expected = verified.narrow(verified.margin, lo, hi);
            } else if (counts.below >= k) {  // the sample bracket was too high: everything below it
                hi = lo;
                lo = 0.0;
                expected = static_cast<double>(m);
            } else {  // too low: everything above it
                lo = hi;
                hi = upper;
                expected = static_cast<double>(m);
            }
            continue;
        }
        if (single) return lo;
        if (window.collect && !counts.overflow && counts.values.size() == counts.inside) {
            const auto nth = counts.values.begin() + static_cast<std::ptrdiff_t>(k - counts.below - 1);
            std::nth_element(counts.values.begin(), nth, counts.values.end());
            return *nth;
        }
        // Narrow to the bin holding rank k and as many neighbours as the collect buffer allows.
        verified.lo = lo;
        verified.hi = hi;
        verified.hist = std::move(counts.hist);
        verified.valid = true;
        std::uint64_t cumulative = counts.below;
        std::size_t b = 0;
        while (b + 1 < window.bins && cumulative + verified.hist[b] < k) cumulative += verified.hist[b++];
        verified.rankBin = b;
        verified.margin = 1;
        expected = verified.narrow(1, lo, hi);
        for (std::size_t wider = 2; wider <= 8; ++wider) {
            double trialLo = 0.0;
            double trialHi = 0.0;
            const double trialExpected = verified.narrow(wider, trialLo, trialHi);
            if (trialExpected > 0.5 * static_cast<double>(capacity)) break;
            verified.margin = wider;
            expected = trialExpected;
            lo = trialLo;
            hi = trialHi;
        }
    }
    throw std::logic_error("density peaks: the exact dc selection did not converge");
}

DcChoice chooseDc(const float* x, std::size_t n, std::size_t d, const DensityPeaksOptions& options,
                  cpu::ThreadPool& pool, const PairWindowPass& pass) {
    DcChoice choice;
    if (options.dc) {
        choice.value = *options.dc;
        choice.percent = 0.0;
        choice.exact = true;
        choice.method = "user";
        return choice;
    }
    choice.percent = options.dcPercent;
    const std::uint64_t m = static_cast<std::uint64_t>(n) * (n - 1) / 2;
    const std::uint64_t k = percentileRank(options.dcPercent, m);
    const bool sampled = !options.exactPercentile && m > options.sampleSize;
    const std::size_t sampleCount = sampled || m > collectCapacity(n) ? options.sampleSize : 0;
    std::vector<double> sample = samplePairSquaredDistances(x, n, d, sampleCount, options.seed, pool);
    choice.samplePairs = sampleCount;
    double e = 0.0;
    if (sampled) {
        e = orderStatistic(sample, percentileRank(options.dcPercent, sample.size()) - 1);
        choice.exact = false;
        choice.method = "sampled";
    } else {
        e = selectPairSquared(k, m, squaredDistanceUpperBound(x, n, d), std::move(sample), collectCapacity(n), pass,
                              choice.passes);
        choice.exact = true;
        choice.method = "exact";
    }
    choice.value = std::sqrt(e);
    if (!(choice.value > 0.0))
        throw InvalidInput("--dc-percent: the " + formatNumber(options.dcPercent) +
                           " % percentile of the pairwise distances is 0 (many duplicate points); "
                           "choose a larger --dc-percent or give --dc");
    return choice;
}

void computeGamma(DensityPeaksResult& result) {
    result.gamma.resize(result.rho.size());
    for (std::size_t i = 0; i < result.rho.size(); ++i) result.gamma[i] = result.rho[i] * result.delta[i];
}

}  // namespace clusterlens::dpc
