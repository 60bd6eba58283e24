// k-means benchmark cases: cytometry-like data, k = 20 (CPU and GPU), and the a-priori groups' shape
// k = 1000 at 1M x 39 (GPU, a fixed number of Lloyd iterations so that runs compare per iteration).

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

/// k clusters, seed 1; `iterations` Lloyd steps exactly (tolerance 0 and a cap), or the defaults when 0.
clusterlens::KMeansOptions options(std::size_t k, std::size_t iterations) {
    clusterlens::KMeansOptions o;
    o.k = k;
    o.seed = 1;
    if (iterations > 0) {
        o.maxIterations = iterations;
        o.tolerance = 0.0;
    }
    return o;
}

void addCase(Registry& registry, std::size_t n, std::size_t d, std::size_t k, std::size_t iterations, bool cpu) {
    std::string workload = "kmeans k=" + std::to_string(k) + " " + shortCount(n) + "x" + std::to_string(d);
    if (iterations > 0) workload += " " + std::to_string(iterations) + " iterations";
    auto prepare = [n, d] { cytometryData(n, d); };
    if (cpu) {
        registry.add(BenchCase{workload, "cpu", n, d,
                               [n, d, k, iterations] {
                                   const clusterlens::Dataset& data = cytometryData(n, d);
                                   clusterlens::kmeansCpu(data.values.data(), n, d, options(k, iterations));
                               },
                               prepare, 0, 3});
    }
#ifdef CLUSTERLENS_HAVE_CUDA
    registry.add(BenchCase{workload, "cuda", n, d,
                           [n, d, k, iterations] {
                               const clusterlens::Dataset& data = cytometryData(n, d);
                               clusterlens::kmeansCuda(data.values.data(), n, d, options(k, iterations));
                           },
                           prepare, 1, 0});
#endif
}

const clusterlens::bench::Registrar registrar([](Registry& registry) {
    addCase(registry, 44000, 14, 20, 0, true);
    addCase(registry, 1000000, 14, 20, 0, false);
    addCase(registry, 1000000, 39, 1000, 20, false);
});

}  // namespace
