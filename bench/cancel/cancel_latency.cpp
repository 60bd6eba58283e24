// clusterlens-cancel-bench [--n N] [--d D] [--after-ms MS] [--repeat R] [--filter SUBSTR]
// How long each job takes to stop after Cancel (issue: every job returns to idle within 200 ms of
// Cancel at 1M points). Each job runs on a worker thread with a JobControl; after MS milliseconds
// (default 500) the main thread calls cancel() and measures until the worker has returned. Prints one
// JSON object: {"n", "d", "after_ms", "cpu_threads", "device", "date", "jobs": [{"job", "latency_ms" (median),
// "latencies_ms", "finished_first", "cancelled_after_ms"}]}. finished_first counts runs in which the
// job ended before the cancel (its latency is then not a cancel latency and is left out of the
// median); such a run is repeated with half the wait (down to 5 ms), so that a job shorter than MS is
// still cancelled while it runs, and cancelled_after_ms is the wait of the last run.
// Data: makeCytometryLike (12 populations + 3 % noise, seed 1); the file jobs write it first to a
// temporary folder as CSV and FCS, and (cancel_jobs.hpp) as sessions and HDF5 files. Jobs: the
// readers (CSV, FCS, and HDF5: a dense dataset, .h5ad with X dense or sparse, 10x), the fingerprint
// (SHA-256) of the data file, the Open dialog's inspection, opening a session (data embedded or
// referenced), the exports
// (of all events and of a population, and clusters written into an .h5ad copy), the transform step
// (arcsinh, z-score, normalise-total + log1p, PCA) and the algorithms. With a CUDA device (cudaAvailable()) the CUDA
// backend's jobs run too (DPC, VAT, k-means, MHCA under Backend::Cuda); without one they are listed with "skipped". A
// job that fails (e.g. the GPU is too small) is listed with its "error" and the others go on.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/hca.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/io/export_events.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/synthetic.hpp"
#include "clusterlens/vat/vat.hpp"
#include "cancel_jobs.hpp"

namespace {

using namespace clusterlens;
using bench::Job;
using Clock = std::chrono::steady_clock;

struct Measured {
    std::vector<double> latenciesMs;
    int finishedFirst = 0;
};

/// One run: start, wait `after`, cancel, time until the worker returns. False when the job ended
/// before the cancel.
bool measureOnce(const Job& job, std::chrono::milliseconds after, Measured& out) {
    JobControl control;
    std::atomic<bool> done{false};
    std::exception_ptr failure;
    std::thread worker([&] {
        try {
            job.run(control);
        } catch (const Cancelled&) {
        } catch (...) {
            failure = std::current_exception();
        }
        done.store(true);
    });
    const Clock::time_point deadline = Clock::now() + after;
    while (!done.load() && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const bool finishedFirst = done.load();
    const Clock::time_point cancelled = Clock::now();
    control.cancel();
    worker.join();
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - cancelled).count();
    if (failure) std::rethrow_exception(failure);
    if (finishedFirst)
        ++out.finishedFirst;
    else
        out.latenciesMs.push_back(ms);
    return !finishedFirst;
}

double median(std::vector<double> v) {
    if (v.empty()) return -1;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

/// DPC, VAT and k-means through the engine's entry points on `backend` (as the GUI runs them), named
/// "... (cpu)" or "... (cuda)".
std::vector<Job> algorithmJobs(const Dataset& data, Backend backend) {
    const float* x = data.values.data();
    const std::size_t n = data.n, d = data.d;
    const std::string on = backend == Backend::Cuda ? " (cuda)" : " (cpu)";
    return {
        {"DPC" + on, [=](JobControl& c) { densityPeaks(x, n, d, DensityPeaksOptions{}, backend, &c); }},
        {"VAT" + on,
         [=](JobControl& c) {
             VatOptions options;
             options.backend = backend;
             computeVat(x, n, d, options, &c);
         }},
        {"k-means k=20" + on,
         [=](JobControl& c) {
             KMeansOptions options;
             options.k = 20;
             kmeans(x, n, d, options, backend, &c);
         }},
    };
}

std::vector<Job> makeJobs(const Dataset& data, const std::vector<double>& exact, const std::string& folder) {
    const float* x = data.values.data();
    const std::size_t n = data.n, d = data.d;
    const std::string csv = folder + "/data.csv", fcs = folder + "/data.fcs";
    writeCsv(csv, data);
    writeFcs(fcs, data);
    auto exportJob = [fcs](std::string out) {
        return [fcs, out](JobControl& c) {
            ReadOptions options;
            options.control = &c;
            const ExportSource source = ExportSource::open(fcs, options);
            ExportSelection selection;
            selection.control = &c;
            exportEvents(out, source, selection);
        };
    };
    std::vector<Job> jobs{
        bench::readFileJob("read CSV", csv),
        bench::readFileJob("read FCS", fcs),
        {"export FCS", exportJob(folder + "/out.fcs")},
        {"export CSV", exportJob(folder + "/out.csv")},
        {"MHCA (cpu)", [&exact, n, d](JobControl& c) { mhcaCpu(exact.data(), n, d, MhcaOptions{}, &c); }},
        {"single linkage (cpu)", [=](JobControl& c) { classicLinkageCpu(x, n, d, LinkageMethod::Single, &c); }},
    };
    for (Job& job : bench::hdf5ReadJobs(data, folder, csv)) jobs.push_back(std::move(job));
    for (Job& job : bench::documentJobs(data, folder, csv, fcs)) jobs.push_back(std::move(job));
    for (Job& job : bench::transformJobs(data)) jobs.push_back(std::move(job));
    for (Job& job : algorithmJobs(data, Backend::Cpu)) jobs.push_back(std::move(job));
    return jobs;
}

/// The same algorithms under Backend::Cuda, MHCA as the GUI and the CLI run it.
std::vector<Job> makeCudaJobs(const Dataset& data) {
    std::vector<Job> jobs = algorithmJobs(data, Backend::Cuda);
    jobs.push_back(
        {"MHCA (cuda)", [&data](JobControl& c) { clusterHierarchically(data, HcaRequest{}, Backend::Cuda, &c); }});
    return jobs;
}

/// One job's JSON entry and stderr line: its latencies, or why it was not measured.
std::string measureJob(const Job& job, std::chrono::milliseconds after, int repeat) {
    std::ostringstream out;
    out << "{\"job\": \"" << job.name << "\"";
    Measured measured;
    try {
        if (job.prepare) job.prepare();
        for (int r = 0; r < repeat;) {
            if (measureOnce(job, after, measured))
                ++r;
            else if (after > std::chrono::milliseconds(5))
                after /= 2;
            else
                break;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%-22s error: %s\n", job.name.c_str(), e.what());
        std::string message = e.what();
        std::replace(message.begin(), message.end(), '"', '\'');
        out << ", \"error\": \"" << message << "\"}";
        return out.str();
    }
    std::fprintf(stderr, "%-26s median %.1f ms (cancelled after %lld ms)\n", job.name.c_str(),
                 median(measured.latenciesMs), static_cast<long long>(after.count()));
    out << ", \"latency_ms\": " << median(measured.latenciesMs) << ", \"latencies_ms\": [";
    for (std::size_t k = 0; k < measured.latenciesMs.size(); ++k) out << (k ? ", " : "") << measured.latenciesMs[k];
    out << "], \"finished_first\": " << measured.finishedFirst << ", \"cancelled_after_ms\": " << after.count() << "}";
    return out.str();
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t n = 1'000'000, d = 14;
    int afterMs = 500, repeat = 3;
    std::string filter;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--n" && hasValue)
            n = std::stoull(argv[++i]);
        else if (arg == "--d" && hasValue)
            d = std::stoull(argv[++i]);
        else if (arg == "--after-ms" && hasValue)
            afterMs = std::stoi(argv[++i]);
        else if (arg == "--repeat" && hasValue)
            repeat = std::stoi(argv[++i]);
        else if (arg == "--filter" && hasValue)
            filter = argv[++i];
        else {
            std::cerr
                << "usage: clusterlens-cancel-bench [--n N] [--d D] [--after-ms MS] [--repeat R] [--filter SUBSTR]\n";
            return 2;
        }
    }
    try {
        SyntheticOptions synthetic;
        synthetic.n = n;
        synthetic.d = d;
        const Dataset data = makeCytometryLike(synthetic);
        const std::vector<double> exact(data.values.begin(), data.values.end());
        const std::filesystem::path folder =
            std::filesystem::temp_directory_path() / ("clusterlens-cancel-bench-" + std::to_string(::getpid()));
        std::filesystem::create_directories(folder);
        std::ostringstream jobs;
        auto wanted = [&](const Job& job) { return filter.empty() || job.name.find(filter) != std::string::npos; };
        auto add = [&](const std::string& entry) { jobs << (jobs.tellp() > 0 ? ",\n    " : "    ") << entry; };
        // The file jobs write their files first (seconds at 1M): not for a filter that names CUDA jobs only.
        if (filter.find("(cuda)") == std::string::npos)
            for (const Job& job : makeJobs(data, exact, folder.string()))
                if (wanted(job)) add(measureJob(job, std::chrono::milliseconds(afterMs), repeat));
        std::filesystem::remove_all(folder);
        const bool cuda = cudaAvailable();
        for (const Job& job : makeCudaJobs(data)) {
            if (!wanted(job)) continue;
            if (cuda) {
                add(measureJob(job, std::chrono::milliseconds(afterMs), repeat));
            } else {
                std::fprintf(stderr, "%-22s skipped: no CUDA device\n", job.name.c_str());
                add("{\"job\": \"" + job.name + "\", \"skipped\": \"no CUDA device\"}");
            }
        }
        std::cout << "{\"n\": " << n << ", \"d\": " << d << ", \"after_ms\": " << afterMs
                  << ", \"cpu_threads\": " << cpuThreadCount() << ", \"device\": \""
                  << backendDescription(resolveBackend(Backend::Auto)) << "\", \"date\": \"" << today()
                  << "\",\n  \"jobs\": [\n"
                  << jobs.str() << "\n  ]}\n";
    } catch (const std::exception& e) {
        std::cerr << "clusterlens-cancel-bench: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
