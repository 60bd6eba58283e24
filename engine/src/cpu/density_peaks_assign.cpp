// Density-peaks clustering after rho and delta (Rodriguez & Laio 2014): choosing peaks on the
// decision graph, the O(n) assignment along the nearest-higher links, the cluster halo, and a
// suggested number of peaks.

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <string>

#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/errors.hpp"
#include "cpu/density_peaks_cpu.hpp"
#include "cpu/density_peaks_math.hpp"
#include "cpu/thread_pool.hpp"

namespace clusterlens {

namespace {

constexpr std::int32_t kUnassigned = -1;
constexpr std::int32_t kPeakMark = -2;

void requireComplete(const DensityPeaksResult& result) {
    const std::size_t n = result.rho.size();
    if (result.delta.size() != n || result.gamma.size() != n || result.nearestHigher.size() != n ||
        result.densityOrder.size() != n)
        throw InvalidInput("density peaks: the result is incomplete (rho, delta, gamma and links differ in length)");
}

/// Gamma order: larger gamma first, equal gammas by smaller index.
bool gammaBefore(const std::vector<double>& gamma, std::int64_t a, std::int64_t b) {
    const double ga = gamma[static_cast<std::size_t>(a)];
    const double gb = gamma[static_cast<std::size_t>(b)];
    return ga > gb || (ga == gb && a < b);
}

}  // namespace

std::vector<std::int64_t> peaksTopK(const DensityPeaksResult& result, std::size_t k) {
    requireComplete(result);
    const std::size_t n = result.gamma.size();
    if (k == 0 || k > n)
        throw InvalidInput("--peaks-top: the number of peaks must lie between 1 and the number of points (" +
                           std::to_string(n) + "), got " + std::to_string(k));
    std::vector<std::int64_t> index(n);
    std::iota(index.begin(), index.end(), std::int64_t{0});
    std::partial_sort(index.begin(), index.begin() + static_cast<std::ptrdiff_t>(k), index.end(),
                      [&](std::int64_t a, std::int64_t b) { return gammaBefore(result.gamma, a, b); });
    index.resize(k);
    return index;
}

std::vector<std::int64_t> peaksByThreshold(const DensityPeaksResult& result, double rhoMin, double deltaMin) {
    requireComplete(result);
    std::vector<std::int64_t> peaks;
    for (const std::int64_t i : result.densityOrder) {
        const auto u = static_cast<std::size_t>(i);
        if (result.rho[u] > rhoMin && result.delta[u] > deltaMin) peaks.push_back(i);
    }
    return peaks;
}

std::vector<std::int32_t> assignFromPeaks(const DensityPeaksResult& result, const std::vector<std::int64_t>& peaks) {
    requireComplete(result);
    const std::size_t n = result.rho.size();
    if (peaks.empty())
        throw InvalidInput("--peaks: no peaks were chosen; choose at least one (--peaks or --peaks-top)");
    if (peaks.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw InvalidInput("--peaks: too many peaks");
    std::vector<std::int32_t> labels(n, kUnassigned);
    for (const std::int64_t p : peaks) {
        if (p < 0 || static_cast<std::uint64_t>(p) >= n)
            throw InvalidInput("--peaks: point " + std::to_string(p) + " does not exist (points are numbered 0 to " +
                               std::to_string(n - 1) + ")");
        if (labels[static_cast<std::size_t>(p)] == kPeakMark)
            throw InvalidInput("--peaks: point " + std::to_string(p) + " is listed twice");
        labels[static_cast<std::size_t>(p)] = kPeakMark;
    }
    // Peaks are met in decreasing density, so they are numbered 0..K-1 in that order; a point's
    // nearest higher point comes before it in the order and is already labelled.
    std::int32_t next = 0;
    for (const std::int64_t o : result.densityOrder) {
        std::int32_t& label = labels[static_cast<std::size_t>(o)];
        if (label == kPeakMark) {
            label = next++;
            continue;
        }
        const std::int64_t up = result.nearestHigher[static_cast<std::size_t>(o)];
        if (up < 0) {
            label = 0;
            continue;
        }
        label = labels[static_cast<std::size_t>(up)];
        if (label < 0) throw InvalidInput("density peaks: the nearest-higher links do not follow the density order");
    }
    return labels;
}

namespace dpc {

std::size_t haloClusterCount(const float* x, std::size_t n, std::size_t d, const DensityPeaksResult& result,
                             const std::vector<std::int32_t>& labels, double dc) {
    requireComplete(result);
    if (result.rho.size() != n || labels.size() != n)
        throw InvalidInput("density peaks halo: the data, the result and the labels must describe the same " +
                           std::to_string(n) + " points");
    if (d == 0 || x == nullptr) throw InvalidInput("density peaks halo: no data");
    if (!std::isfinite(dc) || dc <= 0.0) throw InvalidInput("--dc: the halo needs a positive cutoff distance");
    std::int32_t clusters = 0;
    for (const std::int32_t l : labels) clusters = std::max(clusters, l + 1);
    return static_cast<std::size_t>(clusters);
}

std::vector<std::int32_t> haloLabels(const DensityPeaksResult& result, const std::vector<std::int32_t>& labels,
                                     const std::vector<double>& borderRho) {
    std::vector<std::int32_t> out = labels;
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i] >= 0 && result.rho[i] < borderRho[static_cast<std::size_t>(out[i])]) out[i] = -1;
    return out;
}

}  // namespace dpc

std::vector<std::int32_t> applyHaloCpu(const float* x, std::size_t n, std::size_t d, const DensityPeaksResult& result,
                                       const std::vector<std::int32_t>& labels, double dc, JobControl* control) {
    const std::size_t k = dpc::haloClusterCount(x, n, d, result, labels, dc);
    if (k == 0) return labels;
    const double threshold = dpc::cutoffSquaredThreshold(dc);
    constexpr std::size_t kRows = 32;
    const std::size_t tasks = (n + kRows - 1) / kRows;
    const dpc::FeatureMajorPoints points(x, n, d);
    cpu::ThreadPool pool;
    std::vector<std::vector<double>> border(tasks);
    pool.run(tasks, [&](std::size_t t) {
        std::vector<double>& local = border[t];
        local.assign(k, 0.0);
        if (control && control->isCancelled()) return;
        double e[dpc::kColumnBlock];
        for (std::size_t i = t * kRows; i < std::min(n, (t + 1) * kRows); ++i) {
            if (labels[i] < 0) continue;
            for (std::size_t j0 = i + 1; j0 < n; j0 += dpc::kColumnBlock) {
                const std::size_t count = std::min(dpc::kColumnBlock, n - j0);
                points.distancesTo(x + i * d, j0, count, e);
                for (std::size_t c = 0; c < count; ++c) {
                    const std::size_t j = j0 + c;
                    if (labels[j] < 0 || labels[j] == labels[i] || !(e[c] < threshold)) continue;
                    const double average = 0.5 * (result.rho[i] + result.rho[j]);
                    double& bi = local[static_cast<std::size_t>(labels[i])];
                    double& bj = local[static_cast<std::size_t>(labels[j])];
                    bi = std::max(bi, average);
                    bj = std::max(bj, average);
                }
            }
        }
    });
    if (control) control->checkCancelled();
    std::vector<double> borderRho(k, 0.0);
    for (const std::vector<double>& local : border)
        for (std::size_t c = 0; c < k; ++c) borderRho[c] = std::max(borderRho[c], local[c]);
    return dpc::haloLabels(result, labels, borderRho);
}

std::size_t suggestPeakCount(const DensityPeaksResult& result) {
    requireComplete(result);
    const std::size_t n = result.gamma.size();
    if (n < 3) return 1;
    const auto root = static_cast<std::size_t>(std::sqrt(static_cast<double>(n)));
    const std::size_t kMax = std::min(n - 1, std::max<std::size_t>(20, root));
    std::vector<double> top(result.gamma);
    std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(kMax + 1), top.end(), std::greater<>());
    double smallestPositive = std::numeric_limits<double>::infinity();
    for (const double g : result.gamma)
        if (g > 0.0) smallestPositive = std::min(smallestPositive, g);
    if (!std::isfinite(smallestPositive)) return 1;
    const double floor = smallestPositive * 0x1.0p-20;
    const auto logGamma = [&](std::size_t rank) { return std::log(std::max(top[rank - 1], floor)); };
    std::size_t best = 1;
    double bestDrop = -1.0;
    for (std::size_t k = 2; k <= kMax; ++k) {
        const double drop = logGamma(k) - logGamma(k + 1);
        if (drop > bestDrop) {
            bestDrop = drop;
            best = k;
        }
    }
    return best;
}

}  // namespace clusterlens
