#include "clusterlens/backend.hpp"

#include <thread>

#include "clusterlens/errors.hpp"
#include "device_query.hpp"

namespace clusterlens {

Backend parseBackend(const std::string& text) {
    if (text == "auto") return Backend::Auto;
    if (text == "cpu") return Backend::Cpu;
    if (text == "cuda") return Backend::Cuda;
    throw InvalidInput("--backend: unknown backend '" + text + "' (expected auto, cpu or cuda)");
}

bool cudaAvailable() { return detail::cudaDeviceCount() > 0; }

std::string cudaDeviceName() { return detail::cudaCurrentDeviceName(); }

unsigned cpuThreadCount() {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : n;
}

Backend resolveBackend(Backend requested) {
    if (requested == Backend::Auto) return cudaAvailable() ? Backend::Cuda : Backend::Cpu;
    if (requested == Backend::Cuda && !cudaAvailable()) {
#ifdef CLUSTERLENS_HAVE_CUDA
        throw InvalidInput("--backend cuda: no CUDA device is available on this machine");
#else
        throw InvalidInput("--backend cuda: this build of ClusterLens has no CUDA support");
#endif
    }
    return requested;
}

std::string backendDescription(Backend resolved) {
    if (resolved == Backend::Cuda) return "cuda:" + cudaDeviceName();
    return "cpu:" + std::to_string(cpuThreadCount()) + " threads";
}

} // namespace clusterlens
