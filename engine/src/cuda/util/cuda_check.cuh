#pragma once
// One error-macro family for all CUDA code: every runtime call and every launch is checked and a
// failure becomes a clusterlens::CudaError (or OutOfDeviceMemory) carrying call text, file and line.

#include <cuda_runtime.h>

#include <string>

#include "clusterlens/errors.hpp"

namespace clusterlens::cuda {

/// The errors that corrupt the CUDA context: every later call of the process returns them again.
inline bool isStickyError(cudaError_t status) noexcept {
    switch (status) {
        case cudaErrorIllegalAddress:
        case cudaErrorLaunchFailure:
        case cudaErrorLaunchTimeout:
        case cudaErrorHardwareStackError:
        case cudaErrorIllegalInstruction:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorInvalidPc:
        case cudaErrorAssert:
        case cudaErrorECCUncorrectable:
            return true;
        default:
            return false;
    }
}

[[noreturn]] inline void throwCudaError(cudaError_t status, const char* call, const char* file, int line) {
    std::string message = std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                          cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
    if (status == cudaErrorMemoryAllocation) {
        std::size_t freeBytes = 0, totalBytes = 0;
        if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess) freeBytes = 0;
        cudaGetLastError();  // the failed allocation must not resurface at the next launch check
        throw OutOfDeviceMemory("the GPU ran out of memory: " + message, 0, freeBytes);
    }
    throw CudaError(message, isStickyError(status));
}

}  // namespace clusterlens::cuda

#define CL_CUDA_TRY(call)                                                                                          \
    do {                                                                                                           \
        cudaError_t cl_status_ = (call);                                                                           \
        if (cl_status_ != cudaSuccess) ::clusterlens::cuda::throwCudaError(cl_status_, #call, __FILE__, __LINE__); \
    } while (0)

/// After every kernel launch: catches bad launch configurations immediately.
#define CL_CUDA_CHECK_LAUNCH() CL_CUDA_TRY(cudaPeekAtLastError())
