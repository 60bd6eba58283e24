#pragma once
// What the GPU MHCA tests share (mhca_parity_test.cpp, mhca_mechanisms_test.cpp): seeded Gaussian
// mixtures, merge-by-merge comparisons of two linkages, the options and their names, and the
// injection of a tuning policy. Built only with CUDA.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/hca/mhca_cuda.hpp"
#include "clusterlens/hca/mhca_cuda_policy.hpp"
#include "require_gpu.hpp"

namespace clusterlens::test::mhcagpu {

inline constexpr double kHeightTolerance = 1e-9;

struct Points {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<double> x;
    std::vector<std::int32_t> population;
};

/// Standard normal by Box–Muller from 53-bit uniforms (the same numbers on every platform).
inline double normal(std::mt19937_64& rng) {
    const double u1 = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

/// k elongated Gaussian populations with centres `spread` apart on average, scales per axis in
/// [0.2, 1] and a random shear, so clusters are elliptic; the points are shuffled.
inline Points gaussianMixture(std::size_t n, std::size_t d, std::size_t k, double spread, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::vector<double>> centre(k, std::vector<double>(d)), scale(k, std::vector<double>(d));
    std::vector<double> shear(k);
    for (std::size_t c = 0; c < k; ++c) {
        for (std::size_t j = 0; j < d; ++j) {
            centre[c][j] = spread * normal(rng);
            scale[c][j] = 0.2 + 0.8 * static_cast<double>(rng() >> 11) * 0x1.0p-53;
        }
        shear[c] = normal(rng);
    }
    Points p;
    p.n = n;
    p.d = d;
    p.x.resize(n * d);
    p.population.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t c = i % k;
        p.population[i] = static_cast<std::int32_t>(c + 1);
        double previous = 0.0;
        for (std::size_t j = 0; j < d; ++j) {
            const double z = scale[c][j] * normal(rng);
            p.x[i * d + j] = centre[c][j] + z + shear[c] * previous;
            previous = z;
        }
    }
    for (std::size_t i = n; i-- > 1;) {
        const std::size_t j = static_cast<std::size_t>(rng() % (i + 1));
        for (std::size_t f = 0; f < d; ++f) std::swap(p.x[i * d + f], p.x[j * d + f]);
        std::swap(p.population[i], p.population[j]);
    }
    return p;
}

/// Index of the first differing merge (merges.size() when identical) and the largest relative
/// height difference before it.
inline std::size_t firstDifference(const Linkage& actual, const Linkage& expected, double& worst) {
    worst = 0.0;
    const std::size_t m = std::min(actual.merges.size(), expected.merges.size());
    for (std::size_t i = 0; i < m; ++i) {
        const Merge& a = actual.merges[i];
        const Merge& e = expected.merges[i];
        const double rel = std::abs(a.height - e.height) / std::max(std::abs(e.height), 1e-300);
        if (a.a != e.a || a.b != e.b || a.size != e.size || !(rel <= kHeightTolerance)) return i;
        worst = std::max(worst, rel);
    }
    return actual.merges.size() == expected.merges.size() ? actual.merges.size() : m;
}

inline void expectSameMerges(const Linkage& gpu, const Linkage& reference, const std::string& what) {
    ASSERT_EQ(gpu.leafCount, reference.leafCount) << what;
    ASSERT_EQ(gpu.merges.size(), reference.merges.size()) << what;
    EXPECT_NO_THROW(gpu.validate(what));
    double worst = 0.0;
    const std::size_t first = firstDifference(gpu, reference, worst);
    if (first < gpu.merges.size()) {
        const Merge& g = gpu.merges[first];
        const Merge& r = reference.merges[first];
        ADD_FAILURE() << what << ": merge " << first << " differs: gpu (" << g.a << ", " << g.b << ", " << g.height
                      << ", " << g.size << ") reference (" << r.a << ", " << r.b << ", " << r.height << ", " << r.size
                      << ")";
    }
    std::cout << "[ mhca gpu ] " << what << ": " << gpu.merges.size() << " merges identical up to " << first
              << ", max relative height difference " << worst << "\n";
}

/// Two runs' merges equal bit for bit: pairs and heights.
inline void expectIdentical(const Linkage& first, const Linkage& second, const std::string& what) {
    ASSERT_EQ(first.merges.size(), second.merges.size()) << what;
    for (std::size_t i = 0; i < first.merges.size(); ++i) {
        ASSERT_EQ(first.merges[i].a, second.merges[i].a) << what << ", merge " << i;
        ASSERT_EQ(first.merges[i].b, second.merges[i].b) << what << ", merge " << i;
        ASSERT_EQ(first.merges[i].height, second.merges[i].height) << what << ", merge " << i;
    }
}

inline MhcaOptions makeOptions(MhcaVariant variant, SubthresholdMode mode, bool normalize, double threshold = 0.5) {
    MhcaOptions o;
    o.variant = variant;
    o.subthreshold = mode;
    o.normalize = normalize;
    o.threshold = threshold;
    return o;
}

inline std::string describe(const MhcaOptions& o) {
    std::ostringstream s;
    s << mhcaVariantName(o.variant) << "/" << subthresholdModeName(o.subthreshold) << (o.normalize ? "/normalize" : "")
      << "/thr" << o.threshold << (o.apriori.empty() ? "" : "/apriori");
    return s.str();
}

inline void expectParity(const Points& p, const MhcaOptions& options, const std::string& what) {
    const Linkage cpu = mhcaCpu(p.x.data(), p.n, p.d, options);
    const Linkage gpu = mhcaCuda(p.x.data(), p.n, p.d, options);
    expectSameMerges(gpu, cpu, what + " " + describe(options));
}

inline constexpr MhcaVariant kVariants[] = {MhcaVariant::Centroid, MhcaVariant::Full};
inline constexpr SubthresholdMode kModes[] = {SubthresholdMode::Mahal, SubthresholdMode::Mahal0,
                                              SubthresholdMode::Euclid, SubthresholdMode::EuclidMahal};

/// `options` with the production policy for p's size and variant (on a device with a cooperative
/// launch) changed by `change`: a test of one mechanism injects it this way, so that it checks the
/// mechanism whatever the production choice becomes.
template <class Change>
MhcaOptions withPolicy(MhcaOptions options, const Points& p, Change change) {
    MhcaCudaPolicy policy = chooseMhcaCudaPolicy(MhcaDeviceTraits{}, p.n, p.d, options.variant);
    change(policy);
    options.cudaPolicy = std::make_shared<const MhcaCudaPolicy>(policy);
    return options;
}

}  // namespace clusterlens::test::mhcagpu
