#pragma once
// A CUDA event owned by one object, and a wait on a stream that stays a cancellation point.

#include <cuda_runtime.h>

#include <thread>

#include "clusterlens/job_control.hpp"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda {

class CudaEvent {
public:
    explicit CudaEvent(unsigned flags = cudaEventDefault) { CL_CUDA_TRY(cudaEventCreateWithFlags(&m_event, flags)); }
    ~CudaEvent() { cudaEventDestroy(m_event); }  // errors at teardown cannot be reported
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;
    cudaEvent_t get() const { return m_event; }

private:
    cudaEvent_t m_event{};
};

/// Waits until `event` has completed, calling control->checkCancelled() while it waits, so that a
/// cancel lands while a long launch runs instead of after it (the launch itself runs on; the caller's
/// stream-ordered frees release its memory once it ends). Spins with yields, as the runtime's own
/// synchronisation does. Throws Cancelled, or CudaError for a failed launch.
inline void waitForEvent(cudaEvent_t event, const JobControl* control) {
    for (;;) {
        const cudaError_t status = cudaEventQuery(event);
        if (status == cudaSuccess) return;
        if (status != cudaErrorNotReady) CL_CUDA_TRY(status);
        if (control) control->checkCancelled();
        std::this_thread::yield();
    }
}

}  // namespace clusterlens::cuda
