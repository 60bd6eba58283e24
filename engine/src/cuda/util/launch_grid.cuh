#pragma once
// The grid of a one-dimensional launch.

#include <cstddef>

namespace clusterlens::cuda {

/// Blocks of `threads` threads that cover `items` items (one thread each).
inline unsigned gridFor(std::size_t items, unsigned threads) {
    return static_cast<unsigned>((items + threads - 1) / threads);
}

}  // namespace clusterlens::cuda
