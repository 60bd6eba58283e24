#include "clusterlens/backend.hpp"

#include <atomic>
#include <exception>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backend_dispatch.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/testing/gpu_fault.hpp"
#include "device_query.hpp"

namespace clusterlens {
namespace {

/// Whether CUDA may still be used by this process. A sticky error poisons the CUDA context for good:
/// every later call fails, so the engine stops choosing CUDA (cudaAvailable() false).
struct CudaHealth {
    std::mutex mutex;
    std::string unusableReason;    // non-empty once CUDA is off
    bool lostByInjection = false;  // the loss came from fault_injection::ScopedGpuFault
};

CudaHealth& health() {
    static CudaHealth h;
    return h;
}

struct InjectedFault {
    fault_injection::GpuFault fault;
    std::size_t neededBytes;
    std::size_t freeBytes;
};

std::atomic<const InjectedFault*>& injectedFault() {
    static std::atomic<const InjectedFault*> fault{nullptr};
    return fault;
}

/// A memory size in the unit that keeps it readable: "3.0 GiB", "512 MiB", "80 KiB".
std::string memorySize(std::size_t bytes) {
    char text[32];
    const double value = static_cast<double>(bytes);
    if (value >= 1073741824.0)
        std::snprintf(text, sizeof text, "%.1f GiB", value / 1073741824.0);
    else if (value >= 1048576.0)
        std::snprintf(text, sizeof text, "%.0f MiB", value / 1048576.0);
    else
        std::snprintf(text, sizeof text, "%.0f KiB", value / 1024.0);
    return text;
}

/// Throws the injected fault, as the CUDA path would have raised it, before any device is touched.
void throwInjectedFault() {
    const InjectedFault* injected = injectedFault().load();
    if (!injected) return;
    if (injected->fault == fault_injection::GpuFault::OutOfMemory)
        throw OutOfDeviceMemory("the GPU ran out of memory (injected)", injected->neededBytes, injected->freeBytes);
    throw CudaError("cudaErrorIllegalAddress (an illegal memory access was encountered; injected)", true);
}

void markCudaUnusable(const std::string& reason) {
    CudaHealth& h = health();
    const std::lock_guard<std::mutex> lock(h.mutex);
    if (!h.unusableReason.empty()) return;
    h.unusableReason = reason;
    const InjectedFault* injected = injectedFault().load();
    h.lostByInjection = injected && injected->fault == fault_injection::GpuFault::ContextLost;
}

}  // namespace

Backend parseBackend(const std::string& text) {
    if (text == "auto") return Backend::Auto;
    if (text == "cpu") return Backend::Cpu;
    if (text == "cuda") return Backend::Cuda;
    throw InvalidInput("--backend: unknown backend '" + text + "' (expected auto, cpu or cuda)");
}

bool cudaAvailable() {
    if (!cudaUnusableReason().empty()) return false;
    return injectedFault().load() != nullptr || detail::cudaDeviceCount() > 0;
}

std::string cudaUnusableReason() {
    CudaHealth& h = health();
    const std::lock_guard<std::mutex> lock(h.mutex);
    return h.unusableReason;
}

std::string cudaDeviceName() {
    return detail::cudaCurrentDeviceName();
}

int cudaDeviceCount() {
    return detail::cudaDeviceCount();
}

std::vector<int> parseGpus(const std::string& text) {
    const int present = detail::cudaDeviceCount();
    int count = 0;
    if (text == "all") {
        count = present;
    } else {
        std::size_t used = 0;
        try {
            count = std::stoi(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != text.size() || count < 1)
            throw InvalidInput("--gpus: expected 'all' or a number of GPUs of at least 1, got '" + text + "'");
        if (present == 0) throw InvalidInput("--gpus " + text + ": this machine has no CUDA device");
        if (count > present)
            throw InvalidInput("--gpus " + text + ": this machine has " + std::to_string(present) + " CUDA device" +
                               (present == 1 ? "" : "s"));
    }
    if (count == 0) throw InvalidInput("--gpus " + text + ": this machine has no CUDA device");
    std::vector<int> devices(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) devices[static_cast<std::size_t>(i)] = i;
    return devices;
}

std::vector<int> everyGpu(Backend backend) {
    return backend != Backend::Cpu && detail::cudaDeviceCount() > 1 ? parseGpus("all") : std::vector<int>{};
}

unsigned cpuThreadCount() {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : n;
}

Backend resolveBackend(Backend requested) {
    if (requested == Backend::Auto) return cudaAvailable() ? Backend::Cuda : Backend::Cpu;
    if (requested == Backend::Cuda && !cudaAvailable()) {
        const std::string lost = cudaUnusableReason();
        if (!lost.empty())
            throw InvalidInput("--backend cuda: CUDA is off after a GPU failure in this process (" + lost + ")");
#ifdef CLUSTERLENS_HAVE_CUDA
        throw InvalidInput("--backend cuda: no CUDA device is available on this machine");
#else
        throw InvalidInput("--backend cuda: this build of ClusterLens has no CUDA support");
#endif
    }
    return requested;
}

std::string backendDescription(Backend resolved) {
    if (resolved == Backend::Cuda) {
        const int devices = detail::cudaDeviceCount();
        return "cuda:" + cudaDeviceName() + (devices > 1 ? " (" + std::to_string(devices) + " GPUs)" : "");
    }
    return "cpu:" + std::to_string(cpuThreadCount()) + " threads";
}

namespace detail {

std::string outOfMemoryWarning(const std::string& algorithm, const OutOfDeviceMemory& error) {
    const std::string need =
        error.neededBytes() > 0 ? "needs " + memorySize(error.neededBytes()) + ", " : std::string();
    return algorithm + ": GPU out of memory (" + need + memorySize(error.freeBytes()) + " free): ran on the CPU";
}

std::string noteCudaFailure(const std::string& algorithm, const CudaError& error) {
    if (!error.contextLost() && !cudaContextLost()) return {};
    markCudaUnusable(error.what());
    return algorithm + ": the GPU failed (" + error.what() +
           ") and CUDA stays off until ClusterLens restarts: ran on the CPU";
}

std::string outOfMemoryWayOut(const std::string& algorithm) {
    const std::string cpu = "run it on the CPU (--backend cpu, or --backend auto to fall back by itself)";
    if (algorithm == "MHCA")
        return "A-priori groups (--apriori-kmeans K) cluster many more events in the same memory; or analyse a "
               "population or a sample of the events, or " +
               cpu;
    if (algorithm == "VAT" || algorithm == "minimum spanning tree")
        return "The sampled VAT (vat --sample N) orders a sample of the events; or analyse a population of the "
               "events, or " +
               cpu;
    return "Analyse a population or a sample of the events, or " + cpu;
}

Backend runOnBackend(const std::string& algorithm, Backend requested, const std::function<void()>& cpu,
                     const std::function<void()>& cuda, std::vector<std::string>& warnings, JobControl* control) {
    if (resolveBackend(requested) == Backend::Cpu) {
        cpu();
        return Backend::Cpu;
    }
    std::string warning;
    try {
        throwInjectedFault();
        waitForLeftCudaWork(control);  // (else this run queues behind a cancelled run's launches)
        cuda();
        return Backend::Cuda;
    } catch (const OutOfDeviceMemory& error) {
        clearCudaError();
        if (requested == Backend::Cuda) {
            const std::string need = error.neededBytes() > 0
                                         ? " needs " + memorySize(error.neededBytes()) + " of GPU memory,"
                                         : " does not fit the GPU:";
            throw InvalidInput("--backend cuda: " + algorithm + need + " " + memorySize(error.freeBytes()) +
                               " are free. " + outOfMemoryWayOut(algorithm));
        }
        warning = outOfMemoryWarning(algorithm, error);
    } catch (const CudaError& error) {
        warning = noteCudaFailure(algorithm, error);
        if (warning.empty()) throw;
        if (requested == Backend::Cuda)
            throw CudaError(algorithm + ": the GPU failed (" + error.what() +
                                ") and CUDA stays off until ClusterLens restarts; run it again on the CPU",
                            true);
    }
    warnings.push_back(warning);
    if (control) control->addWarning(warning);
    cpu();
    return Backend::Cpu;
}

}  // namespace detail

namespace fault_injection {

ScopedGpuFault::ScopedGpuFault(GpuFault fault, std::size_t neededBytes, std::size_t freeBytes) {
    injectedFault().store(new InjectedFault{fault, neededBytes, freeBytes});
}

ScopedGpuFault::~ScopedGpuFault() {
    CudaHealth& h = health();
    {
        const std::lock_guard<std::mutex> lock(h.mutex);
        if (h.lostByInjection) {
            h.unusableReason.clear();
            h.lostByInjection = false;
        }
    }
    delete injectedFault().exchange(nullptr);
}

}  // namespace fault_injection

}  // namespace clusterlens
