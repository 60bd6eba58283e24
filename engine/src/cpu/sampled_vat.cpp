#include "clusterlens/vat/sampled_vat.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>

#include "clusterlens/errors.hpp"
#include "cpu/thread_pool.hpp"

namespace clusterlens {

namespace {

constexpr std::size_t kDefaultGroups = 50;

void checkFinite(const float* x, std::size_t n, std::size_t d) {
    for (std::size_t i = 0; i < n * d; ++i)
        if (!std::isfinite(x[i]))
            throw NonFiniteInput("sampled VAT needs finite values: point " + std::to_string(i / d + 1) + ", feature " +
                                 std::to_string(i % d + 1) + " is not a number");
}

/// dist[i] = min(dist[i], distance(i, object)), nearest[i] = `slot` where it shrank; multithreaded.
void relax(const float* x, std::size_t n, std::size_t d, Metric metric, std::int64_t object, std::uint32_t slot,
           std::vector<double>& dist, std::vector<std::uint32_t>* nearest, cpu::ThreadPool& pool) {
    const float* o = x + static_cast<std::size_t>(object) * d;
    cpu::parallelFor(pool, n, 2048, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const double v = metricDistance(x + i * d, o, d, metric);
            if (v < dist[i]) {
                dist[i] = v;
                if (nearest) (*nearest)[i] = slot;
            }
        }
    });
}

}  // namespace

std::vector<std::int64_t> maximinObjects(const float* x, std::size_t n, std::size_t d, Metric metric, std::size_t count,
                                         std::uint64_t seed, JobControl* control, std::vector<std::uint32_t>* nearest) {
    if (d == 0) throw InvalidInput("sampled VAT: the points have no features");
    if (count < 1 || count > n)
        throw InvalidInput("--sample-groups must lie in 1.." + std::to_string(n) + " (the number of points)");
    checkFinite(x, n, d);
    cpu::ThreadPool pool;
    std::vector<double> dist(n, std::numeric_limits<double>::infinity());
    if (nearest) nearest->assign(n, 0);
    std::mt19937_64 random(seed);
    std::vector<std::int64_t> objects{static_cast<std::int64_t>(random() % n)};
    for (std::uint32_t t = 0;; ++t) {
        if (control) {
            control->checkCancelled();
            control->setProgress(static_cast<double>(t) / static_cast<double>(count));
        }
        relax(x, n, d, metric, objects.back(), t, dist, nearest, pool);
        if (objects.size() == count) break;
        // The farthest point from every object so far; the first of equals (max_element keeps it).
        objects.push_back(std::max_element(dist.begin(), dist.end()) - dist.begin());
    }
    return objects;
}

std::vector<std::int64_t> sVatSample(const float* x, std::size_t n, std::size_t d, Metric metric,
                                     const SampledVatOptions& options, JobControl* control,
                                     std::vector<std::int64_t>* distinguished) {
    const std::size_t size = options.sampleSize;
    if (size < 2 || size > n)
        throw InvalidInput("--sample must lie in 2.." + std::to_string(n) + " (the number of points), got " +
                           std::to_string(size));
    const std::size_t groups = options.groups == 0 ? std::min(kDefaultGroups, size) : options.groups;
    if (groups > size)
        throw InvalidInput("--sample-groups must lie in 1.." + std::to_string(size) + " (the sample size)");
    std::vector<std::uint32_t> nearest;
    std::vector<std::int64_t> objects = maximinObjects(x, n, d, metric, groups, options.seed, control, &nearest);
    std::vector<std::vector<std::int64_t>> members(groups);
    for (std::size_t i = 0; i < n; ++i) members[nearest[i]].push_back(static_cast<std::int64_t>(i));
    // ceil(size · |group| / n) each, then one fewer from the largest shares until the total is `size`.
    std::vector<std::size_t> take(groups);
    for (std::size_t t = 0; t < groups; ++t) take[t] = (size * members[t].size() + n - 1) / n;
    std::size_t total = std::accumulate(take.begin(), take.end(), std::size_t{0});
    std::vector<std::size_t> bySize(groups);
    std::iota(bySize.begin(), bySize.end(), std::size_t{0});
    std::stable_sort(bySize.begin(), bySize.end(),
                     [&](std::size_t a, std::size_t b) { return members[a].size() > members[b].size(); });
    for (std::size_t k = 0; total > size; k = (k + 1) % groups)
        if (take[bySize[k]] > 1) --take[bySize[k]], --total;
    std::mt19937_64 random(options.seed ^ 0x9e3779b97f4a7c15ull);
    std::vector<std::int64_t> sample;
    sample.reserve(size);
    for (std::size_t t = 0; t < groups; ++t) {
        std::vector<std::int64_t>& group = members[t];
        for (std::size_t k = 0; k < take[t]; ++k) {  // a partial Fisher-Yates shuffle draws take[t]
            const std::size_t pick = k + static_cast<std::size_t>(random() % (group.size() - k));
            std::swap(group[k], group[pick]);
            sample.push_back(group[k]);
        }
    }
    std::sort(sample.begin(), sample.end());
    if (distinguished) *distinguished = std::move(objects);
    return sample;
}

SampledVat sampledVat(const float* x, std::size_t n, std::size_t d, const VatOptions& vatOptions,
                      const SampledVatOptions& options, JobControl* control) {
    SampledVat out;
    out.of = n;
    out.seed = options.seed;
    out.sample = sVatSample(x, n, d, vatOptions.metric, options, control, &out.distinguished);
    std::vector<float> rows(out.sample.size() * d);
    for (std::size_t k = 0; k < out.sample.size(); ++k)
        std::copy_n(x + static_cast<std::size_t>(out.sample[k]) * d, d, rows.data() + k * d);
    if (control) control->setProgress(0.0);
    out.vat = computeVat(rows.data(), out.sample.size(), d, vatOptions, control);
    return out;
}

}  // namespace clusterlens
