// Density-peaks clustering on the CPU (Rodriguez & Laio 2014): the double-precision reference.
// Every pass is tiled over blocks of rows (thread-pool tasks) and blocks of kColumnBlock columns; no
// pairwise matrix is stored. Sums run over j in ascending order inside one task, so the results do
// not depend on the number of threads.

#include "clusterlens/cluster/density_peaks.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

#include "clusterlens/errors.hpp"
#include "cpu/density_peaks_cpu.hpp"
#include "cpu/density_peaks_grid.hpp"
#include "cpu/density_peaks_math.hpp"
#include "cpu/density_peaks_select.hpp"
#include "cpu/density_peaks_tree.hpp"
#include "cpu/kd_tree.hpp"
#include "cpu/thread_pool.hpp"

namespace clusterlens {

namespace {

using dpc::FeatureMajorPoints;
using dpc::kColumnBlock;

// Rows per thread-pool task, each row a scan of all n points: 8 rows at 1M points is ~10-20 ms of one
// thread, so a cancel (checked before each task) lands well within 200 ms.
constexpr std::size_t kRowBlock = 8;

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Runs task(t) for t in [0, tasks) on the pool, checking for a cancel before each task and
/// reporting progress from `from` to `to`.
template <class Task>
void runTasks(cpu::ThreadPool& pool, std::size_t tasks, JobControl* control, double from, double to, Task&& task) {
    std::atomic<std::size_t> done{0};
    pool.run(tasks, [&](std::size_t t) {
        if (control) {
            control->checkCancelled();
            control->setProgress(from + (to - from) * static_cast<double>(done.load()) / static_cast<double>(tasks));
        }
        task(t);
        done.fetch_add(1, std::memory_order_relaxed);
    });
    if (control) control->checkCancelled();
}

/// Local densities (one pass over all ordered pairs).
std::vector<double> computeRho(const float* x, std::size_t n, std::size_t d, const FeatureMajorPoints& points,
                               DensityKernel kernel, double dc, cpu::ThreadPool& pool, JobControl* control) {
    std::vector<double> rho(n, 0.0);
    const double dc2 = dc * dc;
    const double threshold = dpc::cutoffSquaredThreshold(dc);
    const std::size_t tasks = (n + kRowBlock - 1) / kRowBlock;
    runTasks(pool, tasks, control, 0.2, 0.6, [&](std::size_t t) {
        double e[kColumnBlock];
        for (std::size_t i = t * kRowBlock; i < std::min(n, (t + 1) * kRowBlock); ++i) {
            double sum = 0.0;
            for (std::size_t j0 = 0; j0 < n; j0 += kColumnBlock) {
                const std::size_t count = std::min(kColumnBlock, n - j0);
                points.distancesTo(x + i * d, j0, count, e);
                if (kernel == DensityKernel::Cutoff) {
                    for (std::size_t c = 0; c < count; ++c) e[c] = e[c] < threshold ? 1.0 : 0.0;
                } else {
                    for (std::size_t c = 0; c < count; ++c) e[c] = std::exp(-e[c] / dc2);
                }
                if (i >= j0 && i < j0 + count) e[i - j0] = 0.0;
                for (std::size_t c = 0; c < count; ++c) sum += e[c];
            }
            rho[i] = sum;
        }
    });
    return rho;
}

/// Points by decreasing density; equal densities by increasing index (the "higher" order).
std::vector<std::int64_t> densityOrder(const std::vector<double>& rho) {
    std::vector<std::int64_t> order(rho.size());
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        return dpc::higherThan(rho[static_cast<std::size_t>(a)], a, rho[static_cast<std::size_t>(b)], b);
    });
    return order;
}

/// delta and nearest-higher links: in density order, point p searches positions 0..p-1.
void computeDelta(const float* x, std::size_t n, std::size_t d, DensityPeaksResult& result, cpu::ThreadPool& pool,
                  JobControl* control) {
    const std::vector<std::int64_t>& order = result.densityOrder;
    const FeatureMajorPoints sorted(x, n, d, order.data());
    result.delta.assign(n, 0.0);
    result.nearestHigher.assign(n, -1);
    const std::size_t tasks = (n + kRowBlock - 1) / kRowBlock;
    runTasks(pool, tasks, control, 0.6, 1.0, [&](std::size_t t) {
        const std::size_t block = tasks - 1 - t;  // the longest rows first
        double e[kColumnBlock];
        for (std::size_t p = block * kRowBlock; p < std::min(n, (block + 1) * kRowBlock); ++p) {
            const std::size_t i = static_cast<std::size_t>(order[p]);
            double best = p == 0 ? 0.0 : std::numeric_limits<double>::infinity();
            std::int64_t bestJ = -1;
            const std::size_t end = p == 0 ? n : p;  // the densest point: its largest distance
            for (std::size_t q0 = 0; q0 < end; q0 += kColumnBlock) {
                const std::size_t count = std::min(kColumnBlock, end - q0);
                sorted.distancesTo(x + i * d, q0, count, e);
                if (p == 0) {
                    for (std::size_t c = 0; c < count; ++c) best = std::max(best, e[c]);
                    continue;
                }
                for (std::size_t c = 0; c < count; ++c) {
                    const std::int64_t j = order[q0 + c];
                    if (dpc::candidateBefore(e[c], j, best, bestJ)) {
                        best = e[c];
                        bestJ = j;
                    }
                }
            }
            result.delta[i] = std::sqrt(best);
            result.nearestHigher[i] = bestJ;
        }
    });
}

/// One exact dc-selection pass over the pairs i < j.
dpc::PairWindowCounts windowPass(const float* x, std::size_t n, std::size_t d, const FeatureMajorPoints& points,
                                 const dpc::PairWindow& window, cpu::ThreadPool& pool, JobControl* control, double from,
                                 double to) {
    const std::size_t tasks = (n + kRowBlock - 1) / kRowBlock;
    std::vector<dpc::PairWindowCounts> partial(tasks);
    std::atomic<std::size_t> collected{0};
    std::atomic<bool> overflow{false};
    const int bins = static_cast<int>(window.bins);
    const double scale = static_cast<double>(window.bins) / (window.hi - window.lo);
    runTasks(pool, tasks, control, from, to, [&](std::size_t t) {
        dpc::PairWindowCounts& local = partial[t];
        local.hist.assign(window.bins, 0);
        double e[kColumnBlock];
        for (std::size_t i = t * kRowBlock; i < std::min(n, (t + 1) * kRowBlock); ++i) {
            for (std::size_t j0 = i + 1; j0 < n; j0 += kColumnBlock) {
                const std::size_t count = std::min(kColumnBlock, n - j0);
                points.distancesTo(x + i * d, j0, count, e);
                for (std::size_t c = 0; c < count; ++c) {
                    if (e[c] < window.lo) {
                        ++local.below;
                    } else if (e[c] < window.hi) {
                        ++local.inside;
                        if (window.bins)
                            ++local.hist[static_cast<std::size_t>(dpc::binOf(e[c], window.lo, scale, bins))];
                        if (window.collect && !overflow.load(std::memory_order_relaxed)) {
                            if (collected.fetch_add(1, std::memory_order_relaxed) < window.capacity)
                                local.values.push_back(e[c]);
                            else
                                overflow.store(true, std::memory_order_relaxed);
                        }
                    }
                }
            }
        }
    });
    dpc::PairWindowCounts total;
    total.hist.assign(window.bins, 0);
    total.overflow = overflow.load();
    for (dpc::PairWindowCounts& p : partial) {
        total.below += p.below;
        total.inside += p.inside;
        for (std::size_t b = 0; b < window.bins; ++b) total.hist[b] += p.hist[b];
        if (window.collect && !total.overflow)
            total.values.insert(total.values.end(), p.values.begin(), p.values.end());
    }
    return total;
}

}  // namespace

DensityKernel parseDensityKernel(const std::string& text) {
    if (text == "cutoff") return DensityKernel::Cutoff;
    if (text == "gaussian") return DensityKernel::Gaussian;
    throw InvalidInput("--kernel: unknown density kernel '" + text + "' (expected cutoff or gaussian)");
}

SpatialIndex parseSpatialIndex(const std::string& text) {
    if (text == "auto") return SpatialIndex::Auto;
    if (text == "none") return SpatialIndex::None;
    if (text == "grid") return SpatialIndex::Grid;
    if (text == "tree") return SpatialIndex::Tree;
    throw InvalidInput("--index: expected auto, none, grid or tree, got '" + text + "'");
}

bool usesGridIndex(std::size_t n, std::size_t d, const DensityPeaksOptions& options) {
    const bool applies = d >= 1 && d <= dpc::kGridMaxDimension && options.kernel == DensityKernel::Cutoff;
    if (options.index == SpatialIndex::Grid && !applies)
        throw InvalidInput("--index grid: the grid serves the cutoff kernel on 1 to 3 features (got " +
                           std::to_string(d) + " features, " +
                           (options.kernel == DensityKernel::Cutoff ? "cutoff" : "gaussian") + " kernel)");
    if (options.index == SpatialIndex::Auto) return applies && n >= kGridMinPoints;
    return options.index == SpatialIndex::Grid;
}

SpatialIndex resolveSpatialIndex(std::size_t n, std::size_t d, const DensityPeaksOptions& options) {
    if (usesGridIndex(n, d, options)) return SpatialIndex::Grid;
    if (options.index == SpatialIndex::Auto)
        return n >= kTreeMinPoints && d <= dpc::kTreeMaxDimension ? SpatialIndex::Tree : SpatialIndex::None;
    return options.index;
}

DensityPeaksResult densityPeaksCpu(const float* x, std::size_t n, std::size_t d, const DensityPeaksOptions& options,
                                   JobControl* control) {
    dpc::validateInput(x, n, d, options);
    if (control) control->checkCancelled();
    cpu::ThreadPool pool;
    const SpatialIndex index = resolveSpatialIndex(n, d, options);
    const FeatureMajorPoints points(x, n, d);
    // The tree also serves the exact dc of the grid runs: its window passes are sub-quadratic too.
    std::optional<cpu::KdTree> tree;
    if (index != SpatialIndex::None)
        tree.emplace(x, n, d, options.treeLeafSize ? options.treeLeafSize : dpc::treeLeafSize(d));
    DensityPeaksResult result;
    result.kernel = options.kernel;

    auto start = std::chrono::steady_clock::now();
    int pass = 0;
    result.dc = dpc::chooseDc(x, n, d, options, pool, [&](const dpc::PairWindow& window) {
        // The passes share the first fifth of the progress, each half of what is left, so that the
        // progress never goes back from one pass to the next.
        const double from = 0.2 * (1.0 - std::ldexp(1.0, -pass));
        const double to = 0.2 * (1.0 - std::ldexp(1.0, -(pass + 1)));
        ++pass;
        return tree ? dpc::treeWindowPass(*tree, window, pool, control, from, to)
                    : windowPass(x, n, d, points, window, pool, control, from, to);
    });
    result.secondsDc = secondsSince(start);

    const bool grid = index == SpatialIndex::Grid;
    const bool cutoffTree = index == SpatialIndex::Tree && options.kernel == DensityKernel::Cutoff;
    result.index = grid ? "grid" : (index == SpatialIndex::Tree ? "tree" : "none");
    start = std::chrono::steady_clock::now();
    result.rho = grid         ? dpc::gridCutoffRho(x, n, d, result.dc.value, pool, control)
                 : cutoffTree ? dpc::treeCutoffRho(*tree, result.dc.value, pool, control)
                              : computeRho(x, n, d, points, options.kernel, result.dc.value, pool, control);
    result.densityOrder = densityOrder(result.rho);
    result.secondsRho = secondsSince(start);

    start = std::chrono::steady_clock::now();
    if (grid)
        dpc::gridDelta(x, n, d, result.dc.value, result, pool, control);
    else if (tree)
        dpc::treeDelta(*tree, result, pool, control);
    else
        computeDelta(x, n, d, result, pool, control);
    dpc::computeGamma(result);
    result.secondsDelta = secondsSince(start);
    if (control) control->setProgress(1.0);
    return result;
}

}  // namespace clusterlens
