#pragma once
// Pieces shared by the CPU VAT sources and the generalised Prim (minimum_spanning_tree.cpp): distance
// sources (points or a stored matrix), dense Prim over any source, and the farthest-pair scan.
// Every distance equals metricDistance() bit for bit (same operations, same order; the engine builds
// with -ffp-contract=off, so no fused multiply-add changes the rounding).

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/metric.hpp"
#include "cpu/thread_pool.hpp"
#include "cpu/vat_distance_block.hpp"

namespace clusterlens::cpu {

// A distance source answers "distances from point i to the points in slots [begin, end)": slots are
// a compacted list of vertices (all points for the farthest pair, Prim's fringe for Prim) that drops
// a slot by moving the last one into it. A Probe is point i prepared once for many calls.

/// Distances computed from the points: a feature-major copy of the slots makes every call d
/// vectorised passes. Memory 8·(d+1)·slots bytes.
template <class T>
class PointSource {
public:
    using Probe = PointVector;

    PointSource(const T* x, std::size_t d, Metric metric, const std::uint32_t* ids, std::size_t count)
        : m_x(x), m_d(d), m_metric(metric), m_points(x, d, ids, count) {}

    void load(std::size_t i, Probe& probe) const { probe.assign(m_x + i * m_d, m_d); }
    /// out[s - begin] = metricDistance(point of probe, slot s) for s in [begin, end).
    void distances(const Probe& probe, std::size_t begin, std::size_t end, double* out) const {
        m_points.distances(m_metric, probe, begin, end, out);
    }
    void removeSlot(std::size_t s) { m_points.removeByMovingLast(s); }
    std::size_t cost() const { return m_d; }

private:
    const T* m_x;
    std::size_t m_d;
    Metric m_metric;
    FeatureMajorPoints m_points;
};

/// Distances read from a user-supplied n x n row-major matrix.
class MatrixSource {
public:
    using Probe = const double*;  ///< the matrix row of point i

    MatrixSource(const double* distances, std::size_t n, const std::uint32_t* ids, std::size_t count)
        : m_values(distances), m_n(n), m_ids(ids, ids + count) {}

    void load(std::size_t i, Probe& probe) const { probe = m_values + i * m_n; }
    void distances(const Probe& row, std::size_t begin, std::size_t end, double* out) const {
        for (std::size_t s = begin; s < end; ++s) out[s - begin] = row[m_ids[s]];
    }
    void removeSlot(std::size_t s) {
        m_ids[s] = m_ids.back();
        m_ids.pop_back();
    }
    std::size_t cost() const { return 1; }

private:
    const double* m_values;
    std::size_t m_n;
    std::vector<std::uint32_t> m_ids;
};

/// Throws InvalidInput naming the first all-zero row (1-based, as a spreadsheet counts): the cosine
/// dissimilarity divides by the row's norm.
template <class T>
void checkNoZeroRows(const T* x, std::size_t n, std::size_t d, const char* what) {
    for (std::size_t i = 0; i < n; ++i) {
        const T* row = x + i * d;
        if (std::all_of(row, row + d, [](T v) { return v == T(0); }))
            throw InvalidInput(std::string(what) + ": point " + std::to_string(i + 1) +
                               " has all features 0, and the cosine dissimilarity is undefined for it; "
                               "remove such points or choose another --metric");
    }
}

// ---------------------------------------------------------------------------------------------------
// Prim's algorithm on a complete graph given by a distance source.

/// A vertex outside the tree that Prim may add next: smaller distance first, then smaller index.
struct PrimCandidate {
    double w = std::numeric_limits<double>::infinity();
    std::uint32_t vertex = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t position = 0;
};

inline bool primBetter(const PrimCandidate& l, const PrimCandidate& r) {
    return l.w < r.w || (l.w == r.w && l.vertex < r.vertex);
}

/// Vertices outside the tree, compacted: the vertex id, its distance to the tree and the tree vertex
/// that attains it. Kept as three arrays for streaming access.
struct PrimFringe {
    std::vector<std::uint32_t> vertex;
    std::vector<double> best;
    std::vector<std::uint32_t> parent;

    void remove(std::size_t position) {
        vertex[position] = vertex.back();
        best[position] = best.back();
        parent[position] = parent.back();
        vertex.pop_back();
        best.pop_back();
        parent.pop_back();
    }
};

/// Fringe positions handled per distance call: the distances (4 KiB) stay in L1.
constexpr std::size_t kRelaxBlock = 512;

/// Relaxes fringe positions [begin, end) against `latest` (the vertex just added, loaded in `probe`)
/// and returns the best candidate among them. A strict ">" keeps the earliest added tree vertex as
/// parent on equal distances.
template <class Source>
PrimCandidate primRelaxRange(const Source& source, const typename Source::Probe& probe, std::uint32_t latest,
                             PrimFringe& fringe, std::size_t begin, std::size_t end) {
    PrimCandidate found;
    double w[kRelaxBlock];
    for (std::size_t p = begin; p < end; p += kRelaxBlock) {
        const std::size_t count = std::min(kRelaxBlock, end - p);
        source.distances(probe, p, p + count, w);
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t q = p + k;
            if (fringe.best[q] > w[k]) {
                fringe.best[q] = w[k];
                fringe.parent[q] = latest;
            }
            const PrimCandidate c{fringe.best[q], fringe.vertex[q], static_cast<std::uint32_t>(q)};
            if (primBetter(c, found)) found = c;
        }
    }
    return found;
}

/// Prim's algorithm (Prim 1957) on the complete graph of n vertices from `start`, in the dense O(N²)
/// form without a matrix (Müllner 2011, "Modern hierarchical, agglomerative clustering algorithms", the
/// MST-linkage of fastcluster and scipy): each step relaxes the fringe against the newest tree vertex in
/// parallel chunks and takes the closest fringe vertex, the smaller index on ties. `makeSource(ids,
/// count)` builds the distance source over the initial fringe, whose slots then follow the fringe's
/// compaction. Returns n-1 edges in Prim order. Callers validate n >= 1, start < n and n < 2^32 - 1.
/// Checks for a cancel every step and reports progress from `from` to `to`.
template <class MakeSource>
std::vector<MstEdge> primFromStart(MakeSource&& makeSource, std::size_t n, JobControl* control, std::size_t start,
                                   double from = 0.0, double to = 1.0) {
    std::vector<MstEdge> edges;
    edges.reserve(n - 1);
    PrimFringe fringe;
    fringe.vertex.reserve(n - 1);
    for (std::size_t v = 0; v < n; ++v)
        if (v != start) fringe.vertex.push_back(static_cast<std::uint32_t>(v));
    fringe.best.assign(n - 1, std::numeric_limits<double>::infinity());
    fringe.parent.assign(n - 1, static_cast<std::uint32_t>(start));
    auto source = makeSource(fringe.vertex.data(), fringe.vertex.size());
    typename decltype(source)::Probe probe{};

    ThreadPool pool;
    const std::size_t chunkTarget = std::max<std::size_t>(1024, 65536 / std::max<std::size_t>(source.cost(), 1));
    std::vector<PrimCandidate> partial(pool.size() * 4);
    auto latest = static_cast<std::uint32_t>(start);
    for (std::size_t step = 0; step + 1 < n; ++step) {
        source.load(latest, probe);
        const std::size_t size = fringe.vertex.size();
        const std::size_t chunks = std::min(partial.size(), (size + chunkTarget - 1) / chunkTarget);
        PrimCandidate best;
        if (chunks <= 1) {
            best = primRelaxRange(source, probe, latest, fringe, 0, size);
        } else {
            const std::size_t chunk = (size + chunks - 1) / chunks;
            pool.run(chunks, [&](std::size_t c) {
                partial[c] = primRelaxRange(source, probe, latest, fringe, c * chunk, std::min(size, (c + 1) * chunk));
            });
            for (std::size_t c = 0; c < chunks; ++c)
                if (primBetter(partial[c], best)) best = partial[c];
        }
        edges.push_back(MstEdge{fringe.parent[best.position], best.vertex, best.w});
        latest = best.vertex;
        fringe.remove(best.position);
        source.removeSlot(best.position);
        if (control) {
            control->checkCancelled();
            if ((step & 255) == 0) {
                const double left = 1.0 - static_cast<double>(step) / static_cast<double>(n - 1);
                control->setProgress(from + (to - from) * (1.0 - left * left));
            }
        }
    }
    return edges;
}

// ---------------------------------------------------------------------------------------------------
// The farthest pair (the VAT start point).

/// Largest distance so far and its pair (i < j); ties keep the lexicographically smaller pair.
struct FarPair {
    double w = -std::numeric_limits<double>::infinity();
    std::size_t i = 0;
    std::size_t j = 1;
};

inline bool farther(const FarPair& l, const FarPair& r) {
    return l.w > r.w || (l.w == r.w && (l.i < r.i || (l.i == r.i && l.j < r.j)));
}

/// Scans all pairs i < j for the largest distance, rows split into tasks of about equal pair counts;
/// every task scans its rows and columns in ascending order, so the result does not depend on the
/// number of threads. `source` holds every point, slot s = point s. O(N² cost) time, O(threads)
/// memory. Checks for a cancel every row and reports progress from `from` to `to` per task.
template <class Source>
FarPair farthestPairScan(const Source& source, std::size_t n, JobControl* control, double from = 0.0, double to = 1.0) {
    ThreadPool pool;
    const std::size_t tasks = std::min<std::size_t>(n - 1, pool.size() * 32);
    const double totalPairs = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1);
    std::vector<std::size_t> bounds{0};
    double pairs = 0.0;
    for (std::size_t i = 0; i + 1 < n; ++i) {
        pairs += static_cast<double>(n - 1 - i);
        if (pairs >= totalPairs * static_cast<double>(bounds.size()) / static_cast<double>(tasks))
            bounds.push_back(i + 1);
    }
    if (bounds.back() != n - 1) bounds.push_back(n - 1);
    std::vector<FarPair> found(bounds.size() - 1);
    std::atomic<std::size_t> done{0};
    pool.run(found.size(), [&](std::size_t t) {
        FarPair best;
        typename Source::Probe probe{};
        double w[kRelaxBlock];
        for (std::size_t i = bounds[t]; i < bounds[t + 1]; ++i) {
            if (control) control->checkCancelled();  // a row is N distances: ~2 ms at 1M points
            source.load(i, probe);
            for (std::size_t j0 = i + 1; j0 < n; j0 += kRelaxBlock) {
                const std::size_t count = std::min(kRelaxBlock, n - j0);
                source.distances(probe, j0, j0 + count, w);
                for (std::size_t c = 0; c < count; ++c)
                    if (w[c] > best.w) best = FarPair{w[c], i, j0 + c};
            }
        }
        found[t] = best;
        if (control) {
            const double fraction = static_cast<double>(done.fetch_add(1) + 1) / static_cast<double>(found.size());
            control->setProgress(from + (to - from) * fraction);
        }
    });
    FarPair best;
    for (const FarPair& f : found)
        if (farther(f, best)) best = f;
    if (control) control->checkCancelled();
    return best;
}

}  // namespace clusterlens::cpu
