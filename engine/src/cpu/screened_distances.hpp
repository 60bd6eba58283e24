#pragma once
// Float screening for the exact all-pairs CPU passes. A pass needs a pair's exact squared distance
// (double, dpc::exactSquaredDistance) only where it decides something near a threshold: the squared
// distance computed in float from the same float coordinates lies within a relative
// dpc::floatDistanceTolerance(d) of it (each difference, square and addition rounded once, or fused),
// so a pair whose float value is clearly on one side of every threshold is decided by it, and only
// the few pairs near a threshold pay for the double computation. The float distances run 8 lanes wide
// with fused multiply-adds where the processor has AVX2 and FMA (a target clone, chosen at load time),
// 4 lanes (SSE2) elsewhere; the results of a pass do not depend on which.

#include <cstddef>
#include <cstdint>

namespace clusterlens::cpu {

/// Float bounds of a squared-distance threshold t for d features: a float squared distance f with
/// f < below has exact e < t; one with f >= atOrAbove has exact e >= t; any other f, or a NaN
/// atOrAbove (t near the float range, where f may overflow), needs e. Holds for subnormal results too
/// (an absolute slack of 2^-100 covers their rounding).
struct ScreenBound {
    float below = 0.0f;
    float atOrAbove = 0.0f;
};

/// The bounds of t (t >= 0 or +inf) for d features; O(1).
ScreenBound screenBound(double t, std::size_t d);

/// f[c] = float squared distance from q (d floats) to points j0 .. j0 + count - 1 of a feature-major
/// array of `stride` points (feature k of point j at values[k * stride + j]). f must have room for
/// count rounded up to a multiple of 16: lanes past count may be written. O(count · d), no allocation.
void screenedSquaredDistances(const float* q, const float* values, std::size_t stride, std::size_t d, std::size_t j0,
                              std::size_t count, float* f);

/// Lanes a float bound does not decide: band[c] = 1 where neither f[c] < bound.below nor
/// f[c] >= bound.atOrAbove, else 0. When `counts` is given, counts[c] += 1 where f[c] < bound.below.
/// Returns the number of lanes with f[c] < bound.below. O(count).
std::uint32_t screenLanes(const float* f, std::size_t count, ScreenBound bound, std::uint32_t* counts,
                          std::uint32_t* band);

/// Lanes of `count` the caller must look at in groups of kScreenGroup: calls visit(c) for every c
/// with band[c] != 0, skipping whole groups without one.
constexpr std::size_t kScreenGroup = 32;

template <class Visit>
void forEachBandLane(const std::uint32_t* band, std::size_t count, Visit&& visit) {
    for (std::size_t g = 0; g < count; g += kScreenGroup) {
        const std::size_t end = g + kScreenGroup < count ? g + kScreenGroup : count;
        std::uint32_t any = 0;
        for (std::size_t c = g; c < end; ++c) any |= band[c];
        if (!any) continue;
        for (std::size_t c = g; c < end; ++c)
            if (band[c]) visit(c);
    }
}

}  // namespace clusterlens::cpu
