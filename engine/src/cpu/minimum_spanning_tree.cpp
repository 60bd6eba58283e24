// Dense Prim minimum spanning tree without a distance matrix, under the Euclidean distance (single
// linkage) or any VAT metric, and single linkage from its edges.

#include <limits>
#include <string>
#include <type_traits>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "clusterlens/vat/vat.hpp"
#include "cpu/classic_linkage_detail.hpp"
#include "cpu/tree_mst.hpp"
#include "cpu/vat_kernels.hpp"

namespace clusterlens {

namespace {

void checkStart(std::size_t n, std::size_t start) {
    if (start >= n)
        throw InvalidInput("the minimum spanning tree start point " + std::to_string(start) +
                           " is not below the number of points " + std::to_string(n));
    if (n > std::numeric_limits<std::uint32_t>::max() - 1)
        throw InvalidInput("the minimum spanning tree supports at most 4 294 967 294 points");
}

// Prim from `start` under metric M (Euclidean: sqrt of the squared sum, the comparisons of scipy's
// mst_single_linkage).
template <class T>
std::vector<MstEdge> primImpl(const T* x, std::size_t n, std::size_t d, Metric metric, JobControl* control,
                              std::size_t start, MstIndex index = MstIndex::Auto) {
    cpu::checkPoints(x, n, d, 1, "the minimum spanning tree");
    checkStart(n, start);
    if (metric == Metric::Cosine) cpu::checkNoZeroRows(x, n, d, "the minimum spanning tree");
    if constexpr (std::is_same_v<T, float>) {
        if (n > 1 && cpu::usesTreeMst(n, d, metric, index)) {
            const cpu::TreeMstSearch search(x, n, d, metric == Metric::SqEuclidean);
            return cpu::primOrderTree(x, n, d, metric, &search, start, control, 0.0, 1.0);
        }
    }
    const auto source = [&](const std::uint32_t* fringe, std::size_t count) {
        return cpu::PointSource<T>(x, d, metric, fringe, count);
    };
    return cpu::primFromStart(source, n, control, start);
}

}  // namespace

std::vector<MstEdge> minimumSpanningTreeCpu(const float* x, std::size_t n, std::size_t d, JobControl* control,
                                            std::size_t start) {
    return primImpl(x, n, d, Metric::Euclidean, control, start);
}

std::vector<MstEdge> minimumSpanningTreeCpu(const double* x, std::size_t n, std::size_t d, JobControl* control,
                                            std::size_t start) {
    return primImpl(x, n, d, Metric::Euclidean, control, start);
}

std::vector<MstEdge> minimumSpanningTreeCpu(const float* x, std::size_t n, std::size_t d, Metric metric,
                                            JobControl* control, std::size_t start) {
    return primImpl(x, n, d, metric, control, start);
}

std::vector<MstEdge> minimumSpanningTreeCpu(const float* x, std::size_t n, std::size_t d, Metric metric, MstIndex index,
                                            JobControl* control, std::size_t start) {
    return primImpl(x, n, d, metric, control, start, index);
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

}  // namespace clusterlens
