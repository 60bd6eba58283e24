#include <cuda_runtime.h>

#include "cuda/util/cuda_check.cuh"
#include "cuda/util/left_work.cuh"
#include "device_query.hpp"

namespace clusterlens::detail {

int cudaDeviceCount() noexcept {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // no driver / no device: clear the sticky error, report none
        return 0;
    }
    return count;
}

std::string cudaCurrentDeviceName() {
    if (cudaDeviceCount() == 0) return {};
    int device = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) return {};
    return prop.name;
}

void cudaMemoryInfo(std::size_t& freeBytes, std::size_t& totalBytes) noexcept {
    freeBytes = totalBytes = 0;
    if (cudaDeviceCount() == 0) return;
    if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess) freeBytes = totalBytes = 0;
}

}  // namespace clusterlens::detail

namespace clusterlens::detail {

bool cudaContextLost() noexcept {
    if (cudaDeviceCount() == 0) return false;
    return cuda::isStickyError(cudaPeekAtLastError());
}

void clearCudaError() noexcept {
    if (!cudaContextLost()) cudaGetLastError();
}

void waitForLeftCudaWork(const JobControl* control) {
    cuda::waitForLeftWork(control);
}

}  // namespace clusterlens::detail
