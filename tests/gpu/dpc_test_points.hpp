#pragma once
// Point sets of the density-peaks gpu tests: uniform, on an integer lattice (many equal distances)
// and cytometry-like, row-major float.

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "clusterlens/synthetic.hpp"

namespace clusterlens::test {

struct DpcPoints {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<float> x;
};

inline DpcPoints uniformPoints(std::size_t n, std::size_t d, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    DpcPoints p{n, d, std::vector<float>(n * d)};
    for (float& v : p.x) v = static_cast<float>(static_cast<double>(rng() >> 11) * 0x1.0p-53 * 10.0);
    return p;
}

inline DpcPoints latticePoints(std::size_t n, std::size_t d, int side, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    DpcPoints p{n, d, std::vector<float>(n * d)};
    for (float& v : p.x) v = static_cast<float>(rng() % static_cast<std::uint64_t>(side));
    return p;
}

inline DpcPoints cytometryPoints(std::size_t n, std::size_t d, std::uint64_t seed) {
    SyntheticOptions o;
    o.n = n;
    o.d = d;
    o.seed = seed;
    const Dataset data = makeCytometryLike(o);
    return DpcPoints{data.n, data.d, data.values};
}

}  // namespace clusterlens::test
