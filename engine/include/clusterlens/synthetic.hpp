#pragma once
// Seeded synthetic data shaped like transformed flow/mass cytometry: a few anisotropic Gaussian
// populations of very different sizes plus a thin layer of uniform background noise. Used by the
// benchmark program and by tests that need realistic but reproducible data.

#include <cstddef>
#include <cstdint>

#include "clusterlens/dataset.hpp"

namespace clusterlens {

struct SyntheticOptions {
    std::size_t n = 44000;        ///< total number of points, noise included
    std::size_t d = 14;           ///< number of features (markers)
    std::size_t clusters = 12;    ///< number of Gaussian populations K (>= 1)
    double noiseFraction = 0.03;  ///< share of points drawn uniformly over the bounding box, in [0, 1)
    double centreRange = 10.0;    ///< population centres are uniform in [0, centreRange]^d
    double minScale = 0.15;       ///< smallest standard deviation along a principal axis
    double maxScale = 1.2;        ///< largest standard deviation along a principal axis
    std::uint64_t seed = 1;
};

/// Draws a cytometry-like dataset: K Gaussian populations, each with covariance R·diag(s²)·Rᵀ for a
/// random rotation R (Gram–Schmidt of a Gaussian matrix) and per-axis scales s uniform in
/// [minScale, maxScale]; population sizes are random (relative weights uniform in [0.05, 1], every
/// population at least one point); then round(noiseFraction·n) points uniform over the bounding box
/// of the populations; finally the points are shuffled. `labels` holds the population (0..K-1) of
/// each point and -1 for noise. The same options give the same dataset everywhere (std::mt19937_64
/// with own uniform/normal transforms, no implementation-defined std distributions). Memory: 4·n·d bytes for the values
/// plus 4·n for the labels; time O(n·d² + K·d³). Throws InvalidInput for n < 2, d = 0, clusters = 0 or a bad noise
/// fraction.
Dataset makeCytometryLike(const SyntheticOptions& options);

}  // namespace clusterlens
