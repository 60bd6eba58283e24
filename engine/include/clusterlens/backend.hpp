#pragma once
// Compute backend selection: auto (CUDA when a device exists), cpu, cuda. Every algorithm has one
// entry point taking a Backend (densityPeaks, applyHalo, kmeans, minimumSpanningTree, computeVat,
// clusterHierarchically, VatViewportRenderer); it returns a Computed result that says which backend
// really ran and what the user should be told about it.

#include <string>
#include <vector>

namespace clusterlens {

enum class Backend { Auto, Cpu, Cuda };

/// An algorithm's result with the backend that produced it. Under Backend::Auto the engine runs on
/// the CPU when the GPU runs out of memory or fails beyond repair; `warnings` then says so, in words
/// for the user ("GPU out of memory (needs 3.1 GiB, 1.2 GiB free): ran on the CPU").
template <class Result>
struct Computed {
    Result result;
    Backend backend = Backend::Cpu;     ///< Cpu or Cuda, never Auto
    std::vector<std::string> warnings;  ///< empty when the requested backend ran without trouble
};

/// Parses "auto" | "cpu" | "cuda"; throws InvalidInput naming --backend otherwise.
Backend parseBackend(const std::string& text);

/// True when the engine was compiled with CUDA, a device is present and no sticky CUDA error (one
/// that poisons the process's CUDA context, such as an illegal address) has happened in this process.
bool cudaAvailable();

/// Why CUDA is unusable after a sticky error ("" while it is usable or was never present).
std::string cudaUnusableReason();

/// Name of CUDA device 0, or an empty string.
std::string cudaDeviceName();

/// Number of CUDA devices this process can use (0 without CUDA or a device).
int cudaDeviceCount();

/// The CUDA devices `--gpus all|N` names: every device of the machine, or the first N. Throws
/// InvalidInput naming --gpus for other text, N < 1, N above the devices present, or no device.
std::vector<int> parseGpus(const std::string& text);

/// The devices an analysis on `backend` spreads over in the GUI: every device of a machine with
/// several (the same result as one GPU, a fraction of the time), none named otherwise (the current
/// device) and none for the CPU.
std::vector<int> everyGpu(Backend backend);

/// Number of CPU worker threads the engine uses.
unsigned cpuThreadCount();

/// Resolves Auto; throws InvalidInput when Cuda is requested but unavailable.
Backend resolveBackend(Backend requested);

/// "cuda:NVIDIA H100 80GB HBM3" (" (4 GPUs)" appended on a machine with several) or "cpu:16 threads".
std::string backendDescription(Backend resolved);

}  // namespace clusterlens
