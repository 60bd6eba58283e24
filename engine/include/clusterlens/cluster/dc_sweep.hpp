#pragma once
// Peak stability across the cutoff distance dc. Rodriguez & Laio (2014) and CUDA-DP (§4.4) argue that
// the density peaks do not depend much on dc; the sweep measures it for the data at hand: rho and delta
// are recomputed for a range of dc percentiles and each peak of a choice gets its persistence, the
// fraction of the steps in which it stays among the K points of largest gamma = rho·delta. A peak is
// matched by its cluster, not by the exact point: as dc changes, the densest point of a blob moves
// among its neighbours (the cutoff counts are noisy), so a chosen peak stays at a step when the cluster
// it heads at the chosen dc contains one of that step's top-K points.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

/// One step of a sweep: the percentile of the pairwise distances, the dc it gave, and the top-K points
/// by gamma at that dc (largest first, ties to the smaller index, as peaksTopK).
struct DcSweepStep {
    double percent = 0.0;
    double dc = 0.0;
    std::vector<std::int64_t> peaks;
};

/// A whole sweep: its steps, and for each chosen peak (the choice being judged) whether each step's
/// top K has a point in the peak's cluster, and the fraction of such steps, in [0, 1].
struct DcSweep {
    std::vector<DcSweepStep> steps;
    std::vector<std::int64_t> chosen;
    std::vector<std::vector<bool>> presence;  ///< presence[c][s]: chosen peak c kept at step s
    std::vector<double> persistence;
};

/// `steps` percentiles from `lo` to `hi`, both included, evenly spaced. Throws InvalidInput naming
/// --dc-sweep unless 0 < lo < hi < 100 and 2 <= steps <= 64.
std::vector<double> sweepPercents(double lo, double hi, int steps);

/// Per chosen peak and step, whether the step has a peak in the chosen peak's cluster (as
/// peakPersistence). O(steps·K·chosen). Throws InvalidInput for an index outside `labels`.
std::vector<std::vector<bool>> peakPresence(const std::vector<DcSweepStep>& steps,
                                            const std::vector<std::int64_t>& chosen,
                                            const std::vector<std::int32_t>& labels);

/// Per chosen peak, the fraction of `steps` with a peak in its cluster: labels[q] == labels[chosen[c]]
/// for some peak q of the step (`labels`: the clusters of the choice, assignFromPeaks, n entries).
/// O(steps·K·chosen). Throws InvalidInput for an index outside `labels`.
std::vector<double> peakPersistence(const std::vector<DcSweepStep>& steps, const std::vector<std::int64_t>& chosen,
                                    const std::vector<std::int32_t>& labels);

/// Runs densityPeaks at each percentile of `percents` (in that order) with `base` otherwise (its dc
/// must be unset: the sweep chooses it), keeps each step's top `topK` points by gamma, and measures the
/// persistence of `chosen` (indices in [0, n), typically the peaks chosen at the user's dc) with their
/// clusters `labels` (n entries, assignFromPeaks of that choice; see peakPersistence). Under Auto,
/// a step that fell back to the CPU (GPU out of memory) keeps the remaining steps on the CPU, so its
/// warning is given once. Time: one densityPeaks run per step; memory: one run's O(n) plus steps·K.
/// Progress rises over the steps; cancellable between and inside them. Throws InvalidInput (base.dc
/// set, topK outside 1..n, a chosen index outside [0, n), labels not of n entries, no percents) and
/// what densityPeaks throws.
Computed<DcSweep> sweepDc(const float* x, std::size_t n, std::size_t d, const DensityPeaksOptions& base,
                          const std::vector<double>& percents, std::size_t topK,
                          const std::vector<std::int64_t>& chosen, const std::vector<std::int32_t>& labels,
                          Backend backend, JobControl* control = nullptr);

}  // namespace clusterlens
