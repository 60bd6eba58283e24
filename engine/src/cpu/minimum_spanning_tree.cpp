// Dense Prim minimum spanning tree without a distance matrix, and single linkage from its edges.

#include <algorithm>
#include <limits>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "cpu/classic_linkage_detail.hpp"

namespace clusterlens {

namespace {

// A vertex outside the tree that Prim may add next: smaller distance first, then smaller index.
struct Candidate {
    double w = std::numeric_limits<double>::infinity();
    std::uint32_t vertex = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t position = 0;
};

bool better(const Candidate& l, const Candidate& r) {
    return l.w < r.w || (l.w == r.w && l.vertex < r.vertex);
}

// Vertices outside the tree, compacted: the vertex id, its distance to the tree and the tree vertex
// that attains it. Kept as three arrays for streaming access.
struct Fringe {
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

// Relaxes fringe positions [begin, end) against the vertex `latest` just added to the tree and returns
// the best candidate among them. Distances are exact Euclidean (sqrt of the squared sum), so the
// comparisons are those of scipy's mst_single_linkage.
template <class T>
Candidate relaxRange(const T* x, std::size_t d, std::uint32_t latest, Fringe& fringe, std::size_t begin,
                     std::size_t end) {
    const T* origin = x + static_cast<std::size_t>(latest) * d;
    Candidate found;
    double sq[4];
    for (std::size_t p = begin; p < end; p += 4) {
        const std::size_t count = std::min<std::size_t>(4, end - p);
        if (count == 4) {
            cpu::squaredEuclidean4(origin, x + fringe.vertex[p] * d, x + fringe.vertex[p + 1] * d,
                                   x + fringe.vertex[p + 2] * d, x + fringe.vertex[p + 3] * d, d, sq);
        } else {
            for (std::size_t k = 0; k < count; ++k)
                sq[k] = cpu::squaredEuclidean(origin, x + static_cast<std::size_t>(fringe.vertex[p + k]) * d, d);
        }
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t q = p + k;
            const double dist = std::sqrt(sq[k]);
            if (fringe.best[q] > dist) {
                fringe.best[q] = dist;
                fringe.parent[q] = latest;
            }
            const Candidate c{fringe.best[q], fringe.vertex[q], static_cast<std::uint32_t>(q)};
            if (better(c, found)) found = c;
        }
    }
    return found;
}

// Prim's algorithm on the complete Euclidean graph of n points x d features (Prim 1957; the dense
// O(N^2) "MST-linkage" of Müllner 2011 "Modern hierarchical, agglomerative clustering algorithms",
// after Rohlf, as in fastcluster and scipy's mst_single_linkage), without a distance matrix: each step relaxes the fringe against the newest tree vertex, in parallel chunks, and takes
// the closest fringe vertex (smaller index on ties).
template <class T>
std::vector<MstEdge> primImpl(const T* x, std::size_t n, std::size_t d, JobControl* control, std::size_t start) {
    cpu::checkPoints(x, n, d, 1, "the minimum spanning tree");
    if (start >= n)
        throw InvalidInput("the minimum spanning tree start point " + std::to_string(start) +
                           " is not below the number of points " + std::to_string(n));
    if (n > std::numeric_limits<std::uint32_t>::max() - 1)
        throw InvalidInput("the minimum spanning tree supports at most 4 294 967 294 points");
    std::vector<MstEdge> edges;
    edges.reserve(n - 1);
    Fringe fringe;
    fringe.vertex.reserve(n - 1);
    for (std::size_t v = 0; v < n; ++v)
        if (v != start) fringe.vertex.push_back(static_cast<std::uint32_t>(v));
    fringe.best.assign(n - 1, std::numeric_limits<double>::infinity());
    fringe.parent.assign(n - 1, static_cast<std::uint32_t>(start));

    cpu::ThreadPool pool;
    const std::size_t chunkTarget = std::max<std::size_t>(1024, 65536 / std::max<std::size_t>(d, 1));
    std::vector<Candidate> partial(pool.size() * 4);
    auto latest = static_cast<std::uint32_t>(start);
    for (std::size_t step = 0; step + 1 < n; ++step) {
        const std::size_t size = fringe.vertex.size();
        const std::size_t chunks = std::min(partial.size(), (size + chunkTarget - 1) / chunkTarget);
        Candidate best;
        if (chunks <= 1) {
            best = relaxRange(x, d, latest, fringe, 0, size);
        } else {
            const std::size_t chunk = (size + chunks - 1) / chunks;
            pool.run(chunks, [&](std::size_t c) {
                partial[c] = relaxRange(x, d, latest, fringe, c * chunk, std::min(size, (c + 1) * chunk));
            });
            for (std::size_t c = 0; c < chunks; ++c)
                if (better(partial[c], best)) best = partial[c];
        }
        edges.push_back(MstEdge{fringe.parent[best.position], best.vertex, best.w});
        latest = best.vertex;
        fringe.remove(best.position);
        if (control) {
            control->checkCancelled();
            if ((step & 255) == 0) cpu::reportQuadraticProgress(control, step, n - 1);
        }
    }
    return edges;
}

} // namespace

std::vector<MstEdge> minimumSpanningTreeCpu(const float* x, std::size_t n, std::size_t d, JobControl* control,
                                            std::size_t start) {
    return primImpl(x, n, d, control, start);
}

std::vector<MstEdge> minimumSpanningTreeCpu(const double* x, std::size_t n, std::size_t d, JobControl* control,
                                            std::size_t start) {
    return primImpl(x, n, d, control, start);
}

Linkage singleLinkageFromMst(std::vector<MstEdge> edges, std::size_t n) {
    if (n < 2) throw InvalidInput("single linkage needs at least 2 points, got " + std::to_string(n));
    if (edges.size() != n - 1)
        throw InvalidInput("single linkage of " + std::to_string(n) + " points needs " + std::to_string(n - 1) +
                           " tree edges, got " + std::to_string(edges.size()));
    std::vector<cpu::RawMerge> merges;
    merges.reserve(edges.size());
    const auto leaves = static_cast<std::int64_t>(n);
    for (const MstEdge& e : edges) {
        if (e.u < 0 || e.v < 0 || e.u >= leaves || e.v >= leaves)
            throw InvalidInput("a spanning tree edge names a point outside 0.." + std::to_string(n - 1));
        merges.push_back(cpu::RawMerge{e.u, e.v, e.w});
    }
    return cpu::labelMergesSortedByHeight(std::move(merges), n);
}

} // namespace clusterlens
