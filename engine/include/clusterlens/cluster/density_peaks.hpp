#pragma once
// Density-peaks clustering (DPC; Rodriguez & Laio, "Clustering by fast search and find of density
// peaks", Science 344:1492, 2014): local density rho, distance delta to the nearest point of higher
// density, peaks picked on the (rho, delta) decision graph, and the O(N) assignment that follows the
// nearest-higher links. The CPU functions here are the reference (test oracle) and the fallback; the
// GPU twin is densityPeaksCuda (density_peaks_cuda.hpp).
//
// Definitions, for points x_0..x_{n-1} and Euclidean distances d_ij = sqrt(e_ij), where e_ij is the
// squared distance summed in double from the first feature to the last (no fused multiply-add):
//   rho_i (Cutoff)   = |{ j != i : d_ij < dc }|
//   rho_i (Gaussian) = sum_{j != i} exp(-e_ij / dc^2)
//   j is higher than i  iff  rho_j > rho_i, or rho_j == rho_i and j < i  (a strict total order)
//   delta_i = min over higher j of d_ij, ties to the smaller j; that j is nearestHigher[i]
//   the densest point: delta = its largest distance to any point, nearestHigher = -1
//   gamma_i = rho_i * delta_i
// dc, when not given, is the p-th percentile of the n(n-1)/2 pairwise distances: the k-th smallest
// with k = round(p/100 * n(n-1)/2) clamped to [1, n(n-1)/2] (the convention of the authors' code).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/process_group.hpp"

namespace clusterlens {

/// The density estimate: the count of neighbours closer than dc, or the Gaussian-weighted sum.
enum class DensityKernel { Cutoff, Gaussian };

/// Parses "cutoff" | "gaussian"; throws InvalidInput naming --kernel otherwise.
DensityKernel parseDensityKernel(const std::string& text);

/// How the cutoff distance was obtained.
struct DcChoice {
    double value = 0.0;    ///< dc
    double percent = 0.0;  ///< the requested percentile; 0 when dc was given by the user
    bool exact = true;     ///< true for a user value and for the exact percentile, false when sampled
    /// "user", "exact" (selection over all n(n-1)/2 distances) or "sampled" (the percentile of a
    /// random sample of pairs, as CUDA-DP; Ge et al. 2017)
    std::string method;
    std::uint64_t samplePairs = 0;  ///< pairs drawn for a sampled dc or to bracket the exact search
    int passes = 0;                 ///< all-pairs passes the exact selection needed
};

/// How dc, rho and delta find neighbours: all pairs (None, the reference), a uniform grid (exact, for
/// 1 to 3 features and the cutoff kernel, whose support is finite; as measured in docs/benchmarks.md
/// on birch1) or a kd-tree (exact, any d: range counts for the exact dc and the cutoff rho, pruned
/// nearest-higher searches for delta; the Gaussian rho keeps the all-pairs pass, its support being
/// unbounded). Auto takes the grid where it applies and n >= kGridMinPoints, else the tree where
/// n >= kTreeMinPoints and d <= 32. Every index gives the same bits as None.
enum class SpatialIndex { Auto, None, Grid, Tree };

/// Parses "auto" | "none" | "grid" | "tree"; throws InvalidInput naming --index otherwise.
SpatialIndex parseSpatialIndex(const std::string& text);

struct DensityPeaksOptions {
    std::optional<double> dc;     ///< cutoff distance (> 0); when empty, the dcPercent percentile
    double dcPercent = 2.0;       ///< percentile of the pairwise distances, in (0, 100)
    bool exactPercentile = true;  ///< exact selection, else the percentile of sampleSize random pairs
    DensityKernel kernel = DensityKernel::Gaussian;
    /// Random pairs (i != j, with replacement) drawn for a sampled dc; the exact selection uses the
    /// same sample only to bracket its search. When n(n-1)/2 <= sampleSize the sampled dc is exact.
    std::size_t sampleSize = 1000000;
    std::uint64_t seed = 1;  ///< seed of the pair sample (counter-based, thread-count independent)
    SpatialIndex index = SpatialIndex::Auto;
    /// Points per kd-tree leaf of the tree index; 0 chooses by d (what every caller but the tests,
    /// which also build deep trees, should use). Changes the time, never the result.
    std::size_t treeLeafSize = 0;
    /// CUDA devices the GPU passes are spread over, one share of every pass each (parseGpus gives
    /// them for --gpus all|N); empty: the current device alone. A device may be named more than once
    /// (its shares then run side by side on it, as the tests do). Changes the time, never the result.
    std::vector<int> cudaDevices;
    /// With a group of several processes (mpirun, one GPU each): this process runs its share of every
    /// pass on its one device (cudaDevices: at most one) and meets the others through the group; the
    /// result is complete on rank 0 only (the others' result is to be discarded). Null: one process.
    ProcessGroup* processes = nullptr;
};

/// Points from which Auto uses the grid (below it the all-pairs passes are as fast).
constexpr std::size_t kGridMinPoints = 4096;

/// Points from which Auto uses the kd-tree where the grid does not apply.
constexpr std::size_t kTreeMinPoints = 4096;

/// Whether rho and delta run on the grid for these options: Grid needs d <= 3 and the cutoff kernel
/// (else InvalidInput naming --index); Auto picks it where it applies and n >= kGridMinPoints.
bool usesGridIndex(std::size_t n, std::size_t d, const DensityPeaksOptions& options);

/// The index the CPU runs for these options: None, Grid or Tree (never Auto). Throws as usesGridIndex.
SpatialIndex resolveSpatialIndex(std::size_t n, std::size_t d, const DensityPeaksOptions& options);

/// rho, delta, gamma and the nearest-higher links of every point, plus the density order that makes
/// re-labelling O(n). Memory: 36 bytes per point.
struct DensityPeaksResult {
    DcChoice dc;
    DensityKernel kernel = DensityKernel::Gaussian;
    std::vector<double> rho;                  ///< n local densities
    std::vector<double> delta;                ///< n distances to the nearest higher point
    std::vector<double> gamma;                ///< n products rho * delta
    std::vector<std::int64_t> nearestHigher;  ///< n indices; -1 for the densest point
    std::vector<std::int64_t> densityOrder;   ///< n indices, densest first (the "higher" order)
    double secondsDc = 0.0;                   ///< time spent choosing dc
    double secondsRho = 0.0;                  ///< time spent on rho (and sorting by it)
    double secondsDelta = 0.0;                ///< time spent on delta
    std::string index = "none";               ///< "none" (all pairs), "grid" or "tree": what rho and delta used
};

/// DPC densities and nearest-higher links for n points x d features (row-major, float), computed in
/// double precision: the reference. Multithreaded, tiled all-pairs passes, memory O(n·d) (a
/// permuted copy of the data) plus O(n). Time: rho and delta one pass each, O(n²·d) (rho visits
/// every ordered pair, delta the pairs below the diagonal of the density order); an exact dc adds
/// one to a few passes over the n(n-1)/2 pairs (a sample brackets the percentile, passes count below
/// the bracket and histogram or collect the distances inside it; no pairwise matrix is stored).
/// Reproducible for any thread count. Checks `control` between blocks of rows.
/// Throws InvalidInput (n < 2, d = 0, --dc <= 0, --dc-percent outside (0, 100), a zero percentile
/// distance), NonFiniteInput (NaN/Inf values) and Cancelled.
DensityPeaksResult densityPeaksCpu(const float* x, std::size_t n, std::size_t d, const DensityPeaksOptions& options,
                                   JobControl* control = nullptr);

/// The k points of largest gamma, largest first (ties to the smaller index). O(n log k).
/// Throws InvalidInput naming --peaks-top unless 1 <= k <= n.
std::vector<std::int64_t> peaksTopK(const DensityPeaksResult& result, std::size_t k);

/// The points with rho > rhoMin and delta > deltaMin, in density order (densest first); may be empty.
/// O(n).
std::vector<std::int64_t> peaksByThreshold(const DensityPeaksResult& result, double rhoMin, double deltaMin);

/// Labels for the chosen peaks (Rodriguez & Laio 2014): peaks get 0..K-1 in order of decreasing
/// density; every other point, visited in density order, takes the label of its nearest higher
/// point. If the densest point is not a peak, it and the points whose nearest-higher chain reaches
/// it without meeting a peak join cluster 0 (the densest peak). O(n) time and memory (a few ms for
/// 10^6 points), so a new choice of peaks re-labels at once.
/// Throws InvalidInput naming --peaks for an empty list, an index outside [0, n) or a repeated index.
std::vector<std::int32_t> assignFromPeaks(const DensityPeaksResult& result, const std::vector<std::int64_t>& peaks);

/// Cluster halo of Rodriguez & Laio 2014: the border density of cluster c is the largest
/// (rho_i + rho_j) / 2 over pairs i, j in different clusters (labels >= 0) with d_ij < dc where i or
/// j is in c; points whose rho is below their cluster's border density become -1 (noise). Labels -1
/// stay -1. x, n, d as for densityPeaksCpu; `labels` from assignFromPeaks. One multithreaded tiled
/// pass over the n(n-1)/2 pairs, O(n²·d) time, O(n + K·threads) memory.
/// Throws InvalidInput for mismatched sizes, d = 0 or dc <= 0 (naming --dc), Cancelled.
std::vector<std::int32_t> applyHaloCpu(const float* x, std::size_t n, std::size_t d, const DensityPeaksResult& result,
                                       const std::vector<std::int32_t>& labels, double dc,
                                       JobControl* control = nullptr);

/// densityPeaksCpu or densityPeaksCuda by `backend` (Auto: CUDA when usable). The grid and tree indexes
/// exist on the CPU only: SpatialIndex::Grid or Tree runs on the CPU under Auto and throws InvalidInput
/// under Cuda.
/// GPU faults as Computed in backend.hpp says: under Auto a GPU out of memory or a lost CUDA context
/// runs the CPU instead with a warning; under Cuda out of memory is InvalidInput naming the memory
/// needed. Throws what the chosen implementation throws.
Computed<DensityPeaksResult> densityPeaks(const float* x, std::size_t n, std::size_t d,
                                          const DensityPeaksOptions& options, Backend backend,
                                          JobControl* control = nullptr);

/// applyHaloCpu or applyHaloCuda by `backend` (same labels on both), with the same GPU fault handling.
/// `cudaDevices`: the GPUs its pass is spread over, as DensityPeaksOptions::cudaDevices.
Computed<std::vector<std::int32_t>> applyHalo(const float* x, std::size_t n, std::size_t d,
                                              const DensityPeaksResult& result, const std::vector<std::int32_t>& labels,
                                              double dc, Backend backend, JobControl* control = nullptr,
                                              const std::vector<int>& cudaDevices = {});

/// A suggested number of peaks: gammas sorted in decreasing order g_1 >= g_2 >= ..., the K that
/// maximises the drop log g_K - log g_{K+1} over K = 2 .. min(n - 1, max(20, sqrt n)) (smaller K on
/// ties); the first drop is skipped because the densest point's delta is its largest distance,
/// which makes g_1 an outlier by construction. Zero gammas count as the smallest positive gamma
/// divided by 2^20. Returns 1 when n < 3. O(n log n).
std::size_t suggestPeakCount(const DensityPeaksResult& result);

}  // namespace clusterlens
