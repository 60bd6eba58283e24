// Nearest-neighbour chain for the reducible linkages complete, average, weighted and ward.

#include <algorithm>

#include "clusterlens/errors.hpp"
#include "cpu/classic_linkage_detail.hpp"

namespace clusterlens::cpu {

namespace {

// Lance–Williams update of column y after x and y merged into slot y: for every active slot i in
// positions [begin, end) other than y, D(i, y) = Update(D(i, x), D(i, y), D(x, y), |x|, |y|, |i|).
template <class Update>
void updateChainRange(CondensedMatrix& distances, const ActiveClusters& active, const std::vector<double>& sizes,
                      std::uint32_t x, std::uint32_t y, double dxy, double nx, double ny, std::size_t begin,
                      std::size_t end) {
    const std::uint32_t* ids = active.ids();
    for (std::size_t p = begin; p < end; ++p) {
        if (p + kPrefetchAhead < end) {
            distances.prefetch(ids[p + kPrefetchAhead], x);
            distances.prefetch(ids[p + kPrefetchAhead], y);
        }
        const std::uint32_t i = ids[p];
        if (i == y) continue;
        double& diy = distances.at(i, y);
        diy = Update::apply(distances.at(i, x), diy, dxy, nx, ny, sizes[i]);
    }
}

// Nearest-neighbour chain algorithm ("NN-chain-linkage" of Müllner 2011 "Modern hierarchical,
// agglomerative clustering algorithms", after Murtagh 1983; fastcluster's NN_chain_core), with the
// conventions of scipy's _hierarchy.pyx nn_chain so that ties resolve identically:
//   input  the condensed Euclidean distance matrix of n points (overwritten by cluster distances);
//   chain  starts at the lowest active slot; the nearest neighbour of the chain's tip is the lowest
//          slot at minimal distance, except that the previous chain element wins ties;
//   merge  x < y: slot x dies, slot y holds the union; column y gets the Lance–Williams update.
// The merges come out of height order; labelMergesSortedByHeight() finishes as scipy does.
// Time O(N^2) after the matrix (each merge scans O(N) slots a few times), extra memory O(N).
template <class Update>
std::vector<RawMerge> nnChain(CondensedMatrix& distances, ThreadPool& pool, JobControl* control) {
    const std::size_t n = distances.size();
    std::vector<double> sizes(n, 1.0);
    ActiveClusters active(n);
    std::vector<std::uint32_t> chain;
    chain.reserve(n);
    std::vector<RawMerge> merges;
    merges.reserve(n - 1);
    for (std::size_t k = 0; k + 1 < n; ++k) {
        if (chain.empty()) chain.push_back(active.front());
        std::uint32_t x = 0;
        std::uint32_t y = 0;
        double dxy = 0.0;
        for (;;) {
            x = chain.back();
            const RowMinimum nearest = rowMinimum(distances, x, active, 0, active.size(), pool);
            if (chain.size() > 1) {
                const std::uint32_t previous = chain[chain.size() - 2];
                const double toPrevious = distances.at(x, previous);
                if (!(nearest.value < toPrevious)) {
                    y = previous;
                    dxy = toPrevious;
                    break;
                }
            }
            if (nearest.slot == RowMinimum::kNoSlot)
                throw InvalidInput("hierarchical clustering: no finite distance left between clusters");
            chain.push_back(nearest.slot);
        }
        chain.pop_back();
        chain.pop_back();
        if (x > y) std::swap(x, y);
        merges.push_back(RawMerge{x, y, dxy});
        const double nx = sizes[x];
        const double ny = sizes[y];
        sizes[x] = 0.0;
        sizes[y] = nx + ny;
        active.remove(x);
        const std::size_t count = active.size();
        if (count < kParallelScanLength || pool.size() == 1) {
            updateChainRange<Update>(distances, active, sizes, x, y, dxy, nx, ny, 0, count);
        } else {
            parallelFor(pool, count, kParallelScanLength / 4, [&](std::size_t begin, std::size_t end) {
                updateChainRange<Update>(distances, active, sizes, x, y, dxy, nx, ny, begin, end);
            });
        }
        if (control) {
            control->checkCancelled();
            if ((k & 63) == 0) reportQuadraticProgress(control, k, n - 1);
        }
    }
    return merges;
}

}  // namespace

Linkage nnChainLinkage(CondensedMatrix& distances, LinkageMethod method, ThreadPool& pool, JobControl* control) {
    std::vector<RawMerge> merges;
    switch (method) {
        case LinkageMethod::Complete:
            merges = nnChain<CompleteUpdate>(distances, pool, control);
            break;
        case LinkageMethod::Average:
            merges = nnChain<AverageUpdate>(distances, pool, control);
            break;
        case LinkageMethod::Weighted:
            merges = nnChain<WeightedUpdate>(distances, pool, control);
            break;
        case LinkageMethod::Ward:
            merges = nnChain<WardUpdate>(distances, pool, control);
            break;
        default:
            throw InvalidInput("--linkage " + linkageMethodName(method) + " is not a nearest-neighbour chain method");
    }
    return labelMergesSortedByHeight(std::move(merges), distances.size());
}

}  // namespace clusterlens::cpu
