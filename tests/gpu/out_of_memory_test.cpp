// A real GPU out of memory: the test takes (almost) all free device memory, or asks for an impossible
// size, and checks what the algorithm entry points do. Under Backend::Auto the work runs on the CPU
// with a warning and CUDA stays usable; under Backend::Cuda the error names the GPU memory needed.

#include <gtest/gtest.h>

#include <cstddef>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/hca.hpp"
#include "clusterlens/synthetic.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include <cuda_runtime.h>
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA

namespace {

/// Holds every byte of device memory that cudaMalloc still hands out (down to 256-byte pieces: the
/// driver serves small allocations from the space left beside larger ones, so a hog of 1 MiB pieces
/// still let a 20,000-point density peaks run) until destroyed, so that the engine's next allocation
/// fails.
class DeviceMemoryHog {
public:
    DeviceMemoryHog() {
        // What the device's memory pool keeps of earlier runs would serve the engine's next request.
        cudaDeviceSynchronize();
        cudaMemPool_t pool = nullptr;
        if (cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess) cudaMemPoolTrimTo(pool, 0);
        for (std::size_t piece = std::size_t{1} << 32; piece >= std::size_t{256};) {
            void* p = nullptr;
            if (cudaMalloc(&p, piece) == cudaSuccess) {
                m_blocks.push_back(p);
                m_bytes += piece;
            } else {
                cudaGetLastError();  // the refusal is expected; leave no error behind
                piece /= 2;
            }
        }
        std::cout << "[out of memory] holding " << static_cast<double>(m_bytes) / (1 << 30) << " GiB\n";
    }
    ~DeviceMemoryHog() {
        for (void* p : m_blocks) cudaFree(p);
    }
    DeviceMemoryHog(const DeviceMemoryHog&) = delete;
    DeviceMemoryHog& operator=(const DeviceMemoryHog&) = delete;

private:
    std::vector<void*> m_blocks;
    std::size_t m_bytes = 0;
};

Dataset points(std::size_t n, std::size_t d) {
    SyntheticOptions o;
    o.n = n;
    o.d = d;
    o.seed = 31;
    return makeCytometryLike(o);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// Runs `work`, which must throw InvalidInput naming `algorithm`'s GPU memory need; CUDA stays usable.
template <class Work>
void expectMemoryNeedNamed(Work&& work, const std::string& algorithm) {
    try {
        work();
        ADD_FAILURE() << "no error";
    } catch (const InvalidInput& e) {
        std::cout << "[out of memory] " << e.what() << "\n";
        EXPECT_TRUE(contains(e.what(), "--backend cuda: " + algorithm + " needs ")) << e.what();
        EXPECT_TRUE(contains(e.what(), "iB of GPU memory")) << e.what();
    }
    EXPECT_TRUE(cudaAvailable());
}

/// Skips every test on a machine without a usable CUDA device.
class GpuOutOfMemory : public ::testing::Test {
protected:
    void SetUp() override {
        if (!cudaAvailable()) GTEST_SKIP() << "no CUDA device on this machine";
    }
};

}  // namespace

TEST_F(GpuOutOfMemory, DensityPeaksUnderAutoRunsOnTheCpuWithAWarningAndCudaStaysUsable) {
    const Dataset data = points(20000, 14);
    const DensityPeaksResult cpu =
        densityPeaks(data.values.data(), data.n, data.d, DensityPeaksOptions{}, Backend::Cpu).result;
    {
        const DeviceMemoryHog hog;
        JobControl control;
        const Computed<DensityPeaksResult> r =
            densityPeaks(data.values.data(), data.n, data.d, DensityPeaksOptions{}, Backend::Auto, &control);
        EXPECT_EQ(r.backend, Backend::Cpu);
        ASSERT_EQ(r.warnings.size(), 1u);
        std::cout << "[out of memory] " << r.warnings[0] << "\n";
        EXPECT_TRUE(contains(r.warnings[0], "density peaks: GPU out of memory (needs ")) << r.warnings[0];
        EXPECT_TRUE(contains(r.warnings[0], " free): ran on the CPU")) << r.warnings[0];
        EXPECT_EQ(control.warnings(), r.warnings);
        EXPECT_EQ(r.result.rho, cpu.rho);
        EXPECT_EQ(r.result.nearestHigher, cpu.nearestHigher);
    }
    // With the memory back, the GPU runs again: the refused allocation left no error behind.
    EXPECT_TRUE(cudaAvailable());
    const Computed<DensityPeaksResult> again =
        densityPeaks(data.values.data(), data.n, data.d, DensityPeaksOptions{}, Backend::Cuda);
    EXPECT_EQ(again.backend, Backend::Cuda);
    EXPECT_TRUE(again.warnings.empty());
}

TEST_F(GpuOutOfMemory, DensityPeaksUnderCudaIsInvalidInputNamingTheMemoryNeeded) {
    const Dataset data = points(20000, 14);
    const DeviceMemoryHog hog;
    expectMemoryNeedNamed(
        [&] { densityPeaks(data.values.data(), data.n, data.d, DensityPeaksOptions{}, Backend::Cuda); },
        "density peaks");
}

TEST_F(GpuOutOfMemory, AnImpossibleMhcaUnderCudaNamesTheMemoryNeededAndLeavesCudaUsable) {
    // Four million points in 64 dimensions: the MHCA's per-cluster metrics alone need about 200 GB.
    const std::size_t n = 4'000'000, d = 64;
    Dataset data;
    data.n = n;
    data.d = d;
    data.values.resize(n * d);
    std::mt19937 random(5);
    std::normal_distribution<float> normal;
    for (float& v : data.values) v = normal(random);
    expectMemoryNeedNamed([&] { clusterHierarchically(data, HcaRequest{}, Backend::Cuda); }, "MHCA");
}

#endif  // CLUSTERLENS_HAVE_CUDA
