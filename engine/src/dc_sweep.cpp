#include "clusterlens/cluster/dc_sweep.hpp"

#include <algorithm>
#include <string>

#include "clusterlens/errors.hpp"

namespace clusterlens {

std::vector<double> sweepPercents(double lo, double hi, int steps) {
    if (!(lo > 0.0 && lo < hi && hi < 100.0))
        throw InvalidInput("--dc-sweep: the percentiles must satisfy 0 < LO < HI < 100");
    if (steps < 2 || steps > 64) throw InvalidInput("--dc-sweep: STEPS must lie in 2..64");
    std::vector<double> percents(static_cast<std::size_t>(steps));
    for (int s = 0; s < steps; ++s) percents[static_cast<std::size_t>(s)] = lo + (hi - lo) * s / (steps - 1);
    percents.back() = hi;  // exactly, whatever the rounding of the step
    return percents;
}

std::vector<std::vector<bool>> peakPresence(const std::vector<DcSweepStep>& steps,
                                            const std::vector<std::int64_t>& chosen,
                                            const std::vector<std::int32_t>& labels) {
    const auto labelOf = [&](std::int64_t point) {
        if (point < 0 || static_cast<std::size_t>(point) >= labels.size())
            throw InvalidInput("peak persistence: point " + std::to_string(point) + " has no cluster label");
        return labels[static_cast<std::size_t>(point)];
    };
    std::vector<std::vector<bool>> presence(chosen.size(), std::vector<bool>(steps.size(), false));
    for (std::size_t c = 0; c < chosen.size(); ++c) {
        const std::int32_t cluster = labelOf(chosen[c]);
        for (std::size_t s = 0; s < steps.size(); ++s)
            presence[c][s] = std::any_of(steps[s].peaks.begin(), steps[s].peaks.end(),
                                         [&](std::int64_t q) { return labelOf(q) == cluster; });
    }
    return presence;
}

namespace {

/// Per chosen peak, the share of steps at which it was kept (0 without steps).
std::vector<double> sharesKept(const std::vector<std::vector<bool>>& presence) {
    std::vector<double> persistence;
    for (const std::vector<bool>& kept : presence)
        persistence.push_back(kept.empty() ? 0.0
                                           : static_cast<double>(std::count(kept.begin(), kept.end(), true)) /
                                                 static_cast<double>(kept.size()));
    return persistence;
}

}  // namespace

std::vector<double> peakPersistence(const std::vector<DcSweepStep>& steps, const std::vector<std::int64_t>& chosen,
                                    const std::vector<std::int32_t>& labels) {
    return sharesKept(peakPresence(steps, chosen, labels));
}

Computed<DcSweep> sweepDc(const float* x, std::size_t n, std::size_t d, const DensityPeaksOptions& base,
                          const std::vector<double>& percents, std::size_t topK,
                          const std::vector<std::int64_t>& chosen, const std::vector<std::int32_t>& labels,
                          Backend backend, JobControl* control) {
    if (base.dc) throw InvalidInput("--dc-sweep: the sweep chooses dc; it cannot be combined with --dc");
    if (percents.empty()) throw InvalidInput("--dc-sweep: no percentile to run");
    if (labels.size() != n)
        throw InvalidInput("--dc-sweep: " + std::to_string(labels.size()) + " cluster labels for " + std::to_string(n) +
                           " events");
    if (topK < 1 || topK > n) throw InvalidInput("--peaks-top must lie in 1.." + std::to_string(n));
    for (const std::int64_t p : chosen)
        if (p < 0 || static_cast<std::size_t>(p) >= n)
            throw InvalidInput("--peaks: " + std::to_string(p) + " is not the index of an analysed event (0.." +
                               std::to_string(n - 1) + ")");
    Computed<DcSweep> out;
    out.backend = backend;
    for (std::size_t s = 0; s < percents.size(); ++s) {
        if (control) control->setProgressSpan(double(s) / percents.size(), double(s + 1) / percents.size());
        DensityPeaksOptions options = base;
        options.dcPercent = percents[s];
        Computed<DensityPeaksResult> step = densityPeaks(x, n, d, options, out.backend, control);
        out.backend = step.backend;  // a step that fell back to the CPU keeps the rest there
        for (std::string& warning : step.warnings) out.warnings.push_back(std::move(warning));
        out.result.steps.push_back(DcSweepStep{percents[s], step.result.dc.value, peaksTopK(step.result, topK)});
    }
    if (control) {
        control->setProgressSpan(0.0, 1.0);
        control->setProgress(1.0);
    }
    out.result.chosen = chosen;
    out.result.presence = peakPresence(out.result.steps, chosen, labels);
    out.result.persistence = sharesKept(out.result.presence);
    return out;
}

}  // namespace clusterlens
