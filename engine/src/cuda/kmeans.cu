// Host side of the GPU k-means: the k-means++ draws and the bookkeeping of Lloyd's loop run on the
// host exactly as in kmeansCpu; distances, potentials, assignments and centroid sums on the GPU.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "clusterlens/cluster/kmeans_cuda.hpp"
#include "clusterlens/errors.hpp"
#include "cpu/classic_linkage_detail.hpp"
#include "cuda/kmeans_devices.cuh"

namespace clusterlens {
namespace {

using cuda::KMeansDevices;
using cuda::SeedMode;

double uniform01(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// Per-feature means, summed in point order.
std::vector<double> featureMeans(const float* x, std::size_t n, std::size_t d) {
    std::vector<double> means(d, 0.0);
    for (std::size_t j = 0; j < d; ++j) {
        for (std::size_t i = 0; i < n; ++i) means[j] += static_cast<double>(x[i * d + j]);
        means[j] /= static_cast<double>(n);
    }
    return means;
}

/// Mean over features of the per-feature variance (divided by n) about `means`, as kmeansCpu scales
/// the tolerance.
double meanVariance(const float* x, std::size_t n, std::size_t d, const std::vector<double>& means) {
    double total = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
        const double mean = means[j];
        double ss = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            const double diff = static_cast<double>(x[i * d + j]) - mean;
            ss += diff * diff;
        }
        total += ss / static_cast<double>(n);
    }
    return total / static_cast<double>(d);
}

/// Greedy k-means++ (Arthur & Vassilvitskii 2007; scikit-learn's greedy variant), step for step as
/// kmeansCpu's seeding: the same draws from `rng`, the cumulative potential summed sequentially on
/// the host from the GPU's squared distances, the best of 2 + floor(ln k) candidates.
std::vector<double> seedPlusPlus(KMeansDevices& device, const float* x, std::size_t n, std::size_t d, std::size_t k,
                                 std::mt19937_64& rng, JobControl* control) {
    std::vector<double> centroids(k * d);
    const auto setCentre = [&](std::size_t c, std::size_t i) {
        for (std::size_t j = 0; j < d; ++j) centroids[c * d + j] = static_cast<double>(x[i * d + j]);
    };
    const auto first = static_cast<std::size_t>(rng() % n);
    setCentre(0, first);
    double potential = device.seed(first, SeedMode::Initialise);
    const std::size_t trials = 2 + static_cast<std::size_t>(std::log(static_cast<double>(k)));
    std::vector<double> cumulative(n);
    std::vector<std::size_t> candidate(trials);
    std::vector<double> candidatePotential(trials);
    for (std::size_t c = 1; c < k; ++c) {
        if (potential > 0.0) {
            device.cumulativePotential(cumulative);
            for (std::size_t t = 0; t < trials; ++t) {
                const double r = uniform01(rng) * cumulative.back();
                const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), r);
                candidate[t] = std::min<std::size_t>(n - 1, static_cast<std::size_t>(it - cumulative.begin()));
            }
        } else {
            for (std::size_t t = 0; t < trials; ++t) candidate[t] = static_cast<std::size_t>(rng() % n);
        }
        for (std::size_t t = 0; t < trials; ++t) candidatePotential[t] = device.seed(candidate[t], SeedMode::Trial);
        const auto best = static_cast<std::size_t>(
            std::min_element(candidatePotential.begin(), candidatePotential.end()) - candidatePotential.begin());
        setCentre(c, candidate[best]);
        potential = device.seed(candidate[best], SeedMode::Update);
        if (control) control->checkCancelled();
    }
    return centroids;
}

/// Update step of kmeansCpu on the GPU's sums: means, and an empty cluster takes the point farthest
/// from its centroid among clusters keeping at least one point. Returns the summed squared shift.
double updateCentroids(KMeansDevices& device, const float* x, std::size_t n, std::size_t d, std::size_t k,
                       std::vector<double>& centroids) {
    std::vector<double> sums(k * d);
    std::vector<long long> counts(k);
    device.clusterSums(sums, counts);
    if (std::find(counts.begin(), counts.end(), 0LL) != counts.end()) {
        std::vector<std::int32_t> labels(n);
        std::vector<double> distance(n);
        device.copyLabels(labels);
        device.copyDistance(distance);
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t l, std::size_t r) { return distance[l] > distance[r]; });
        std::size_t next = 0;
        for (std::size_t c = 0; c < k; ++c) {
            if (counts[c] != 0) continue;
            while (next < n && counts[static_cast<std::size_t>(labels[order[next]])] < 2) ++next;
            if (next == n) break;
            const std::size_t i = order[next++];
            const auto from = static_cast<std::size_t>(labels[i]);
            --counts[from];
            counts[c] = 1;
            for (std::size_t j = 0; j < d; ++j) {
                const double v = static_cast<double>(x[i * d + j]);
                sums[from * d + j] -= v;
                sums[c * d + j] = v;
            }
            labels[i] = static_cast<std::int32_t>(c);
        }
        device.uploadLabels(labels);
    }
    double shift = 0.0;
    for (std::size_t c = 0; c < k; ++c) {
        if (counts[c] == 0) continue;
        for (std::size_t j = 0; j < d; ++j) {
            const double mean = sums[c * d + j] / static_cast<double>(counts[c]);
            const double delta = mean - centroids[c * d + j];
            shift += delta * delta;
            centroids[c * d + j] = mean;
        }
    }
    return shift;
}

}  // namespace

KMeansResult kmeansCuda(const float* x, std::size_t n, std::size_t d, const KMeansOptions& options, JobControl* control,
                        KMeansAssignment assignment) {
    if (options.k == 0) throw InvalidInput("-k must be at least 1");
    cpu::checkPoints(x, n, d, 1, "k-means");
    if (options.k > n)
        throw InvalidInput("-k " + std::to_string(options.k) + " is larger than the number of points (" +
                           std::to_string(n) + ")");
    if (!(options.tolerance >= 0.0)) throw InvalidInput("the k-means tolerance must be zero or positive");
    const std::size_t k = options.k;
    if (n >= static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        k * d >= static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw InvalidInput("GPU k-means supports fewer than 2^31 points and k·D below 2^31; use --backend cpu");

    const std::vector<double> means = featureMeans(x, n, d);
    KMeansDevices device(x, n, d, k, assignment, means, options.cudaDevices);
    std::mt19937_64 rng(options.seed);
    std::vector<double> centroids = seedPlusPlus(device, x, n, d, k, rng, control);
    KMeansResult result;
    KMeansDevices::Assignment step = device.assign(centroids);
    result.inertiaHistory.push_back(step.inertia);
    const double tolerance = options.tolerance * meanVariance(x, n, d, means);
    while (result.iterations < options.maxIterations) {
        const double shift = updateCentroids(device, x, n, d, k, centroids);
        ++result.iterations;
        step = device.assign(centroids);
        result.inertiaHistory.push_back(step.inertia);
        if (control) {
            control->checkCancelled();
            control->setProgress(static_cast<double>(result.iterations) / static_cast<double>(options.maxIterations));
        }
        if (step.changed == 0 || shift <= tolerance) {
            result.converged = true;
            break;
        }
    }
    result.labels.resize(n);
    device.copyLabels(result.labels);
    std::vector<std::size_t> counts(k, 0);
    for (const std::int32_t label : result.labels) ++counts[static_cast<std::size_t>(label)];
    result.emptyClusters = static_cast<std::size_t>(std::count(counts.begin(), counts.end(), std::size_t{0}));
    result.inertia = step.inertia;
    result.centroids = std::move(centroids);
    if (control) control->setProgress(1.0);
    return result;
}

}  // namespace clusterlens
