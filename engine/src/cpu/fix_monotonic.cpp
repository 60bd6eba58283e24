#include "clusterlens/hca/fix_monotonic.hpp"

#include <cmath>
#include <limits>

#include "clusterlens/errors.hpp"

namespace clusterlens {
namespace {

/// mhca's 'eps' method: raise every height below the running maximum to just above it.
void fixByEps(std::vector<double>& h, std::optional<double> eps) {
    bool decreasing = false;
    double step = std::numeric_limits<double>::infinity();
    for (std::size_t i = 1; i < h.size(); ++i) {
        const double diff = h[i] - h[i - 1];
        if (diff > 0.0 && diff < step) step = diff;
        decreasing = decreasing || diff < 0.0;
    }
    const double e = eps ? *eps : (std::isinf(step) ? 1.0 : step / 2.0);
    if (!decreasing) return;
    double last = 0.0;
    for (double& value : h) {
        if (value < last) value = last + e;
        last = value;
    }
}

/// mhca's 'halfway' method: a run of heights below the last good one, h[i-1], ends before the first
/// later height at least h[i-1]; the run is replaced by equal steps from h[i-1] to that height (or
/// continues the previous step when the run reaches the end).
void fixHalfway(std::vector<double>& h) {
    const std::size_t n = h.size();
    std::vector<std::size_t> drops;
    for (std::size_t k = 0; k + 1 < n; ++k)
        if (h[k + 1] < h[k]) drops.push_back(k);
    std::size_t next = 0;
    while (next < drops.size()) {
        const std::size_t i = drops[next] + 1;
        std::size_t j = i + 1;
        while (j < n && h[j] < h[i - 1]) ++j;
        double step = 1.0;
        if (j >= n) {
            if (i >= 2) step = h[i - 1] - h[i - 2];
        } else {
            step = (h[j] - h[i - 1]) / static_cast<double>(j - i + 1);
        }
        for (std::size_t t = i; t < j; ++t) h[t] = h[i - 1] + step * static_cast<double>(t - i + 1);
        ++next;
        while (next < drops.size() && drops[next] + 1 <= j) ++next;
    }
}

}  // namespace

std::vector<double> fixNonMonotonicHeights(const std::vector<double>& heights, MonotonicFix method,
                                           std::optional<double> eps) {
    std::vector<double> h = heights;
    if (method == MonotonicFix::Eps) {
        fixByEps(h, eps);
    } else {
        fixHalfway(h);
    }
    return h;
}

Linkage fixNonMonotonic(const Linkage& linkage, MonotonicFix method, std::optional<double> eps) {
    std::vector<double> heights;
    heights.reserve(linkage.merges.size());
    for (const Merge& m : linkage.merges) heights.push_back(m.height);
    heights = fixNonMonotonicHeights(heights, method, eps);
    Linkage fixed = linkage;
    for (std::size_t i = 0; i < fixed.merges.size(); ++i) fixed.merges[i].height = heights[i];
    return fixed;
}

MonotonicFix parseMonotonicFix(const std::string& text, const std::string& option) {
    if (text == "eps") return MonotonicFix::Eps;
    if (text == "halfway") return MonotonicFix::Halfway;
    throw InvalidInput(option + ": unknown value \"" + text + "\" (expected eps or halfway)");
}

}  // namespace clusterlens
