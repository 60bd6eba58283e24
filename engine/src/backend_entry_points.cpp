// The algorithm entry points that choose between the CPU and the CUDA implementation (backend.hpp):
// every choice and every GPU fault goes through detail::runOnBackend.

#include <string>

#include "backend_dispatch.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/cluster/density_peaks_cuda.hpp"
#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/cluster/kmeans_cuda.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/vat/vat.hpp"
#include "clusterlens/vat/vat_cuda.hpp"

namespace clusterlens {

Computed<DensityPeaksResult> densityPeaks(const float* x, std::size_t n, std::size_t d,
                                          const DensityPeaksOptions& options, Backend backend, JobControl* control) {
    if (options.index == SpatialIndex::Grid || options.index == SpatialIndex::Tree) {
        if (backend == Backend::Cuda)
            throw InvalidInput(std::string("--index ") + (options.index == SpatialIndex::Grid ? "grid" : "tree") +
                               " runs on the CPU; add --backend cpu (the GPU passes are all-pairs)");
        backend = Backend::Cpu;
    }
    return detail::computeOn<DensityPeaksResult>(
        "density peaks", backend, control, [&] { return densityPeaksCpu(x, n, d, options, control); },
        [&] { return densityPeaksCuda(x, n, d, options, control); });
}

Computed<std::vector<std::int32_t>> applyHalo(const float* x, std::size_t n, std::size_t d,
                                              const DensityPeaksResult& result, const std::vector<std::int32_t>& labels,
                                              double dc, Backend backend, JobControl* control,
                                              const std::vector<int>& cudaDevices) {
    return detail::computeOn<std::vector<std::int32_t>>(
        "halo", backend, control, [&] { return applyHaloCpu(x, n, d, result, labels, dc, control); },
        [&] { return applyHaloCuda(x, n, d, result, labels, dc, control, cudaDevices); });
}

Computed<KMeansResult> kmeans(const float* x, std::size_t n, std::size_t d, const KMeansOptions& options,
                              Backend backend, JobControl* control) {
    return detail::computeOn<KMeansResult>(
        "k-means", backend, control, [&] { return kmeansCpu(x, n, d, options, control); },
        [&] { return kmeansCuda(x, n, d, options, control); });
}

Computed<std::vector<MstEdge>> minimumSpanningTree(const float* x, std::size_t n, std::size_t d, Metric metric,
                                                   Backend backend, JobControl* control, std::size_t start) {
    return detail::computeOn<std::vector<MstEdge>>(
        "minimum spanning tree", backend, control,
        [&] { return minimumSpanningTreeCpu(x, n, d, metric, control, start); },
        [&] { return minimumSpanningTreeCuda(x, n, d, metric, control, start); });
}

}  // namespace clusterlens
