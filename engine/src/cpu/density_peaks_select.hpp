#pragma once
// Parts of density-peaks clustering shared by the CPU reference and the CUDA host code: input
// validation, the pair sample, and the exact selection of the dc percentile among all n(n-1)/2
// pairwise distances without storing them.
//
// Exact selection (the k-th smallest squared distance): CUDA-DP (Ge et al. 2017) bisects dc with one
// counting pass per step; here one pass over the pairs answers more: for a window [lo, hi) of squared
// distances it counts the pairs below lo and inside the window, histograms the window into
// kHistogramBins bins and, when the window is expected to hold few enough pairs, collects their exact
// values. A random pair sample first brackets the percentile (6 standard deviations), so typically
// one pass (small n) or two passes (a histogram, then a collect of a few of its bins) suffice. The
// histogram only guides: a window that turns out not to hold rank k sends the search back to the
// last window that did, with more bins around the rank.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/job_control.hpp"
#include "cpu/thread_pool.hpp"

namespace clusterlens::dpc {

constexpr std::size_t kHistogramBins = 1024;

/// One question to an all-pairs pass over the pairs i < j, in exact squared distances e.
struct PairWindow {
    double lo = 0.0;  ///< window [lo, hi)
    double hi = 0.0;
    std::size_t bins = 0;      ///< histogram bins over the window (0: none)
    bool collect = false;      ///< collect the exact e of the pairs inside the window
    std::size_t capacity = 0;  ///< at most this many values are collected
};

/// The answer: exact counts, a histogram of the inside pairs (bin b about binOf(e, lo, bins / (hi -
/// lo), bins) == b; the GPU bins pairs that are certainly inside by their float distance) and the
/// collected values.
struct PairWindowCounts {
    std::uint64_t below = 0;          ///< pairs with e < lo
    std::uint64_t inside = 0;         ///< pairs with lo <= e < hi
    std::vector<std::uint64_t> hist;  ///< `bins` counts summing to `inside`
    std::vector<double> values;       ///< the inside values (any order) when collected
    bool overflow = false;            ///< more than `capacity` values were inside: `values` is unusable
};

using PairWindowPass = std::function<PairWindowCounts(const PairWindow&)>;

/// Throws InvalidInput / NonFiniteInput for n < 2, d = 0, a null pointer, NaN/Inf values, a bad
/// --dc or --dc-percent, or a zero sample size with a sampled dc.
void validateInput(const float* x, std::size_t n, std::size_t d, const DensityPeaksOptions& options);

/// A value strictly above every exact squared pairwise distance (from the bounding box).
double squaredDistanceUpperBound(const float* x, std::size_t n, std::size_t d);

/// Exact squared distances of `count` random pairs (i != j, with replacement), in draw order. The
/// pairs come from a counter-based generator of `seed`, so the sample is the same for any thread
/// count and on either backend.
std::vector<double> samplePairSquaredDistances(const float* x, std::size_t n, std::size_t d, std::size_t count,
                                               std::uint64_t seed, cpu::ThreadPool& pool);

/// Values the exact selection may collect in one pass: O(n).
inline std::size_t collectCapacity(std::size_t n) {
    return 8 * n + 4096;
}

/// The k-th smallest (1-based) of the m exact squared pairwise distances, all below `upper`, asked
/// of `pass` window by window. `sample` (random pair distances, may be empty) brackets the first
/// window. Adds the passes made to `passes`. Deterministic: the result is the exact order statistic.
double selectPairSquared(std::uint64_t k, std::uint64_t m, double upper, std::vector<double> sample,
                         std::size_t capacity, const PairWindowPass& pass, int& passes);

/// dc as DensityPeaksOptions asks: the user value, the sampled percentile, or the exact percentile
/// through `pass`. Throws InvalidInput naming --dc-percent when the percentile distance is 0.
DcChoice chooseDc(const float* x, std::size_t n, std::size_t d, const DensityPeaksOptions& options,
                  cpu::ThreadPool& pool, const PairWindowPass& pass);

/// gamma = rho · delta for every point.
void computeGamma(DensityPeaksResult& result);

}  // namespace clusterlens::dpc
