// The CUDA implementations in a build without CUDA: the backend choice never selects them here
// (cudaAvailable() is false), so they exist only to let the entry points name both implementations
// without a preprocessor switch. Each throws if reached.

#include "clusterlens/cluster/density_peaks_cuda.hpp"
#include "clusterlens/cluster/kmeans_cuda.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/classic_linkage_cuda.hpp"
#include "clusterlens/hca/mhca_cuda.hpp"
#include "clusterlens/vat/vat_cuda.hpp"

namespace clusterlens {
namespace {

[[noreturn]] void noCuda() {
    throw CudaError("this build of ClusterLens has no CUDA support");
}

}  // namespace

DensityPeaksResult densityPeaksCuda(const float*, std::size_t, std::size_t, const DensityPeaksOptions&, JobControl*) {
    noCuda();
}

std::vector<std::int32_t> applyHaloCuda(const float*, std::size_t, std::size_t, const DensityPeaksResult&,
                                        const std::vector<std::int32_t>&, double, JobControl*,
                                        const std::vector<int>&) {
    noCuda();
}

KMeansResult kmeansCuda(const float*, std::size_t, std::size_t, const KMeansOptions&, JobControl*, KMeansAssignment) {
    noCuda();
}

Linkage classicLinkageCuda(const float*, std::size_t, std::size_t, LinkageMethod, JobControl*) {
    noCuda();
}

Linkage mhcaCuda(const double*, std::size_t, std::size_t, const MhcaOptions&, JobControl*) {
    noCuda();
}

std::vector<MstEdge> minimumSpanningTreeCuda(const float*, std::size_t, std::size_t, Metric, JobControl*, std::size_t) {
    noCuda();
}

std::pair<std::size_t, std::vector<MstEdge>> vatTreeCuda(const float*, std::size_t, std::size_t, Metric, JobControl*,
                                                         std::string*) {
    noCuda();
}

struct VatDeviceRenderer::Impl {};

VatDeviceRenderer::VatDeviceRenderer(const VatRenderSource&) {
    noCuda();
}
VatDeviceRenderer::~VatDeviceRenderer() = default;
void VatDeviceRenderer::renderToDevice(const VatViewport&, float*) {
    noCuda();
}
void VatDeviceRenderer::renderToHost(const VatViewport&, float*) {
    noCuda();
}
double VatDeviceRenderer::lastKernelMilliseconds() const {
    return 0.0;
}
std::size_t VatDeviceRenderer::deviceBytes() const {
    return 0;
}

}  // namespace clusterlens
