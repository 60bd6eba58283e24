// Float screening of exact squared distances (see screened_distances.hpp).

#include "cpu/screened_distances.hpp"

#include <cfloat>
#include <cmath>

#include "cpu/density_peaks_math.hpp"

// x86-64 machines get a clone for AVX2 with FMA next to the baseline, picked once by the loader.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CL_SCREEN_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define CL_SCREEN_CLONES
#endif

namespace clusterlens::cpu {

namespace {

// Absolute slack: where partial results are subnormal, each rounding errs by up to 2^-150 in
// absolute terms, which no relative bound covers.
constexpr double kAbsoluteSlack = 0x1.0p-100;
// Lanes accumulated in registers across all features.
constexpr std::size_t kLanes = 16;

float floatAtOrBelow(double v) {
    if (v >= static_cast<double>(FLT_MAX)) return FLT_MAX;
    float f = static_cast<float>(v);
    if (static_cast<double>(f) > v) f = std::nextafter(f, -INFINITY);
    return f;
}

}  // namespace

ScreenBound screenBound(double t, std::size_t d) {
    // Twice the tolerance: the float sum may fuse or not, and the bound itself is rounded.
    const double tau = 2.0 * dpc::floatDistanceTolerance(static_cast<int>(d));
    ScreenBound b;
    b.below = floatAtOrBelow((t - kAbsoluteSlack) / (1.0 + tau));
    const double above = (t + kAbsoluteSlack) / (1.0 - tau);
    if (!(above < 0.5 * static_cast<double>(FLT_MAX))) {
        b.atOrAbove = NAN;  // f may overflow to inf while e is below t: never decided above
    } else {
        float f = static_cast<float>(above);
        if (static_cast<double>(f) < above) f = std::nextafter(f, INFINITY);
        b.atOrAbove = f;
    }
    return b;
}

CL_SCREEN_CLONES
void screenedSquaredDistances(const float* q, const float* values, std::size_t stride, std::size_t d, std::size_t j0,
                              std::size_t count, float* f) {
    // A short run is padded with the points after it while the array has them: one more vector
    // chunk costs less than a scalar tail.
    const std::size_t padded = (count + kLanes - 1) / kLanes * kLanes;
    const std::size_t vectorised = j0 + padded <= stride ? padded : count / kLanes * kLanes;
    std::size_t c0 = 0;
    for (; c0 < vectorised; c0 += kLanes) {
        float acc[kLanes] = {};
        for (std::size_t k = 0; k < d; ++k) {
            const float qk = q[k];
            const float* column = values + k * stride + j0 + c0;
            for (std::size_t l = 0; l < kLanes; ++l) {
                const float diff = qk - column[l];
                acc[l] += diff * diff;
            }
        }
        for (std::size_t l = 0; l < kLanes; ++l) f[c0 + l] = acc[l];
    }
    for (std::size_t c = c0; c < count; ++c) {
        float sum = 0.0f;
        for (std::size_t k = 0; k < d; ++k) {
            const float diff = q[k] - values[k * stride + j0 + c];
            sum += diff * diff;
        }
        f[c] = sum;
    }
}

CL_SCREEN_CLONES
std::uint32_t screenLanes(const float* f, std::size_t count, ScreenBound bound, std::uint32_t* counts,
                          std::uint32_t* band) {
    // Fixed-size chunks: they vectorise at -O2 too, where GCC refuses loops that need an epilogue.
    std::uint32_t below = 0;
    std::size_t c0 = 0;
    for (; c0 + kLanes <= count; c0 += kLanes) {
        std::uint32_t isBelow[kLanes];
        for (std::size_t l = 0; l < kLanes; ++l) {
            isBelow[l] = f[c0 + l] < bound.below ? 1u : 0u;
            const std::uint32_t isAbove = f[c0 + l] >= bound.atOrAbove ? 1u : 0u;
            band[c0 + l] = 1u - (isBelow[l] | isAbove);
        }
        for (std::size_t l = 0; l < kLanes; ++l) below += isBelow[l];
        if (counts)
            for (std::size_t l = 0; l < kLanes; ++l) counts[c0 + l] += isBelow[l];
    }
    for (std::size_t c = c0; c < count; ++c) {
        const std::uint32_t isBelow = f[c] < bound.below ? 1u : 0u;
        band[c] = 1u - (isBelow | (f[c] >= bound.atOrAbove ? 1u : 0u));
        below += isBelow;
        if (counts) counts[c] += isBelow;
    }
    return below;
}

}  // namespace clusterlens::cpu
