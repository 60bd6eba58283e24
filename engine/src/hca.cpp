#include "clusterlens/hca/hca.hpp"

#include <cstdio>
#include <string>

#include "backend_dispatch.hpp"
#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/cluster/kmeans_cuda.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/classic_linkage_cuda.hpp"
#include "clusterlens/hca/hca_result_name.hpp"
#include "clusterlens/hca/mhca_cuda.hpp"

namespace clusterlens {
namespace {

bool classicOnGpu(LinkageMethod m) {
    return m == LinkageMethod::Single || m == LinkageMethod::Centroid || m == LinkageMethod::Ward;
}

Computed<Linkage> classicLinkage(const Dataset& data, LinkageMethod method, Backend backend, JobControl* control) {
    return detail::computeOn<Linkage>(
        linkageMethodName(method) + " linkage", classicOnGpu(method) ? backend : Backend::Cpu, control,
        [&] {
            // Double input so that results equal scipy's on the file's exact values.
            const std::vector<double> x = data.valuesAsDouble();
            return classicLinkageCpu(x.data(), data.n, data.d, method, control);
        },
        [&] { return classicLinkageCuda(data.values.data(), data.n, data.d, method, control); });
}

/// The options with apriori groups from k-means when asked for: mhca reads group id 0 as "no
/// group", so k-means clusters 0..K-1 become groups 1..K.
MhcaOptions withKMeansGroups(const Dataset& data, const HcaRequest& request, bool onGpu, JobControl* control) {
    MhcaOptions options = request.mhca;
    if (request.aprioriKMeans == 0) return options;
    KMeansOptions kmeansOptions;
    kmeansOptions.k = request.aprioriKMeans;
    kmeansOptions.seed = request.seed;
    kmeansOptions.cudaDevices = request.mhca.cudaDevices;  // (the groups' GPUs find the groups too)
    options.apriori = onGpu ? kmeansCuda(data.values.data(), data.n, data.d, kmeansOptions, control).labels
                            : kmeansCpu(data.values.data(), data.n, data.d, kmeansOptions, control).labels;
    for (std::int32_t& g : options.apriori) ++g;
    return options;
}

}  // namespace

Computed<Linkage> clusterHierarchically(const Dataset& data, const HcaRequest& request, Backend backend,
                                        JobControl* control) {
    if (!request.mahalanobis) return classicLinkage(data, request.method, backend, control);
    if (request.aprioriKMeans > 0) {
        if (!request.mhca.apriori.empty()) throw InvalidInput("--apriori and --apriori-kmeans cannot be combined");
        if (request.aprioriKMeans > data.n)
            throw InvalidInput("--apriori-kmeans: K = " + std::to_string(request.aprioriKMeans) + " exceeds the " +
                               std::to_string(data.n) + " points");
    }
    const std::vector<double> x = data.valuesAsDouble();
    return detail::computeOn<Linkage>(
        "MHCA", backend, control,
        [&] { return mhcaCpu(x.data(), data.n, data.d, withKMeansGroups(data, request, false, control), control); },
        [&] { return mhcaCuda(x.data(), data.n, data.d, withKMeansGroups(data, request, true, control), control); });
}

std::string hcaResultName(const HcaRequest& request) {
    if (!request.mahalanobis) return linkageMethodName(request.method) + std::string(" linkage");
    char threshold[32];
    std::snprintf(threshold, sizeof threshold, "%g", request.mhca.threshold);
    return "MHCA " + std::string(mhcaVariantName(request.mhca.variant)) + " t=" + threshold;
}

}  // namespace clusterlens
