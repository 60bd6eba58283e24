#pragma once
// The device of the calling thread: a scope that selects one and restores the previous, and the check
// of a list of devices that an analysis is spread over (--gpus).

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda {

/// Makes `device` the calling thread's current device for the scope (-1: leaves it), then restores it.
class CurrentDevice {
public:
    explicit CurrentDevice(int device) {
        CL_CUDA_TRY(cudaGetDevice(&m_previous));
        if (device >= 0 && device != m_previous) CL_CUDA_TRY(cudaSetDevice(device));
    }
    CurrentDevice(const CurrentDevice&) = delete;
    CurrentDevice& operator=(const CurrentDevice&) = delete;
    ~CurrentDevice() { cudaSetDevice(m_previous); }  // errors at teardown cannot be reported

private:
    int m_previous = 0;
};

/// Throws InvalidInput naming --gpus when a device of `devices` does not exist.
inline void checkDevices(const std::vector<int>& devices) {
    int count = 0;
    CL_CUDA_TRY(cudaGetDeviceCount(&count));
    for (int device : devices)
        if (device < 0 || device >= count)
            throw InvalidInput("--gpus: CUDA device " + std::to_string(device) + " does not exist (this machine has " +
                               std::to_string(count) + ")");
}

}  // namespace clusterlens::cuda
