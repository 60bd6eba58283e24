#pragma once
// Host side of the GPU VAT engine, shared by vat_space.cu (the prepared point set), vat_passes.cu
// (the pruned tiled passes) and vat_boruvka.cu (the Borůvka rounds and the public functions).
//
// Pipeline for n points x d features (see vat_common.cuh for the exactness argument):
//  1. VatSpace: screening coordinates, a kd-tree order with leaves of 128 positions (outlying points
//     of a leaf get tiles of their own), tile balls; uploads O(N·D).
//  2. VatPasses::knn: one pruned tiled pass gives every point its kVatKnn nearest points (in exact
//     order) and a certified radius.
//  3. Borůvka rounds (vat_boruvka_kernels.cuh) with scans of only the rows whose nearest point of
//     another component is not yet known; VatPasses::nearest.
//  4. The tree is walked into Prim's order on the host (primWalk in vat_boruvka.cu).
// Host declarations only; no kernel is defined here.
// The farthest pair (the VAT start) is one pruned screening pass plus a refinement of the candidate
// rows (VatPasses::farthest).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/metric.hpp"
#include "cuda/kernels/vat_common.cuh"
#include "cuda/util/device_buffer.cuh"
#include "cuda/util/launch_grid.cuh"

namespace clusterlens::cuda {

/// What one engine call did; described in one line for VatOptions::trace (the benchmark's report).
struct VatTrace {
    double secondsPrepare = 0.0;  ///< host screening + kd order + upload + balls
    double secondsKnn = 0.0;      ///< k-NN pass
    double secondsRounds = 0.0;   ///< Borůvka rounds (scans included)
    double secondsScans = 0.0;    ///< nearest scans inside the rounds
    double secondsFar = 0.0;      ///< farthest pair
    double secondsWalk = 0.0;     ///< host: reference weights and Prim's walk of the tree
    int rounds = 0;
    int scans = 0;              ///< nearest-scan launches (probe and regular)
    long long scannedRows = 0;  ///< rows of all nearest scans
    double tilePairs = 0.0;     ///< 128 x 128 tile pairs computed, all passes
    double knnTilePairs = 0.0;  ///< of which the k-NN pass
    std::string scanLog;        ///< per scan: round, probe/regular, rows, tile pairs, milliseconds
    int tileCount = 0;
    int outlierTiles = 0;

    /// Tile pairs of all passes over the tile pairs of one full all-pairs pass.
    double passes() const { return tileCount > 0 ? tilePairs / (double(tileCount) * double(tileCount)) : 0.0; }
    std::string describe(const char* what) const;
};

double secondsSince(std::chrono::steady_clock::time_point start);

/// Calls f(std::integral_constant<Metric, M>{}) for the runtime metric.
template <class F>
decltype(auto) withMetric(Metric metric, F&& f) {
    switch (metric) {
        case Metric::SqEuclidean:
            return f(std::integral_constant<Metric, Metric::SqEuclidean>{});
        case Metric::Manhattan:
            return f(std::integral_constant<Metric, Metric::Manhattan>{});
        case Metric::Cosine:
            return f(std::integral_constant<Metric, Metric::Cosine>{});
        case Metric::Euclidean:
            break;
    }
    return f(std::integral_constant<Metric, Metric::Euclidean>{});
}

/// A point set prepared on the device for the tiled passes. Positions 0..positions()-1 are the kd
/// order in tiles of 128 (padding positions hold no point). Device memory: the original values
/// (4·N·D bytes), the screening tiles (4·P·dPad), norms, permutations and balls (about 24·P bytes).
class VatSpace {
public:
    /// x: n x d row-major, validated by the caller (finite, cosine rows not all zero).
    VatSpace(const float* x, std::size_t n, std::size_t d, Metric metric);

    VatSpaceView view() const;
    VatBallsView balls() const { return VatBallsView{d_centre.data(), d_radius.data(), m_tiles}; }
    Metric metric() const { return m_screen.metric; }
    const VatScreen& screen() const { return m_screen; }
    int n() const { return m_n; }
    int d() const { return m_d; }
    int dPad() const { return m_dPad; }
    int tileCount() const { return m_tiles; }
    int positions() const { return m_tiles * kVatTile; }
    int outlierTiles() const { return m_outlierTiles; }
    const std::vector<int>& perm() const { return m_perm; }
    const int* invPerm() const { return d_invPerm.data(); }
    const float* tileReach() const { return d_reach.data(); }
    const float* screening() const { return m_screening.data(); }

    /// A lower bound, in ball units (screening distance), of the largest pairwise distance: the
    /// distance of a far pair found by two sweeps (centre -> farthest -> farthest), less its rounding.
    double farLowerBound() const;

private:
    int m_n = 0;
    int m_d = 0;
    int m_dPad = 0;
    int m_tiles = 0;
    int m_outlierTiles = 0;
    VatScreen m_screen;
    std::vector<float> m_screening;  ///< n x d screening coordinates (host)
    std::vector<int> m_perm;         ///< position -> original index, -1 padding
    DeviceBuffer<float> d_points;
    DeviceBuffer<float> d_tiles;
    DeviceBuffer<float> d_norms;
    DeviceBuffer<int> d_perm;
    DeviceBuffer<int> d_invPerm;
    DeviceBuffer<float> d_centre;
    DeviceBuffer<float> d_radius;
    DeviceBuffer<float> d_reach;
};

/// The pruned tiled passes over one VatSpace, launched in batches of about 50 ms of work with a
/// cancel check between batches; gathered row groups for the scans are kept between calls.
class VatPasses {
public:
    VatPasses(const VatSpace& space, JobControl* control, VatTrace& trace);

    /// k-NN pass: per position kVatKnn neighbours (positions sorted by exact value, then original
    /// index) and the radius beyond which every other point lies. 4·kVatKnn + 8 bytes per position.
    void knn(DeviceBuffer<int>& knnPos, DeviceBuffer<double>& knnBound);

    /// Nearest scan of the rows list[0..count) for the Borůvka rounds (probe: without a limit) and
    /// applies the results to the forest. tileComp: per tile its common component or -1.
    void nearest(const int* list, int count, bool probe, const VatForest& forest, const int* tileComp);

    /// The farthest pair (original indices i < j): largest exact distance, ties by the
    /// lexicographically smallest pair.
    std::pair<std::size_t, std::size_t> farthest();

private:
    /// Farthest-pair screen: per row the largest lower and upper bound over the tile pairs that can
    /// reach a far pair found by two sweeps. Returns the largest lower bound (screening units) and the
    /// rows whose upper bound reaches it.
    float farScreen(std::vector<int>& candidates);
    int gather(const int* list, int count);
    void groupBalls(int groups, const float* slotReach, const int* slotComp);
    template <class Launch>
    long long runPairs(VatBallsView rows, const float* reach, const int* rowComp, const int* colComp, bool farthest,
                       Launch&& launch);
    void ensureGroups(int rows);

    const VatSpace& m_space;
    JobControl* m_control;
    VatTrace& m_trace;
    DeviceBuffer<int> d_counts;
    DeviceBuffer<long long> d_offsets;
    DeviceBuffer<int> d_list;
    DeviceBuffer<int> d_blockUnit;
    // Gathered row groups (capacity in rows, a multiple of 128).
    int m_capacity = 0;
    DeviceBuffer<float> d_groupTiles;
    DeviceBuffer<int> d_groupPos;
    DeviceBuffer<int> d_groupComp;
    DeviceBuffer<double> d_groupLimit;
    DeviceBuffer<float> d_groupHigh;
    DeviceBuffer<float> d_groupSlotReach;
    DeviceBuffer<float> d_groupCentre;
    DeviceBuffer<float> d_groupRadius;
    DeviceBuffer<float> d_groupReach;
    DeviceBuffer<int> d_groupBallComp;
    DeviceBuffer<double> d_outW;
    DeviceBuffer<int> d_outQ;
};

/// Ball centres (d x tiles, feature-major) and radii of the space's tiles, and each tile's reach
/// (vatTileReachKernel); defined beside the kernels in vat_passes.cu.
void vatTileGeometry(const VatSpaceView& view, float* centre, float* radius, float* reach);

/// Grows a buffer to at least `count` elements (contents are not kept).
template <class T>
void ensureCapacity(DeviceBuffer<T>& buffer, std::size_t count) {
    if (buffer.size() < count) buffer = DeviceBuffer<T>(count + count / 4 + 64, cudaStreamPerThread);
}

}  // namespace clusterlens::cuda
