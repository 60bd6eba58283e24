// Minimum spanning tree and classic linkage benchmark cases (44K x 14 cytometry-like, CPU and GPU;
// a larger GPU-only MST).

#include "bench_registry.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/hca/classic_linkage_cuda.hpp"
#include "clusterlens/hca/minimum_spanning_tree_cuda.hpp"
#endif

namespace {

using clusterlens::LinkageMethod;
using clusterlens::bench::BenchCase;
using clusterlens::bench::cytometryData;
using clusterlens::bench::Registry;
using clusterlens::bench::shortCount;

std::string shape(std::size_t n, std::size_t d) {
    return shortCount(n) + "x" + std::to_string(d);
}

void addMst(Registry& registry, std::size_t n, std::size_t d, bool cpu) {
    const std::string workload = "mst " + shape(n, d);
    auto prepare = [n, d] { cytometryData(n, d); };
    if (cpu) {
        registry.add(BenchCase{workload, "cpu", n, d,
                               [n, d] { clusterlens::minimumSpanningTreeCpu(cytometryData(n, d).values.data(), n, d); },
                               prepare, 0, 1});
    }
#ifdef CLUSTERLENS_HAVE_CUDA
    registry.add(BenchCase{workload, "cuda", n, d,
                           [n, d] { clusterlens::minimumSpanningTreeCuda(cytometryData(n, d).values.data(), n, d); },
                           prepare, 1, 0});
#endif
}

void addLinkage(Registry& registry, LinkageMethod method, std::size_t n, std::size_t d) {
    const std::string workload = clusterlens::linkageMethodName(method) + " " + shape(n, d);
    auto prepare = [n, d] { cytometryData(n, d); };
    registry.add(
        BenchCase{workload, "cpu", n, d,
                  [n, d, method] { clusterlens::classicLinkageCpu(cytometryData(n, d).values.data(), n, d, method); },
                  prepare, 0, 1});
#ifdef CLUSTERLENS_HAVE_CUDA
    registry.add(
        BenchCase{workload, "cuda", n, d,
                  [n, d, method] { clusterlens::classicLinkageCuda(cytometryData(n, d).values.data(), n, d, method); },
                  prepare, 1, 0});
#endif
}

const clusterlens::bench::Registrar registrar([](Registry& registry) {
    addMst(registry, 44000, 14, true);
    addMst(registry, 200000, 14, false);
    addLinkage(registry, LinkageMethod::Single, 44000, 14);
    addLinkage(registry, LinkageMethod::Ward, 44000, 14);
    addLinkage(registry, LinkageMethod::Centroid, 44000, 14);
});

}  // namespace
