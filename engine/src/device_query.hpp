#pragma once
// Internal: what CUDA devices exist. Implemented in cuda/device_query.cu or nocuda/device_query.cpp.

#include <cstddef>
#include <string>

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

}  // namespace clusterlens::detail
