// The Euclidean GPU minimum spanning tree of single linkage: the VAT engine's exact tree
// (vat_boruvka.cu: Borůvka rounds on cached k-NN lists, pruned tiled scans) in Prim's order.

#include "clusterlens/hca/minimum_spanning_tree_cuda.hpp"
#include "clusterlens/vat/vat_cuda.hpp"

namespace clusterlens {

std::vector<MstEdge> minimumSpanningTreeCuda(const float* x, std::size_t n, std::size_t d, JobControl* control,
                                             std::size_t start) {
    return minimumSpanningTreeCuda(x, n, d, Metric::Euclidean, control, start);
}

}  // namespace clusterlens
