#pragma once
// Internal: what CUDA devices exist. Implemented in cuda/device_query.cu or nocuda/device_query.cpp.

#include <cstddef>
#include <string>

#include "clusterlens/job_control.hpp"

namespace clusterlens::detail {

/// Number of usable CUDA devices; 0 without a driver or device (never throws).
int cudaDeviceCount() noexcept;
/// Name of the current device, or "".
std::string cudaCurrentDeviceName();
/// Free and total bytes on the current device (0, 0 without one).
void cudaMemoryInfo(std::size_t& freeBytes, std::size_t& totalBytes) noexcept;
/// True when the calling thread's CUDA context holds a sticky error (every later call would fail).
bool cudaContextLost() noexcept;
/// Clears the calling thread's last non-sticky CUDA error (an allocation that failed), so that the next
/// launch check does not report it again.
void clearCudaError() noexcept;
/// Waits for the launches that cancelled CUDA runs of this process left running (cuda/util/left_work.cuh),
/// calling control->checkCancelled() while it waits; returns at once when there are none or without
/// CUDA. Throws Cancelled, CudaError.
void waitForLeftCudaWork(const JobControl* control);

}  // namespace clusterlens::detail
