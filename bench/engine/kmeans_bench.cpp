// k-means benchmark cases: cytometry-like data, k = 20, CPU and GPU.

#include "bench_registry.hpp"
#include "clusterlens/cluster/kmeans.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/kmeans_cuda.hpp"
#endif

namespace {

using clusterlens::bench::BenchCase;
using clusterlens::bench::cytometryData;
using clusterlens::bench::Registry;
using clusterlens::bench::shortCount;

constexpr std::size_t kClusters = 20;

clusterlens::KMeansOptions options() {
    clusterlens::KMeansOptions o;
    o.k = kClusters;
    o.seed = 1;
    return o;
}

void addCase(Registry& registry, std::size_t n, std::size_t d, bool cpu) {
    const std::string workload = "kmeans k=20 " + shortCount(n) + "x" + std::to_string(d);
    auto prepare = [n, d] { cytometryData(n, d); };
    if (cpu) {
        registry.add(BenchCase{workload, "cpu", n, d,
                               [n, d] {
                                   const clusterlens::Dataset& data = cytometryData(n, d);
                                   clusterlens::kmeansCpu(data.values.data(), n, d, options());
                               },
                               prepare, 0, 3});
    }
#ifdef CLUSTERLENS_HAVE_CUDA
    registry.add(BenchCase{workload, "cuda", n, d,
                           [n, d] {
                               const clusterlens::Dataset& data = cytometryData(n, d);
                               clusterlens::kmeansCuda(data.values.data(), n, d, options());
                           },
                           prepare, 1, 0});
#endif
}

const clusterlens::bench::Registrar registrar([](Registry& registry) {
    addCase(registry, 44000, 14, true);
    addCase(registry, 1000000, 14, false);
});

}  // namespace
