// k-means: greedy k-means++ seeding and Lloyd iterations on the CPU.

#include "clusterlens/cluster/kmeans.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "clusterlens/errors.hpp"
#include "cpu/classic_linkage_detail.hpp"
#include "cpu/thread_pool.hpp"

namespace clusterlens {

namespace {

// Points per task. Fixed, so partial sums are added in the same order whatever the thread count.
constexpr std::size_t kKMeansBlock = 2048;

double uniform01(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

template <class T>
double squaredDistance(const T* point, const double* centre, std::size_t d) {
    double sum = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
        const double diff = static_cast<double>(point[j]) - centre[j];
        sum += diff * diff;
    }
    return sum;
}

// Runs body(begin, end) for each block of points on the pool and returns the block results summed in
// block order.
template <class Body>
double sumOverBlocks(cpu::ThreadPool& pool, std::size_t n, JobControl* control, Body&& body) {
    const std::size_t blocks = (n + kKMeansBlock - 1) / kKMeansBlock;
    std::vector<double> partial(blocks, 0.0);
    pool.run(blocks, [&](std::size_t b) {
        if (control && control->isCancelled()) return;
        partial[b] = body(b * kKMeansBlock, std::min(n, (b + 1) * kKMeansBlock));
    });
    if (control) control->checkCancelled();
    double total = 0.0;
    for (const double p : partial) total += p;
    return total;
}

template <class T>
struct KMeansState {
    const T* x;
    std::size_t n;
    std::size_t d;
    std::size_t k;
    std::vector<double> centroids;     // k*d
    std::vector<std::int32_t> labels;  // n
    std::vector<double> distance;      // n: squared distance to the assigned centroid
};

// Greedy k-means++ (Arthur & Vassilvitskii 2007, "k-means++: the advantages of careful seeding";
// the greedy variant of scikit-learn): the first centre is a uniform draw; each further centre is the
// best of 2 + floor(ln k) draws with probability proportional to the squared distance to the nearest
// centre so far, "best" meaning the smallest resulting potential. With a zero potential (fewer
// distinct points than centres) the draw is uniform.
template <class T>
void seedPlusPlus(KMeansState<T>& s, std::mt19937_64& rng, cpu::ThreadPool& pool, JobControl* control) {
    const std::size_t n = s.n;
    const std::size_t d = s.d;
    const auto pointAt = [&](std::size_t i) { return s.x + i * d; };
    const auto setCentre = [&](std::size_t c, std::size_t i) {
        for (std::size_t j = 0; j < d; ++j) s.centroids[c * d + j] = static_cast<double>(pointAt(i)[j]);
    };
    std::vector<double> closest(n);
    setCentre(0, static_cast<std::size_t>(rng() % n));
    double potential = sumOverBlocks(pool, n, control, [&](std::size_t begin, std::size_t end) {
        double sum = 0.0;
        for (std::size_t i = begin; i < end; ++i)
            sum += closest[i] = squaredDistance(pointAt(i), s.centroids.data(), d);
        return sum;
    });
    const std::size_t trials = 2 + static_cast<std::size_t>(std::log(static_cast<double>(s.k)));
    std::vector<double> cumulative(n);
    std::vector<std::size_t> candidate(trials);
    std::vector<double> candidatePotential(trials);
    for (std::size_t c = 1; c < s.k; ++c) {
        if (potential > 0.0) {
            std::partial_sum(closest.begin(), closest.end(), cumulative.begin());
            for (std::size_t t = 0; t < trials; ++t) {
                const double r = uniform01(rng) * cumulative.back();
                const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), r);
                candidate[t] = std::min<std::size_t>(n - 1, static_cast<std::size_t>(it - cumulative.begin()));
            }
        } else {
            for (std::size_t t = 0; t < trials; ++t) candidate[t] = static_cast<std::size_t>(rng() % n);
        }
        for (std::size_t t = 0; t < trials; ++t) {
            std::vector<double> centre(pointAt(candidate[t]), pointAt(candidate[t]) + d);
            candidatePotential[t] = sumOverBlocks(pool, n, control, [&](std::size_t begin, std::size_t end) {
                double sum = 0.0;
                for (std::size_t i = begin; i < end; ++i)
                    sum += std::min(closest[i], squaredDistance(pointAt(i), centre.data(), d));
                return sum;
            });
        }
        const std::size_t best = static_cast<std::size_t>(
            std::min_element(candidatePotential.begin(), candidatePotential.end()) - candidatePotential.begin());
        setCentre(c, candidate[best]);
        const double* centre = s.centroids.data() + c * d;
        potential = sumOverBlocks(pool, n, control, [&](std::size_t begin, std::size_t end) {
            double sum = 0.0;
            for (std::size_t i = begin; i < end; ++i)
                sum += closest[i] = std::min(closest[i], squaredDistance(pointAt(i), centre, d));
            return sum;
        });
    }
}

struct AssignResult {
    double inertia = 0.0;
    std::size_t changed = 0;
};

// Assignment step: every point takes its nearest centroid (lower label on ties). Multithreaded.
template <class T>
AssignResult assignPoints(KMeansState<T>& s, cpu::ThreadPool& pool, JobControl* control) {
    const std::size_t blocks = (s.n + kKMeansBlock - 1) / kKMeansBlock;
    std::vector<std::size_t> changed(blocks, 0);
    AssignResult result;
    result.inertia = sumOverBlocks(pool, s.n, control, [&](std::size_t begin, std::size_t end) {
        double sum = 0.0;
        std::size_t moved = 0;
        for (std::size_t i = begin; i < end; ++i) {
            const T* point = s.x + i * s.d;
            double best = std::numeric_limits<double>::infinity();
            std::int32_t label = 0;
            for (std::size_t c = 0; c < s.k; ++c) {
                const double dist = squaredDistance(point, s.centroids.data() + c * s.d, s.d);
                if (dist < best) {
                    best = dist;
                    label = static_cast<std::int32_t>(c);
                }
            }
            moved += s.labels[i] != label ? 1 : 0;
            s.labels[i] = label;
            s.distance[i] = best;
            sum += best;
        }
        changed[begin / kKMeansBlock] = moved;
        return sum;
    });
    for (const std::size_t m : changed) result.changed += m;
    return result;
}

// Update step: centroids become the means of their points. An empty cluster takes the point farthest
// from its centroid among clusters that keep at least one point (scikit-learn's relocation), which
// never increases the inertia. Returns the summed squared shift of the centroids. Sequential, O(n d).
template <class T>
double updateCentroids(KMeansState<T>& s) {
    const std::size_t d = s.d;
    std::vector<double> sums(s.k * d, 0.0);
    std::vector<std::size_t> counts(s.k, 0);
    for (std::size_t i = 0; i < s.n; ++i) {
        const auto c = static_cast<std::size_t>(s.labels[i]);
        ++counts[c];
        for (std::size_t j = 0; j < d; ++j) sums[c * d + j] += static_cast<double>(s.x[i * d + j]);
    }
    if (std::find(counts.begin(), counts.end(), std::size_t{0}) != counts.end()) {
        std::vector<std::size_t> order(s.n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t l, std::size_t r) { return s.distance[l] > s.distance[r]; });
        std::size_t next = 0;
        for (std::size_t c = 0; c < s.k; ++c) {
            if (counts[c] != 0) continue;
            while (next < s.n && counts[static_cast<std::size_t>(s.labels[order[next]])] < 2) ++next;
            if (next == s.n) break;
            const std::size_t i = order[next++];
            const auto from = static_cast<std::size_t>(s.labels[i]);
            --counts[from];
            counts[c] = 1;
            for (std::size_t j = 0; j < d; ++j) {
                const double v = static_cast<double>(s.x[i * d + j]);
                sums[from * d + j] -= v;
                sums[c * d + j] = v;
            }
            s.labels[i] = static_cast<std::int32_t>(c);
            s.distance[i] = 0.0;
        }
    }
    double shift = 0.0;
    for (std::size_t c = 0; c < s.k; ++c) {
        if (counts[c] == 0) continue;
        for (std::size_t j = 0; j < d; ++j) {
            const double mean = sums[c * d + j] / static_cast<double>(counts[c]);
            const double delta = mean - s.centroids[c * d + j];
            shift += delta * delta;
            s.centroids[c * d + j] = mean;
        }
    }
    return shift;
}

// Mean over features of the per-feature variance (divided by n), for the relative tolerance.
template <class T>
double meanVariance(const T* x, std::size_t n, std::size_t d) {
    double total = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
        double mean = 0.0;
        for (std::size_t i = 0; i < n; ++i) mean += static_cast<double>(x[i * d + j]);
        mean /= static_cast<double>(n);
        double ss = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            const double diff = static_cast<double>(x[i * d + j]) - mean;
            ss += diff * diff;
        }
        total += ss / static_cast<double>(n);
    }
    return total / static_cast<double>(d);
}

// Lloyd's algorithm (Lloyd 1982, "Least squares quantization in PCM") from k-means++ centres:
// alternate the assignment and update steps until no label changes, the centroid shift is below the
// tolerance, or maxIterations updates were made.
template <class T>
KMeansResult kmeansImpl(const T* x, std::size_t n, std::size_t d, const KMeansOptions& options, JobControl* control) {
    if (options.k == 0) throw InvalidInput("-k must be at least 1");
    cpu::checkPoints(x, n, d, 1, "k-means");
    if (options.k > n)
        throw InvalidInput("-k " + std::to_string(options.k) + " is larger than the number of points (" +
                           std::to_string(n) + ")");
    if (options.k > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw InvalidInput("-k " + std::to_string(options.k) + " is too large");
    if (!(options.tolerance >= 0.0)) throw InvalidInput("the k-means tolerance must be zero or positive");

    KMeansState<T> s{x,
                     n,
                     d,
                     options.k,
                     std::vector<double>(options.k * d),
                     std::vector<std::int32_t>(n, -1),
                     std::vector<double>(n, 0.0)};
    cpu::ThreadPool pool;
    std::mt19937_64 rng(options.seed);
    seedPlusPlus(s, rng, pool, control);
    KMeansResult result;
    AssignResult step = assignPoints(s, pool, control);
    result.inertiaHistory.push_back(step.inertia);
    const double tolerance = options.tolerance * meanVariance(x, n, d);
    while (result.iterations < options.maxIterations) {
        const double shift = updateCentroids(s);
        ++result.iterations;
        step = assignPoints(s, pool, control);
        result.inertiaHistory.push_back(step.inertia);
        if (control)
            control->setProgress(static_cast<double>(result.iterations) / static_cast<double>(options.maxIterations));
        if (step.changed == 0 || shift <= tolerance) {
            result.converged = true;
            break;
        }
    }
    std::vector<std::size_t> counts(options.k, 0);
    for (const std::int32_t label : s.labels) ++counts[static_cast<std::size_t>(label)];
    result.emptyClusters = static_cast<std::size_t>(std::count(counts.begin(), counts.end(), std::size_t{0}));
    result.inertia = step.inertia;
    result.labels = std::move(s.labels);
    result.centroids = std::move(s.centroids);
    if (control) control->setProgress(1.0);
    return result;
}

}  // namespace

KMeansResult kmeansCpu(const float* x, std::size_t n, std::size_t d, const KMeansOptions& options,
                       JobControl* control) {
    return kmeansImpl(x, n, d, options, control);
}

KMeansResult kmeansCpu(const double* x, std::size_t n, std::size_t d, const KMeansOptions& options,
                       JobControl* control) {
    return kmeansImpl(x, n, d, options, control);
}

}  // namespace clusterlens
