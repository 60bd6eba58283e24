#pragma once
// Compute backend selection: auto (CUDA when a device exists), cpu, cuda.

#include <string>

namespace clusterlens {

enum class Backend { Auto, Cpu, Cuda };

/// Parses "auto" | "cpu" | "cuda"; throws InvalidInput naming --backend otherwise.
Backend parseBackend(const std::string& text);

/// True when the engine was compiled with CUDA and a usable device is present.
bool cudaAvailable();

/// Name of CUDA device 0, or an empty string.
std::string cudaDeviceName();

/// Number of CPU worker threads the engine uses.
unsigned cpuThreadCount();

/// Resolves Auto; throws InvalidInput when Cuda is requested but unavailable.
Backend resolveBackend(Backend requested);

/// "cuda:NVIDIA H100 80GB HBM3" or "cpu:16 threads".
std::string backendDescription(Backend resolved);

} // namespace clusterlens
