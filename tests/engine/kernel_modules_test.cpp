// Every CUDA source of the engine that launches kernels registers its module, so that
// loadKernelModules() loads it before a run queues long work (engine/src/cuda/util/kernel_modules.cuh:
// a module loaded lazily at its first launch makes that launch wait for the device's queued work,
// where a cancel cannot land). Read from the sources, so it runs without a GPU and without CUDA.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t count = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++count;
    return count;
}

TEST(KernelModules, EverySourceThatLaunchesKernelsRegistersItsModuleOnce) {
    const std::filesystem::path cuda = std::filesystem::path(CLUSTERLENS_SOURCE_DIR) / "engine" / "src" / "cuda";
    ASSERT_TRUE(std::filesystem::is_directory(cuda)) << cuda;
    std::vector<std::string> launching;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(cuda)) {
        if (entry.path().extension() != ".cu") continue;
        const std::string text = readText(entry.path());
        const bool launches = text.find("<<<") != std::string::npos || text.find("cub::Device") != std::string::npos;
        const std::size_t registrations = occurrences(text, "CL_CUDA_KERNEL_MODULE(");
        if (launches) {
            launching.push_back(entry.path().filename().string());
            EXPECT_EQ(registrations, 1u) << entry.path() << " launches kernels: it registers its module once";
        } else {
            EXPECT_EQ(registrations, 0u) << entry.path() << " launches no kernel";
        }
    }
    // The engine's kernel sources as of this test (MHCA, VAT, DPC, k-means, linkage): a scan that found
    // none would pass vacuously.
    EXPECT_GE(launching.size(), 13u);
}

}  // namespace
