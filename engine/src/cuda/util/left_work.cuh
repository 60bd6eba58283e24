#pragma once
// The launches a cancelled CUDA run leaves running. A run that returns at a cancel while a long launch
// runs (MHCA's persistent merges, its pass over the pairs) does not wait for that launch: it ends on its
// own. Every later CUDA run would queue behind it and block in its first synchronous copy, where no
// cancel lands; so the engine's CUDA entry (detail::runOnBackend) waits for that work first, cancellably.

#include <cuda_runtime.h>

#include "clusterlens/job_control.hpp"

namespace clusterlens::cuda {

/// Records the work queued on `stream` so far, for the next runs to wait for (waitForLeftWork).
/// Called when a run ends by an exception (a cancel) without waiting for its launches. noexcept: on a
/// failure nothing is recorded and the next run simply queues behind the work.
void leaveQueuedWork(cudaStream_t stream) noexcept;

/// Waits for the work cancelled runs left (leaveQueuedWork), calling control->checkCancelled() while
/// it waits, then loads the engine's kernel modules the first time (kernel_modules.cuh), so that no
/// launch of the run waits for the run's own earlier work. Throws Cancelled, CudaError.
void waitForLeftWork(const JobControl* control);

}  // namespace clusterlens::cuda
