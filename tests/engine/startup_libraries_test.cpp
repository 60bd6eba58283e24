// A process of the engine maps no CUDA math library until a GPU routine needs one: cuBLAS is loaded
// at its first use (engine/src/cuda/util/cublas_library.cuh). Linked, libcublas and libcublasLt cost
// every process 0.2-0.4 s and over 200 MB before main: each clusterlens-cli call, each test. (Run
// alone, as ctest runs each test; in a whole-binary run on a GPU an earlier test may have loaded it.)

#include <gtest/gtest.h>

#include <fstream>
#include <string>

TEST(StartupLibraries, NoCudaMathLibraryIsMappedBeforeItIsUsed) {
    std::ifstream maps("/proc/self/maps");
    if (!maps) GTEST_SKIP() << "this system has no /proc/self/maps";
    std::string line;
    std::size_t lines = 0;
    while (std::getline(maps, line)) {
        ++lines;
        for (const char* library : {"libcublas", "libcusolver", "libcusparse", "libcufft"})
            EXPECT_EQ(line.find(library), std::string::npos) << line;
    }
    EXPECT_GT(lines, 0u);
}
