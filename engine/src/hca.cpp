#include "clusterlens/hca/hca.hpp"

#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/errors.hpp"
#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/kmeans_cuda.hpp"
#include "clusterlens/hca/classic_linkage_cuda.hpp"
#include "clusterlens/hca/mhca_cuda.hpp"
#endif

namespace clusterlens {
namespace {

std::vector<std::int32_t> kmeansGroups(const Dataset& data, std::size_t k, std::uint64_t seed, Backend backend,
                                       JobControl* control) {
    KMeansOptions options;
    options.k = k;
    options.seed = seed;
#ifdef CLUSTERLENS_HAVE_CUDA
    if (backend == Backend::Cuda) return kmeansCuda(data.values.data(), data.n, data.d, options, control).labels;
#endif
    (void)backend;
    return kmeansCpu(data.values.data(), data.n, data.d, options, control).labels;
}

} // namespace

Backend hcaBackend(const HcaRequest& request, Backend backend) {
    if (backend != Backend::Cuda || request.mahalanobis) return backend;
    const LinkageMethod m = request.method;
    return m == LinkageMethod::Single || m == LinkageMethod::Centroid || m == LinkageMethod::Ward ? Backend::Cuda : Backend::Cpu;
}

Linkage runHca(const Dataset& data, const HcaRequest& request, Backend backend, JobControl* control) {
    if (backend == Backend::Auto) throw InvalidInput("runHca: backend must be resolved");
    if (!request.mahalanobis) {
#ifdef CLUSTERLENS_HAVE_CUDA
        if (hcaBackend(request, backend) == Backend::Cuda)
            return classicLinkageCuda(data.values.data(), data.n, data.d, request.method, control);
#endif
        // Double input so that results equal scipy's on the file's exact values.
        const std::vector<double> x = data.valuesAsDouble();
        return classicLinkageCpu(x.data(), data.n, data.d, request.method, control);
    }
    MhcaOptions options = request.mhca;
    if (request.aprioriKMeans > 0) {
        if (!options.apriori.empty()) throw InvalidInput("--apriori and --apriori-kmeans cannot be combined");
        if (request.aprioriKMeans > data.n)
            throw InvalidInput("--apriori-kmeans: K = " + std::to_string(request.aprioriKMeans) + " exceeds the " +
                               std::to_string(data.n) + " points");
        // mhca reads group id 0 as "no group": k-means clusters 0..K-1 become groups 1..K.
        options.apriori = kmeansGroups(data, request.aprioriKMeans, request.seed, backend, control);
        for (std::int32_t& g : options.apriori) ++g;
    }
    const std::vector<double> x = data.valuesAsDouble();
#ifdef CLUSTERLENS_HAVE_CUDA
    if (backend == Backend::Cuda) return mhcaCuda(x.data(), data.n, data.d, options, control);
#endif
    return mhcaCpu(x.data(), data.n, data.d, options, control);
}

} // namespace clusterlens
