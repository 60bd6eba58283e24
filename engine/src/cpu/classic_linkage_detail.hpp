#pragma once
// Pieces shared by the classic-linkage sources (classic_linkage.cpp, nn_chain.cpp,
// generic_linkage.cpp, minimum_spanning_tree.cpp): the condensed distance matrix, the
// Lance–Williams updates in scipy's arithmetic, and the scipy labelling step.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/job_control.hpp"
#include "cpu/thread_pool.hpp"

namespace clusterlens::cpu {

/// Squared Euclidean distance of two d-vectors, summed in double from the first feature to the last
/// (the order of scipy's pdist, so sqrt() of it equals pdist bit for bit).
template <class T>
inline double squaredEuclidean(const T* a, const T* b, std::size_t d) {
    double sum = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
        const double diff = static_cast<double>(a[j]) - static_cast<double>(b[j]);
        sum += diff * diff;
    }
    return sum;
}

/// Four squared distances from a to b0..b3 at once, each summed exactly as squaredEuclidean (the
/// four independent sums keep the floating-point pipeline busy).
template <class T>
inline void squaredEuclidean4(const T* a, const T* b0, const T* b1, const T* b2, const T* b3, std::size_t d,
                              double* out) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
        const double aj = static_cast<double>(a[j]);
        const double t0 = aj - static_cast<double>(b0[j]);
        const double t1 = aj - static_cast<double>(b1[j]);
        const double t2 = aj - static_cast<double>(b2[j]);
        const double t3 = aj - static_cast<double>(b3[j]);
        s0 += t0 * t0;
        s1 += t1 * t1;
        s2 += t2 * t2;
        s3 += t3 * t3;
    }
    out[0] = s0;
    out[1] = s1;
    out[2] = s2;
    out[3] = s3;
}

/// Throws InvalidInput (n < minPoints, d = 0) or NonFiniteInput naming the first bad value.
template <class T>
void checkPoints(const T* x, std::size_t n, std::size_t d, std::size_t minPoints, const char* what);

/// Upper triangle of a symmetric n x n matrix without the diagonal, row by row (scipy's condensed
/// form): entry (i, j), i < j, is at n*i - i*(i+1)/2 + (j - i - 1). n(n-1)/2 doubles, uninitialised,
/// in memory mapped with transparent huge pages where Linux offers them: the nearest-neighbour scans
/// read columns with a stride of a row, and small pages would make nearly every read a TLB miss.
class CondensedMatrix {
public:
    /// Throws std::bad_alloc when the memory cannot be reserved.
    explicit CondensedMatrix(std::size_t n);
    ~CondensedMatrix();
    CondensedMatrix(CondensedMatrix&& other) noexcept;
    CondensedMatrix& operator=(CondensedMatrix&&) = delete;
    CondensedMatrix(const CondensedMatrix&) = delete;
    CondensedMatrix& operator=(const CondensedMatrix&) = delete;

    std::size_t size() const { return m_n; }
    /// Offset of row i's first entry (i, i+1).
    std::size_t rowStart(std::size_t i) const { return m_n * i - i * (i + 1) / 2; }
    std::size_t index(std::size_t i, std::size_t j) const {
        return i < j ? rowStart(i) + (j - i - 1) : rowStart(j) + (i - j - 1);
    }
    double& at(std::size_t i, std::size_t j) { return m_values[index(i, j)]; }
    double at(std::size_t i, std::size_t j) const { return m_values[index(i, j)]; }
    double* data() { return m_values; }
    const double* data() const { return m_values; }
    /// Hints that entry (i, j) will be read soon: column walks have no stride the hardware can guess.
    void prefetch(std::size_t i, std::size_t j) const {
#if defined(__GNUC__)
        if (i != j) __builtin_prefetch(m_values + index(i, j));
#else
        (void)i;
        (void)j;
#endif
    }

private:
    std::size_t m_n = 0;
    std::size_t m_bytes = 0;
    double* m_values = nullptr;
};

/// The clusters still active, as matrix slots in ascending order.
class ActiveClusters {
public:
    explicit ActiveClusters(std::size_t n);
    std::size_t size() const { return m_ids.size(); }
    const std::uint32_t* ids() const { return m_ids.data(); }
    std::uint32_t front() const { return m_ids.front(); }
    /// Position of the first active slot greater than `slot`.
    std::size_t firstAbove(std::uint32_t slot) const;
    void remove(std::uint32_t slot);

private:
    std::vector<std::uint32_t> m_ids;
};

/// Smallest distance of a row and the first (lowest) slot attaining it; slot = kNoSlot when empty.
struct RowMinimum {
    static constexpr std::uint32_t kNoSlot = 0xffffffffu;
    double value = std::numeric_limits<double>::infinity();
    std::uint32_t slot = kNoSlot;
};

/// Minimum of distances(x, ids[p]) over positions p in [begin, end) of an ascending slot list, skipping
/// x itself; ties give the lowest slot. Sequential (safe inside pool tasks).
RowMinimum rowMinimumSequential(const CondensedMatrix& distances, std::uint32_t x, const std::uint32_t* ids,
                                std::size_t begin, std::size_t end);

/// Minimum of distances(x, ids[p]) over positions p in [begin, end) of the active list, skipping x
/// itself; ties give the lowest slot, as a sequential scan with a strict "<" does. Long ranges are
/// split over the pool.
RowMinimum rowMinimum(const CondensedMatrix& distances, std::uint32_t x, const ActiveClusters& active,
                      std::size_t begin, std::size_t end, ThreadPool& pool);

/// How many entries ahead the column walks prefetch.
constexpr std::size_t kPrefetchAhead = 24;

/// Lists at or above this length are scanned or updated on the pool; shorter ones inline.
constexpr std::size_t kParallelScanLength = 16384;

/// Euclidean distances of all pairs of points (scipy's pdist), computed row block by row block on the
/// pool. Throws InvalidInput when n(n-1)/2 doubles exceed kMaxDistanceMatrixBytes or cannot be
/// allocated; Cancelled.
template <class T>
CondensedMatrix euclideanDistanceMatrix(const T* x, std::size_t n, std::size_t d, LinkageMethod method,
                                        ThreadPool& pool, JobControl* control);

/// A merge recorded by an algorithm before labelling: x and y identify the merged clusters by one of
/// their leaves (any leaf of each cluster), height is the merge distance.
struct RawMerge {
    std::int64_t x = 0;
    std::int64_t y = 0;
    double height = 0.0;
};

/// scipy's final step for merge lists found out of height order: stable sort by height, then a
/// union-find replays the merges and names each new cluster n+i in scipy's convention (a < b).
Linkage labelMergesSortedByHeight(std::vector<RawMerge> merges, std::size_t n);

/// Nearest-neighbour chain (complete, average, weighted, ward) on the matrix, which it overwrites.
Linkage nnChainLinkage(CondensedMatrix& distances, LinkageMethod method, ThreadPool& pool, JobControl* control);

/// Generic algorithm (centroid, median) on the matrix, which it overwrites.
Linkage genericLinkage(CondensedMatrix& distances, LinkageMethod method, ThreadPool& pool, JobControl* control);

/// Lance–Williams updates on Euclidean distances, written with the operations and operand order of
/// scipy's _hierarchy_distance_update.pxi so results agree bit for bit. dxi, dyi: distances of the
/// merged clusters x and y to cluster i; dxy: distance of x and y; nx, ny, ni: cluster sizes.
/// Centroid, median and ward square the distances and return the square root (a slightly negative
/// radicand from rounding gives 0).
struct CompleteUpdate {
    static double apply(double dxi, double dyi, double, double, double, double) { return dxi > dyi ? dxi : dyi; }
};
struct AverageUpdate {
    static double apply(double dxi, double dyi, double, double nx, double ny, double) {
        return (nx * dxi + ny * dyi) / (nx + ny);
    }
};
struct WeightedUpdate {
    static double apply(double dxi, double dyi, double, double, double, double) { return 0.5 * (dxi + dyi); }
};
struct WardUpdate {
    static double apply(double dxi, double dyi, double dxy, double nx, double ny, double ni) {
        const double t = 1.0 / (nx + ny + ni);
        const double r = (ni + nx) * t * dxi * dxi + (ni + ny) * t * dyi * dyi - ni * t * dxy * dxy;
        return std::sqrt(r > 0.0 ? r : 0.0);
    }
};
struct CentroidUpdate {
    static double apply(double dxi, double dyi, double dxy, double nx, double ny, double) {
        const double r = ((nx * dxi * dxi) + (ny * dyi * dyi) - (nx * ny * dxy * dxy) / (nx + ny)) / (nx + ny);
        return std::sqrt(r > 0.0 ? r : 0.0);
    }
};
struct MedianUpdate {
    static double apply(double dxi, double dyi, double dxy, double, double, double) {
        const double r = 0.5 * (dxi * dxi + dyi * dyi) - 0.25 * dxy * dxy;
        return std::sqrt(r > 0.0 ? r : 0.0);
    }
};

/// Reports progress for work that shrinks with the square of the clusters left (merge k of n-1).
inline void reportQuadraticProgress(JobControl* control, std::size_t done, std::size_t total) {
    if (!control || total == 0) return;
    const double left = 1.0 - static_cast<double>(done) / static_cast<double>(total);
    control->setProgress(1.0 - left * left);
}

}  // namespace clusterlens::cpu
