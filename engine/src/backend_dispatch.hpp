#pragma once
// Internal: runs one algorithm on the requested backend, with the GPU faults handled in one place
// (out of memory, a sticky error that ends CUDA for the process). Every public algorithm entry point
// goes through here; nothing else chooses between CPU and CUDA.

#include <functional>
#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens::detail {

/// Runs `cuda` when `requested` resolves to CUDA, else `cpu`, and returns the backend that ran.
/// Under Auto, a GPU out of memory or a sticky CUDA error runs `cpu` instead and adds a warning to
/// `warnings` and to `control`. Under Cuda, out of memory becomes InvalidInput naming the memory the
/// run needed, a sticky error a CudaError saying that CUDA is off. A sticky error makes CUDA unusable
/// for the rest of the process (cudaAvailable() false). Other errors, Cancelled included, propagate.
/// Before `cuda` it waits, cancellably, for the launches that cancelled CUDA runs left running, which
/// the new run would otherwise queue behind without a cancel point.
/// `algorithm` names the work in messages ("density peaks").
Backend runOnBackend(const std::string& algorithm, Backend requested, const std::function<void()>& cpu,
                     const std::function<void()>& cuda, std::vector<std::string>& warnings, JobControl* control);

/// runOnBackend for work that returns a value.
template <class Result, class CpuWork, class CudaWork>
Computed<Result> computeOn(const std::string& algorithm, Backend requested, JobControl* control, CpuWork&& cpu,
                           CudaWork&& cuda) {
    Computed<Result> out;
    out.backend = runOnBackend(
        algorithm, requested, [&] { out.result = cpu(); }, [&] { out.result = cuda(); }, out.warnings, control);
    return out;
}

/// Records a CUDA error raised outside runOnBackend (e.g. while rendering): when it is sticky, marks
/// CUDA unusable and returns the warning to show; returns "" for an error that leaves CUDA usable.
std::string noteCudaFailure(const std::string& algorithm, const CudaError& error);

/// What a user can do when `algorithm` does not fit the GPU, as the error under --backend cuda says it:
/// a-priori groups for MHCA, the sampled VAT for VAT, a population or a sample, or the CPU.
std::string outOfMemoryWayOut(const std::string& algorithm);

/// The out-of-memory warning of runOnBackend: "density peaks: GPU out of memory (needs 3.0 GiB,
/// 1.0 GiB free): ran on the CPU".
std::string outOfMemoryWarning(const std::string& algorithm, const OutOfDeviceMemory& error);

}  // namespace clusterlens::detail
