// clusterlens-bench [--filter SUBSTR] [--repeat R] [--json] [--profile]
// Runs the registered benchmark cases and prints a table, or with --json one JSON object:
// --profile: the cases also report what each run did on stderr (MHCA's probe: counts, phase and
// kernel stage times; the GPU VAT engine's passes); profiled MHCA runs are slower.
//   {"device": ..., "cpu": ..., "date": ..., "results": [{"workload", "backend", "n", "d", "seconds",
//    "throughput", "throughput_unit", "peak_device_bytes", "runs"}, ...]}
// seconds is the median of the timed runs after the warm-up; throughput is points per second;
// peak_device_bytes is the high-water mark of the device's default stream-ordered memory pool
// during the timed runs (where DeviceBuffer allocates), 0 for CPU cases.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#ifdef CLUSTERLENS_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include "bench_registry.hpp"
#include "clusterlens/backend.hpp"
#include "clusterlens/synthetic.hpp"

namespace clusterlens::bench {

Registry& Registry::instance() {
    static Registry registry;
    return registry;
}

const Dataset& cytometryData(std::size_t n, std::size_t d) {
    static std::map<std::pair<std::size_t, std::size_t>, Dataset> cache;
    auto it = cache.find({n, d});
    if (it == cache.end()) {
        SyntheticOptions options;
        options.n = n;
        options.d = d;
        it = cache.emplace(std::make_pair(n, d), makeCytometryLike(options)).first;
    }
    return it->second;
}

std::string shortCount(std::size_t n) {
    if (n >= 1000000 && n % 1000000 == 0) return std::to_string(n / 1000000) + "M";
    if (n >= 1000 && n % 1000 == 0) return std::to_string(n / 1000) + "K";
    return std::to_string(n);
}

}  // namespace clusterlens::bench

namespace {

using clusterlens::bench::BenchCase;

struct Options {
    std::string filter;
    int repeat = 3;
    bool json = false;
};

struct Result {
    const BenchCase* benchCase = nullptr;
    double seconds = 0.0;
    std::size_t peakDeviceBytes = 0;
    int runs = 0;
};

/// Device memory high-water mark of the default memory pool (cudaMallocAsync), reset before a case.
class PeakDeviceMemory {
public:
    void reset() {
#ifdef CLUSTERLENS_HAVE_CUDA
        if (!clusterlens::cudaAvailable()) return;
        cudaMemPool_t pool{};
        int device = 0;
        if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess) return;
        std::uint64_t zero = 0;
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero);
#endif
    }
    std::size_t peak() const {
#ifdef CLUSTERLENS_HAVE_CUDA
        if (!clusterlens::cudaAvailable()) return 0;
        cudaMemPool_t pool{};
        int device = 0;
        if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess)
            return 0;
        std::uint64_t high = 0;
        if (cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high) != cudaSuccess) return 0;
        return static_cast<std::size_t>(high);
#else
        return 0;
#endif
    }
};

[[noreturn]] void usage(const std::string& problem) {
    std::cerr << "clusterlens-bench: " << problem
              << "\nusage: clusterlens-bench [--filter SUBSTR] [--repeat R] [--json] [--profile]\n";
    std::exit(2);
}

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--json") {
            o.json = true;
        } else if (arg == "--profile") {
            clusterlens::bench::Registry::instance().setProfile(true);
        } else if (arg == "--filter" && i + 1 < argc) {
            o.filter = argv[++i];
        } else if (arg == "--repeat" && i + 1 < argc) {
            o.repeat = std::atoi(argv[++i]);
            if (o.repeat < 1) usage("--repeat needs a positive number");
        } else {
            usage("unknown argument '" + arg + "'");
        }
    }
    return o;
}

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
        }
    return "unknown CPU";
}

std::string isoDate() {
    const std::time_t now = std::time(nullptr);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return buffer;
}

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;
        out += c;
    }
    return out + "\"";
}

Result measure(const BenchCase& c, int repeat, PeakDeviceMemory& memory) {
    if (c.prepare) c.prepare();
    for (int w = 0; w < c.warmUp; ++w) c.run();
    const int runs = c.maxRepeat > 0 ? std::min(repeat, c.maxRepeat) : repeat;
    std::vector<double> seconds;
    memory.reset();
    for (int r = 0; r < runs; ++r) {
        const auto start = std::chrono::steady_clock::now();
        c.run();
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(seconds.begin(), seconds.end());
    const std::size_t m = seconds.size();
    const double median = m % 2 ? seconds[m / 2] : 0.5 * (seconds[m / 2 - 1] + seconds[m / 2]);
    return Result{&c, median, c.backend == "cuda" ? memory.peak() : 0, runs};
}

void printJson(const std::vector<Result>& results) {
    std::ostringstream out;
    out.precision(6);
    const std::string device = clusterlens::cudaAvailable() ? clusterlens::cudaDeviceName() : "none";
    out << "{\"device\": " << jsonString(device) << ", \"cpu\": " << jsonString(cpuModel())
        << ", \"cpu_threads\": " << clusterlens::cpuThreadCount() << ", \"date\": " << jsonString(isoDate())
        << ", \"results\": [";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const Result& r = results[i];
        out << (i ? ",\n  " : "\n  ") << "{\"workload\": " << jsonString(r.benchCase->workload)
            << ", \"backend\": " << jsonString(r.benchCase->backend) << ", \"n\": " << r.benchCase->n
            << ", \"d\": " << r.benchCase->d << ", \"seconds\": " << r.seconds
            << ", \"throughput\": " << static_cast<double>(r.benchCase->n) / r.seconds
            << ", \"throughput_unit\": \"points/s\", \"peak_device_bytes\": " << r.peakDeviceBytes
            << ", \"runs\": " << r.runs << "}";
    }
    out << "\n]}\n";
    std::cout << out.str();
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = parseOptions(argc, argv);
    std::vector<const BenchCase*> selected;
    for (const BenchCase& c : clusterlens::bench::Registry::instance().cases()) {
        if (!options.filter.empty() && (c.workload + " " + c.backend).find(options.filter) == std::string::npos)
            continue;
        if (c.backend == "cuda" && !clusterlens::cudaAvailable()) continue;
        if (c.backend == "cuda" && c.gpus > clusterlens::cudaDeviceCount()) {  // (not a failure of the case)
            std::cerr << "skipped " << c.workload << ": it needs " << c.gpus << " GPUs, this machine has "
                      << clusterlens::cudaDeviceCount() << "\n";
            continue;
        }
        selected.push_back(&c);
    }
    std::stable_sort(selected.begin(), selected.end(), [](const BenchCase* a, const BenchCase* b) {
        return a->workload != b->workload ? a->workload < b->workload : a->backend < b->backend;
    });
    PeakDeviceMemory memory;
    std::vector<Result> results;
    int failures = 0;
    for (const BenchCase* c : selected) {
        std::cerr << "running " << c->workload << " [" << c->backend << "] ..." << std::flush;
        try {
            results.push_back(measure(*c, options.repeat, memory));
            std::cerr << " " << results.back().seconds << " s\n";
        } catch (const std::exception& e) {
            std::cerr << " failed: " << e.what() << "\n";
            ++failures;
        }
    }
    if (options.json) {
        printJson(results);
    } else {
        std::printf("%-34s %-5s %9s %4s %12s %14s %12s\n", "workload", "back", "n", "d", "seconds", "points/s",
                    "peak MiB");
        for (const Result& r : results)
            std::printf("%-34s %-5s %9zu %4zu %12.6f %14.1f %12.1f\n", r.benchCase->workload.c_str(),
                        r.benchCase->backend.c_str(), r.benchCase->n, r.benchCase->d, r.seconds,
                        static_cast<double>(r.benchCase->n) / r.seconds,
                        static_cast<double>(r.peakDeviceBytes) / (1024.0 * 1024.0));
    }
    return failures == 0 ? 0 : 1;
}
