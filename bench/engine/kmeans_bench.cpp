// k-means benchmark cases: cytometry-like data, k = 20 (CPU and GPU), and many clusters on the GPU with
// each assignment (the per-point kernel, the cuBLAS matrix product, the tensor-core tiles): k = 64 at 1M x 14; k = 128
// and 256 at 1M x 39, either side of the kernel's shared memory; the a-priori groups' shape k = 1000 at 1M x 39. Each
// for 1 and 21 Lloyd iterations: the difference over 20 is one iteration without the seeding. With --profile the
// many-cluster cases print each run's median Lloyd iteration on stderr, timed by a thread that watches the run's
// progress (set once per iteration). The spread cases run the Auto assignment on 1, 2 and 4 GPUs.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench_registry.hpp"
#include "clusterlens/cluster/kmeans.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/kmeans_cuda.hpp"
#include "clusterlens/job_control.hpp"
#endif

namespace {

using clusterlens::bench::BenchCase;
using clusterlens::bench::cytometryData;
using clusterlens::bench::Registry;
using clusterlens::bench::shortCount;

/// k clusters, seed 1; `iterations` Lloyd steps exactly (tolerance 0 and a cap), or the defaults when 0.
clusterlens::KMeansOptions options(std::size_t k, std::size_t iterations) {
    clusterlens::KMeansOptions o;
    o.k = k;
    o.seed = 1;
    if (iterations > 0) {
        o.maxIterations = iterations;
        o.tolerance = 0.0;
    }
    return o;
}

/// "kmeans k=K NxD", with " I iterations" when the iterations are fixed.
std::string workloadName(std::size_t n, std::size_t d, std::size_t k, std::size_t iterations) {
    std::string name = "kmeans k=" + std::to_string(k) + " " + shortCount(n) + "x" + std::to_string(d);
    if (iterations > 0) name += " " + std::to_string(iterations) + " iterations";
    return name;
}

void addCase(Registry& registry, std::size_t n, std::size_t d, std::size_t k, std::size_t iterations, bool cpu) {
    const std::string workload = workloadName(n, d, k, iterations);
    auto prepare = [n, d] { cytometryData(n, d); };
    if (cpu) {
        registry.add(BenchCase{workload, "cpu", n, d,
                               [n, d, k, iterations] {
                                   const clusterlens::Dataset& data = cytometryData(n, d);
                                   clusterlens::kmeansCpu(data.values.data(), n, d, options(k, iterations));
                               },
                               prepare, 0, 3});
    }
#ifdef CLUSTERLENS_HAVE_CUDA
    registry.add(BenchCase{workload, "cuda", n, d,
                           [n, d, k, iterations] {
                               const clusterlens::Dataset& data = cytometryData(n, d);
                               clusterlens::kmeansCuda(data.values.data(), n, d, options(k, iterations));
                           },
                           prepare, 1, 0});
#endif
}

#ifdef CLUSTERLENS_HAVE_CUDA
/// Runs `run(control)` while a thread notes the moments its progress changes; prints the median time
/// between changes (one Lloyd iteration each) on stderr.
template <typename Run>
void printMedianIteration(const std::string& workload, Run&& run) {
    clusterlens::JobControl control;
    std::atomic<bool> done{false};
    std::vector<std::chrono::steady_clock::time_point> changes;
    std::thread watcher([&] {
        double seen = control.progress();
        while (!done.load(std::memory_order_relaxed)) {
            const double now = control.progress();
            if (now != seen) {
                changes.push_back(std::chrono::steady_clock::now());
                seen = now;
            }
        }
    });
    run(&control);
    done = true;
    watcher.join();
    std::vector<double> ms;
    for (std::size_t i = 1; i < changes.size(); ++i)
        ms.push_back(std::chrono::duration<double, std::milli>(changes[i] - changes[i - 1]).count());
    if (ms.empty()) return;
    std::nth_element(ms.begin(), ms.begin() + static_cast<std::ptrdiff_t>(ms.size() / 2), ms.end());
    std::fprintf(stderr, "%s: median Lloyd iteration %.2f ms (%zu timed)\n", workload.c_str(), ms[ms.size() / 2],
                 ms.size());
}

/// run(nullptr), or with --profile under printMedianIteration.
template <typename Run>
void runProfiledOrNot(const std::string& workload, Run&& run) {
    if (Registry::instance().profile())
        printMedianIteration(workload, run);
    else
        run(nullptr);
}

/// Many clusters on the GPU, one case per assignment.
void addAssignmentCases(Registry& registry, std::size_t n, std::size_t d, std::size_t k, std::size_t iterations) {
    using clusterlens::KMeansAssignment;
    for (const auto& [assignment, name] :
         {std::pair{KMeansAssignment::Kernel, "kernel"}, std::pair{KMeansAssignment::MatrixProduct, "matrix product"},
          std::pair{KMeansAssignment::TensorTiles, "tensor tiles"}}) {
        const std::string workload = workloadName(n, d, k, iterations) + ", " + name;
        registry.add(BenchCase{workload, "cuda", n, d,
                               [n, d, k, iterations, assignment = assignment, workload] {
                                   const clusterlens::Dataset& data = cytometryData(n, d);
                                   auto run = [&](clusterlens::JobControl* control) {
                                       clusterlens::kmeansCuda(data.values.data(), n, d, options(k, iterations),
                                                               control, assignment);
                                   };
                                   runProfiledOrNot(workload, run);
                               },
                               [n, d] { cytometryData(n, d); }, 1, 3});
    }
}

/// The Auto assignment spread over 1, 2 and 4 GPUs (KMeansOptions::cudaDevices, `kmeans --gpus N`).
void addSpreadCases(Registry& registry, std::size_t n, std::size_t d, std::size_t k, std::size_t iterations) {
    for (const int gpus : {1, 2, 4}) {
        const std::string workload =
            workloadName(n, d, k, iterations) + " on " + std::to_string(gpus) + (gpus > 1 ? " GPUs" : " GPU");
        registry.add(BenchCase{workload, "cuda", n, d,
                               [n, d, k, iterations, gpus, workload] {
                                   const clusterlens::Dataset& data = cytometryData(n, d);
                                   clusterlens::KMeansOptions o = options(k, iterations);
                                   o.cudaDevices = clusterlens::parseGpus(std::to_string(gpus));
                                   auto run = [&](clusterlens::JobControl* control) {
                                       clusterlens::kmeansCuda(data.values.data(), n, d, o, control);
                                   };
                                   runProfiledOrNot(workload, run);
                               },
                               [n, d] { cytometryData(n, d); }, 1, 1, gpus});
    }
}
#endif

const clusterlens::bench::Registrar registrar([](Registry& registry) {
    addCase(registry, 44000, 14, 20, 0, true);
    addCase(registry, 1000000, 14, 20, 0, false);
#ifdef CLUSTERLENS_HAVE_CUDA
    for (const std::size_t iterations : {std::size_t{1}, std::size_t{21}}) {
        addAssignmentCases(registry, 1000000, 14, 64, iterations);
        addAssignmentCases(registry, 1000000, 39, 128, iterations);  // the last k whose centroids are staged
        addAssignmentCases(registry, 1000000, 39, 256, iterations);
        addAssignmentCases(registry, 1000000, 39, 1000, iterations);
    }
    addSpreadCases(registry, 1000000, 39, 1000, 21);
    addSpreadCases(registry, 4000000, 39, 256, 21);
#endif
});

}  // namespace
