#pragma once
// Every kernel module of the engine, loaded before a run queues anything long.
//
// With lazy loading (CUDA's default since 12.2) a source file's kernels (its module) are loaded at the
// first launch of any of them, and that launch waits on the host until the device has finished all the
// work queued before it. Measured on an H200 (CUDA 13.0, driver 580.159): behind a 1 s kernel, the first
// launch of a kernel of another source file returned after 1.01 s, later launches in 5 us; a
// cudaFuncGetAttributes of one kernel of the file beforehand loaded all of the file's kernels (its
// template instances included), so none of them waited. A job whose host thread waits there cannot be
// cancelled: the first MHCA run of a process could not stop from 0.1 to 5.8 s after its start at 1M
// points, while its first launches of the merge loop's kernels waited for the start's two passes.
//
// Each source file with kernels registers one of them (CL_CUDA_KERNEL_MODULE); loadKernelModules()
// loads every registered module once per process, called where the device has no work of ours queued.

#include <cuda_runtime.h>

namespace clusterlens::cuda {

/// Registers a function that loads one source file's module (at static initialisation).
class KernelModule {
public:
    explicit KernelModule(void (*load)());
};

/// Loads the module of `kernel` (and so every kernel of its source file). Errors are left to the
/// kernels' own launches: a module that cannot load (no image for the device) fails there.
template <typename Kernel>
void loadModuleOf(Kernel* kernel) {
    cudaFuncAttributes attributes{};
    if (cudaFuncGetAttributes(&attributes, kernel) != cudaSuccess) (void)cudaGetLastError();
}

/// Loads every registered module, the first time it is called in the process (thread-safe); costs
/// nothing afterwards. Waits for the device's queued work where a module still has to load.
void loadKernelModules();

}  // namespace clusterlens::cuda

/// In a source file with kernels, at namespace scope after `kernel` is declared: registers the file's
/// module for loadKernelModules().
#define CL_CUDA_KERNEL_MODULE(kernel)                                                                          \
    namespace {                                                                                                \
    const ::clusterlens::cuda::KernelModule kKernelModule(+[] { ::clusterlens::cuda::loadModuleOf(kernel); }); \
    }
