#pragma once
// Point sets of the gpu tests (density peaks, k-means): uniform, on an integer lattice (many equal distances)
// and cytometry-like, row-major float.

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "clusterlens/synthetic.hpp"

namespace clusterlens::test {

struct TestPoints {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<float> x;
};

inline TestPoints uniformPoints(std::size_t n, std::size_t d, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    TestPoints p{n, d, std::vector<float>(n * d)};
    for (float& v : p.x) v = static_cast<float>(static_cast<double>(rng() >> 11) * 0x1.0p-53 * 10.0);
    return p;
}

inline TestPoints latticePoints(std::size_t n, std::size_t d, int side, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    TestPoints p{n, d, std::vector<float>(n * d)};
    for (float& v : p.x) v = static_cast<float>(rng() % static_cast<std::uint64_t>(side));
    return p;
}

inline TestPoints cytometryPoints(std::size_t n, std::size_t d, std::uint64_t seed) {
    SyntheticOptions o;
    o.n = n;
    o.d = d;
    o.seed = seed;
    const Dataset data = makeCytometryLike(o);
    return TestPoints{data.n, data.d, data.values};
}

}  // namespace clusterlens::test
