// Contrast limits of a rendered VAT/iVAT image: two percentiles of its finite pixel values.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/vat/viewport.hpp"

namespace clusterlens {

namespace {

// The p-th percentile of values (p in [0, 100]) with linear interpolation between the two closest
// ranks (numpy.percentile's default): rank p/100 · (m - 1). Reorders values; O(m).
float percentileOf(std::vector<float>& values, double p) {
    const double rank = p / 100.0 * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(rank));
    const double fraction = rank - static_cast<double>(below);
    const auto at = values.begin() + static_cast<std::ptrdiff_t>(below);
    std::nth_element(values.begin(), at, values.end());
    const double lo = *at;
    if (fraction == 0.0 || below + 1 >= values.size()) return static_cast<float>(lo);
    const double hi = *std::min_element(at + 1, values.end());
    return static_cast<float>(lo + fraction * (hi - lo));
}

}  // namespace

std::pair<float, float> imagePercentiles(const float* pixels, std::size_t count, double lowPercent,
                                         double highPercent) {
    if (!(lowPercent >= 0.0 && lowPercent <= highPercent && highPercent <= 100.0))
        throw InvalidInput("contrast clipping: the percentiles " + std::to_string(lowPercent) + " and " +
                           std::to_string(highPercent) + " must satisfy 0 <= low <= high <= 100");
    std::vector<float> values;
    values.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        if (std::isfinite(pixels[i])) values.push_back(pixels[i]);
    if (values.empty()) return {0.0f, 0.0f};
    const float low = percentileOf(values, lowPercent);
    const float high = percentileOf(values, highPercent);
    return {low, high};
}

}  // namespace clusterlens
