// MHCA benchmark cases (DESIGN.md performance targets): the centroid variant (CMD) at 44K x 14,
// 200K x 14, 1M x 14 and 841K x 39 and the full variant (FMD) at 44K x 14 on the GPU, threshold 0.5, mahal
// sub-threshold mode, on the cached cytometry-like data (12 populations + 3 % noise, seed 1).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "bench_registry.hpp"
#include "clusterlens/backend.hpp"
#include "clusterlens/hca/mhca.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/kmeans_cuda.hpp"
#include "clusterlens/hca/mhca_cuda.hpp"
#include "clusterlens/hca/mhca_probe.hpp"
#endif

namespace clusterlens::bench {

#ifdef CLUSTERLENS_HAVE_CUDA
namespace {

/// The cytometry-like points in double precision (MHCA's input), converted once per shape.
const std::vector<double>& doubleData(std::size_t n, std::size_t d) {
    static std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> cache;
    auto it = cache.find({n, d});
    if (it == cache.end()) it = cache.emplace(std::make_pair(n, d), cytometryData(n, d).valuesAsDouble()).first;
    return it->second;
}

MhcaOptions mhcaOptions(MhcaVariant variant) {
    MhcaOptions options;
    options.variant = variant;
    options.threshold = 0.5;
    options.subthreshold = SubthresholdMode::Mahal;
    return options;
}

/// mhcaCuda, with --profile through a probe whose report goes to stderr.
void runMhca(const std::string& workload, std::size_t n, std::size_t d, MhcaOptions options) {
    MhcaProbe probe;
    if (Registry::instance().profile()) options.probe = &probe;
    mhcaCuda(doubleData(n, d).data(), n, d, options);
    if (options.probe)
        std::fprintf(stderr,
                     "\n[mhca probe] %s: %zu merges, %zu persistent launches, %zu switch steps, %zu key shifts\n%s",
                     workload.c_str(), probe.merges, probe.persistentLaunches, probe.switchSteps, probe.keyShifts,
                     probe.report.c_str());
}

/// Apriori groups from GPU k-means (K groups, seed 1) as MHCA group ids 1..K (0 means "no group").
const std::vector<std::int32_t>& kmeansGroups(std::size_t n, std::size_t d, std::size_t k) {
    static std::map<std::pair<std::size_t, std::size_t>, std::vector<std::int32_t>> cache;
    auto it = cache.find({n, d});
    if (it == cache.end()) {
        KMeansOptions options;
        options.k = k;
        options.seed = 1;
        options.maxIterations = 100;
        std::vector<std::int32_t> groups = kmeansCuda(cytometryData(n, d).values.data(), n, d, options).labels;
        for (std::int32_t& g : groups) ++g;
        it = cache.emplace(std::make_pair(n, d), std::move(groups)).first;
    }
    return it->second;
}

/// MHCA CMD with 1000 k-means apriori groups (the 1M x 20 case, and 1M x 39 for peak memory);
/// 1M x 20 also with the groups spread over 2 and 4 GPUs (skipped on a machine with fewer).
void addAprioriCases(Registry& registry) {
    for (const int gpus : {1, 2, 4, 0}) {  // (0: 1M x 39 on one GPU)
        const std::size_t n = 1000000, k = 1000, d = gpus == 0 ? 39 : 20;
        const std::string name = "mhca cmd apriori kmeans1000 " + shortCount(n) + "x" + std::to_string(d) +
                                 (gpus > 1 ? ", " + std::to_string(gpus) + " GPUs" : "");
        registry.add(BenchCase{name, "cuda", n, d,
                               [name, n, d, k, gpus] {
                                   MhcaOptions options = mhcaOptions(MhcaVariant::Centroid);
                                   options.apriori = kmeansGroups(n, d, k);
                                   if (gpus > 1) options.cudaDevices = parseGpus(std::to_string(gpus));
                                   runMhca(name, n, d, options);
                               },
                               [n, d, k] {
                                   doubleData(n, d);
                                   kmeansGroups(n, d, k);
                               },
                               gpus == 0 ? 0 : 1, gpus == 0 ? 1 : 3,  // (1M x 20: a warm-up, the median of 3)
                               std::max(gpus, 1)});
    }
}

}  // namespace
#endif

/// Registers the MHCA cases (GPU only: the CPU reference needs hours at these sizes).
void benchMhca(Registry& registry) {
#ifdef CLUSTERLENS_HAVE_CUDA
    struct Shape {
        MhcaVariant variant;
        std::size_t n;
        std::size_t d;
        int warmUp;
        int maxRepeat;
    };
    // The large cases run after the 44K one has loaded the module; each is timed once. 1M x 14 is the
    // thesis-scale target without a-priori groups, 841K x 39 the shape of its largest set (Samusik),
    // FMD 200K x 14 the full variant's twin (minutes today: run them alone with --filter).
    const Shape shapes[] = {{MhcaVariant::Centroid, 44000, 14, 1, 0},  {MhcaVariant::Centroid, 200000, 14, 0, 1},
                            {MhcaVariant::Full, 44000, 14, 1, 2},      {MhcaVariant::Centroid, 1000000, 14, 0, 1},
                            {MhcaVariant::Centroid, 841000, 39, 0, 1}, {MhcaVariant::Full, 200000, 14, 0, 1}};
    for (const Shape& shape : shapes) {
        const std::size_t n = shape.n, d = shape.d;
        const MhcaVariant variant = shape.variant;
        const std::string name = std::string("mhca ") + (variant == MhcaVariant::Full ? "fmd " : "cmd ") +
                                 shortCount(n) + "x" + std::to_string(d);
        registry.add(BenchCase{name, "cuda", n, d, [name, n, d, variant] { runMhca(name, n, d, mhcaOptions(variant)); },
                               [n, d] { doubleData(n, d); }, shape.warmUp, shape.maxRepeat});
    }
    addAprioriCases(registry);
#else
    (void)registry;
#endif
}

namespace {
const Registrar registrar([](Registry& registry) { benchMhca(registry); });
}  // namespace

}  // namespace clusterlens::bench
