#include "cuda/util/kernel_modules.cuh"

#include <mutex>
#include <vector>

namespace clusterlens::cuda {
namespace {

std::vector<void (*)()>& registered() {
    static std::vector<void (*)()> loaders;  // (filled during static initialisation, one thread)
    return loaders;
}

}  // namespace

KernelModule::KernelModule(void (*load)()) {
    registered().push_back(load);
}

void loadKernelModules() {
    static std::once_flag loaded;
    std::call_once(loaded, [] {
        for (void (*load)() : registered()) load();
    });
}

}  // namespace clusterlens::cuda
