#pragma once
// Test-only seam: GPU faults injected into the engine's backend choice, so that the fallback to the
// CPU and the end of CUDA after a sticky error are tested on machines without a GPU. Production code
// never includes this header.

#include <cstddef>

namespace clusterlens::fault_injection {

enum class GpuFault {
    OutOfMemory,  ///< the device cannot hold the run (as cudaErrorMemoryAllocation)
    ContextLost,  ///< a sticky error that poisons the CUDA context (as cudaErrorIllegalAddress)
};

/// While an instance lives, cudaAvailable() reports a device (unless a context-lost fault has made
/// CUDA unusable) and every CUDA attempt of the engine's algorithm entry points fails with `fault`
/// before touching a device: OutOfMemory with the given byte counts, ContextLost as a sticky error.
/// Destroying it removes the fault and forgets a CUDA loss that it caused (a real one stays).
/// One instance at a time; not thread-safe against running jobs.
class ScopedGpuFault {
public:
    explicit ScopedGpuFault(GpuFault fault, std::size_t neededBytes = std::size_t{3} << 30,
                            std::size_t freeBytes = std::size_t{1} << 30);
    ~ScopedGpuFault();
    ScopedGpuFault(const ScopedGpuFault&) = delete;
    ScopedGpuFault& operator=(const ScopedGpuFault&) = delete;
};

}  // namespace clusterlens::fault_injection
