#pragma once
// Sampled VAT (sVAT; Hathaway, Bezdek & Huband 2006, "Scalable visual assessment of cluster tendency
// for large data sets", Pattern Recognition 39:1315): where the exact VAT of every point is too slow
// (no GPU and 10^5-10^6 points), the VAT/iVAT of a sample that keeps every cluster. Maximin picks k'
// distinguished objects spread over the data (each the point farthest from those picked so far),
// every point joins its nearest distinguished object, each of these groups gives sample points in
// proportion to its size, and the sample gets the exact VAT. The result is always labelled as sampled.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/vat.hpp"

namespace clusterlens {

struct SampledVatOptions {
    std::size_t sampleSize = 5000;  ///< n_s: points in the sample, 2..n
    std::size_t groups = 0;         ///< k': distinguished objects; 0 = min(50, n_s)
    std::uint64_t seed = 1;         ///< the first distinguished object and the draws within groups
};

/// The sample and its VAT. `vat` orders positions 0..sample.size()-1 of `sample` (vat.order[k] is a
/// position in `sample`; sample[vat.order[k]] the point of the whole data).
struct SampledVat {
    std::vector<std::int64_t> sample;         ///< indices into the whole data, ascending
    std::vector<std::int64_t> distinguished;  ///< the maximin objects, in the order picked
    std::size_t of = 0;                       ///< points of the whole data
    std::uint64_t seed = 1;
    VatResult vat;
};

/// The k' maximin objects: the first drawn by `seed`, each next the point whose distance to its nearest
/// chosen object is largest (ties: the smaller index). With `nearest` given, fills for every point the
/// position (0..count-1) of its nearest distinguished object (ties: the earlier one). O(N·k'·D) time,
/// multithreaded; O(N) memory. Throws InvalidInput (count outside 1..n, d = 0), NonFiniteInput, Cancelled.
std::vector<std::int64_t> maximinObjects(const float* x, std::size_t n, std::size_t d, Metric metric, std::size_t count,
                                         std::uint64_t seed, JobControl* control = nullptr,
                                         std::vector<std::uint32_t>* nearest = nullptr);

/// The sVAT sample of `options.sampleSize` points: group t of the maximin partition gives
/// ceil(sampleSize · |group t| / n) points drawn without replacement by `seed` (then the largest
/// groups give one point fewer until the total is sampleSize). Ascending indices; every group with
/// points is represented. O(N·k'·D). Throws InvalidInput naming --sample / --sample-groups for sizes
/// outside 2..n / 1..sampleSize, NonFiniteInput, Cancelled.
std::vector<std::int64_t> sVatSample(const float* x, std::size_t n, std::size_t d, Metric metric,
                                     const SampledVatOptions& options, JobControl* control = nullptr,
                                     std::vector<std::int64_t>* distinguished = nullptr);

/// sVatSample, then computeVat of the sample's rows with `vatOptions` (its backend, index and metric).
/// Time O(N·k'·D) + the VAT of n_s points; memory O(N + n_s·D). Throws what both throw.
SampledVat sampledVat(const float* x, std::size_t n, std::size_t d, const VatOptions& vatOptions,
                      const SampledVatOptions& options, JobControl* control = nullptr);

}  // namespace clusterlens
