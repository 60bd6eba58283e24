// GPU faults met by the algorithm entry points, injected through fault_injection::ScopedGpuFault so that they
// run on machines without a GPU: under Backend::Auto an out-of-memory GPU falls back to the CPU with a
// warning that names the memory, under Backend::Cuda it is InvalidInput; a sticky error (a lost CUDA
// context) turns CUDA off for the rest of the process and the work goes on on the CPU.

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/hca.hpp"
#include "clusterlens/synthetic.hpp"
#include "clusterlens/testing/gpu_fault.hpp"
#include "clusterlens/vat/vat.hpp"
#include "clusterlens/vat/vat_viewport_renderer.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using fault_injection::GpuFault;
using fault_injection::ScopedGpuFault;

namespace {

constexpr std::size_t kGiB = std::size_t{1} << 30;

Dataset smallData() {
    SyntheticOptions o;
    o.n = 300;
    o.d = 3;
    o.clusters = 3;
    o.seed = 7;
    return makeCytometryLike(o);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// Every algorithm entry point, run on `backend`: the backend that ran and its warnings.
struct EntryPoint {
    std::string name;
    std::function<std::pair<Backend, std::vector<std::string>>(const Dataset&, Backend)> run;
};

std::vector<EntryPoint> entryPoints() {
    const auto vat = [](const Dataset& data, Backend backend) {
        VatOptions options;
        options.backend = backend;
        const VatResult r = computeVat(data.values.data(), data.n, data.d, options);
        return std::make_pair(r.backend.rfind("cuda:", 0) == 0 ? Backend::Cuda : Backend::Cpu, r.warnings);
    };
    const auto pair = [](const auto& computed) { return std::make_pair(computed.backend, computed.warnings); };
    return {
        {"density peaks",
         [=](const Dataset& data, Backend backend) {
             return pair(densityPeaks(data.values.data(), data.n, data.d, DensityPeaksOptions{}, backend));
         }},
        {"halo",
         [=](const Dataset& data, Backend backend) {
             const DensityPeaksResult r =
                 densityPeaks(data.values.data(), data.n, data.d, DensityPeaksOptions{}, Backend::Cpu).result;
             const std::vector<std::int32_t> labels = assignFromPeaks(r, peaksTopK(r, 3));
             return pair(applyHalo(data.values.data(), data.n, data.d, r, labels, r.dc.value, backend));
         }},
        {"k-means",
         [=](const Dataset& data, Backend backend) {
             KMeansOptions options;
             options.k = 3;
             return pair(kmeans(data.values.data(), data.n, data.d, options, backend));
         }},
        {"minimum spanning tree",
         [=](const Dataset& data, Backend backend) {
             return pair(minimumSpanningTree(data.values.data(), data.n, data.d, Metric::Euclidean, backend));
         }},
        {"VAT", vat},
        {"MHCA", [=](const Dataset& data,
                     Backend backend) { return pair(clusterHierarchically(data, HcaRequest{}, backend)); }},
        {"ward linkage",
         [=](const Dataset& data, Backend backend) {
             HcaRequest request;
             request.mahalanobis = false;
             request.method = LinkageMethod::Ward;
             return pair(clusterHierarchically(data, request, backend));
         }},
        {"VAT rendering",
         [=](const Dataset& data, Backend backend) {
             VatOptions options;
             options.backend = Backend::Cpu;
             const VatResult r = computeVat(data.values.data(), data.n, data.d, options);
             const VatViewportRenderer renderer(
                 std::make_shared<const VatRenderSource>(makeVatRenderSource(r, data.values.data(), data.d)), backend);
             return std::make_pair(renderer.backend(), renderer.warnings());
         }},
    };
}

}  // namespace

TEST(GpuFault, OutOfMemoryUnderAutoRunsEveryAlgorithmOnTheCpuWithAWarningNamingTheMemory) {
    const Dataset data = smallData();
    const ScopedGpuFault fault(GpuFault::OutOfMemory, 3 * kGiB, kGiB);
    ASSERT_TRUE(cudaAvailable());
    for (const EntryPoint& entry : entryPoints()) {
        SCOPED_TRACE(entry.name);
        const auto [backend, warnings] = entry.run(data, Backend::Auto);
        EXPECT_EQ(backend, Backend::Cpu);
        ASSERT_EQ(warnings.size(), 1u);
        EXPECT_EQ(warnings[0], entry.name + ": GPU out of memory (needs 3.0 GiB, 1.0 GiB free): ran on the CPU");
    }
    EXPECT_TRUE(cudaAvailable()) << "running out of memory leaves CUDA usable for smaller work";
}

TEST(GpuFault, OutOfMemoryFallbackGivesTheCpuResultAndTellsTheJob) {
    const Dataset data = smallData();
    const DensityPeaksResult cpu =
        densityPeaks(data.values.data(), data.n, data.d, DensityPeaksOptions{}, Backend::Cpu).result;
    const ScopedGpuFault fault(GpuFault::OutOfMemory, kGiB / 2, kGiB / 4);
    JobControl control;
    const Computed<DensityPeaksResult> r =
        densityPeaks(data.values.data(), data.n, data.d, DensityPeaksOptions{}, Backend::Auto, &control);
    EXPECT_EQ(r.result.rho, cpu.rho);
    EXPECT_EQ(r.result.nearestHigher, cpu.nearestHigher);
    ASSERT_EQ(control.warnings().size(), 1u);
    EXPECT_EQ(control.warnings()[0], "density peaks: GPU out of memory (needs 512 MiB, 256 MiB free): ran on the CPU");
}

TEST(GpuFault, OutOfMemoryUnderCudaIsInvalidInputNamingTheMemoryNeeded) {
    const Dataset data = smallData();
    const ScopedGpuFault fault(GpuFault::OutOfMemory, 3 * kGiB, kGiB);
    for (const EntryPoint& entry : entryPoints()) {
        SCOPED_TRACE(entry.name);
        try {
            entry.run(data, Backend::Cuda);
            ADD_FAILURE() << "no error";
        } catch (const InvalidInput& e) {
            EXPECT_TRUE(contains(e.what(), entry.name + " needs 3.0 GiB of GPU memory, 1.0 GiB are free")) << e.what();
            // The way out: the CPU always, and what fits more events into the GPU where there is such a thing.
            EXPECT_TRUE(contains(e.what(), "run it on the CPU (--backend cpu")) << e.what();
            if (entry.name == "MHCA") {
                EXPECT_TRUE(contains(e.what(), "--apriori-kmeans K")) << e.what();
            }
            if (entry.name == "VAT" || entry.name == "minimum spanning tree") {
                EXPECT_TRUE(contains(e.what(), "vat --sample N")) << e.what();
            }
        }
    }
}

TEST(GpuFault, LostContextUnderAutoTurnsCudaOffAndTheWorkGoesOnOnTheCpu) {
    const Dataset data = smallData();
    const ScopedGpuFault fault(GpuFault::ContextLost);
    ASSERT_TRUE(cudaAvailable());
    KMeansOptions options;
    options.k = 3;
    const Computed<KMeansResult> first = kmeans(data.values.data(), data.n, data.d, options, Backend::Auto);
    EXPECT_EQ(first.backend, Backend::Cpu);
    ASSERT_EQ(first.warnings.size(), 1u);
    EXPECT_TRUE(contains(first.warnings[0], "k-means: the GPU failed (")) << first.warnings[0];
    EXPECT_TRUE(contains(first.warnings[0], "CUDA stays off until ClusterLens restarts: ran on the CPU"));
    EXPECT_EQ(first.result.labels, kmeansCpu(data.values.data(), data.n, data.d, options).labels);

    EXPECT_FALSE(cudaAvailable());
    EXPECT_TRUE(contains(cudaUnusableReason(), "cudaErrorIllegalAddress"));
    EXPECT_EQ(resolveBackend(Backend::Auto), Backend::Cpu);
    EXPECT_THROW(resolveBackend(Backend::Cuda), InvalidInput);
    // Later work under Auto no longer tries the GPU, so it has nothing to warn about.
    const Computed<DensityPeaksResult> later =
        densityPeaks(data.values.data(), data.n, data.d, DensityPeaksOptions{}, Backend::Auto);
    EXPECT_EQ(later.backend, Backend::Cpu);
    EXPECT_TRUE(later.warnings.empty());
}

TEST(GpuFault, LostContextUnderCudaIsACudaErrorAndTurnsCudaOff) {
    const Dataset data = smallData();
    const ScopedGpuFault fault(GpuFault::ContextLost);
    try {
        clusterHierarchically(data, HcaRequest{}, Backend::Cuda);
        ADD_FAILURE() << "no error";
    } catch (const CudaError& e) {
        EXPECT_TRUE(e.contextLost());
        EXPECT_TRUE(contains(e.what(), "MHCA: the GPU failed (")) << e.what();
        EXPECT_TRUE(contains(e.what(), "run it again on the CPU")) << e.what();
    }
    EXPECT_FALSE(cudaAvailable());
}

TEST(GpuFault, TheCpuBackendNeverMeetsAGpuFault) {
    const Dataset data = smallData();
    const ScopedGpuFault fault(GpuFault::ContextLost);
    for (const EntryPoint& entry : entryPoints()) {
        SCOPED_TRACE(entry.name);
        const auto [backend, warnings] = entry.run(data, Backend::Cpu);
        EXPECT_EQ(backend, Backend::Cpu);
        EXPECT_TRUE(warnings.empty());
    }
    EXPECT_TRUE(cudaAvailable());
}

TEST(GpuFault, AnInjectedLossEndsWithItsScope) {
    const bool before = cudaAvailable();
    {
        const ScopedGpuFault fault(GpuFault::ContextLost);
        KMeansOptions options;
        options.k = 2;
        const Dataset data = smallData();
        kmeans(data.values.data(), data.n, data.d, options, Backend::Auto);
        ASSERT_FALSE(cudaAvailable());
    }
    EXPECT_EQ(cudaAvailable(), before);
    EXPECT_TRUE(cudaUnusableReason().empty());
}
