// clusterlens-cli dpc INPUT [--dc X | --dc-percent P] [--kernel cutoff|gaussian] --out DPC.csv
//                 [--peaks-top K | --peaks i,j,...] [--labels-out LABELS.csv] [--halo]
//                 [--dc-sweep LO:HI:STEPS] [--gpus all|N] [--session FILE [--name NAME] [--population NAME]]
// Across hosts: mpirun -np R clusterlens-cli dpc ... --gpus 1 (one rank per GPU; mpi_ranks.hpp).

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>
#include <utility>

#include "args.hpp"
#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/dpc_csv.hpp"
#include "clusterlens/io/labels.hpp"
#include "commands.hpp"
#include "dpc_sweep.hpp"
#include "input.hpp"
#include "json.hpp"
#include "mpi_ranks.hpp"
#include "progress.hpp"
#include "session_run.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {
namespace {

DensityPeaksOptions optionsFrom(const Args& args) {
    DensityPeaksOptions options;
    if (args.has("--dc") && args.has("--dc-percent")) throw UsageError("--dc and --dc-percent cannot be combined");
    if (args.has("--dc")) {
        options.dc = args.number("--dc", 0.0);
        if (!(*options.dc > 0.0)) throw UsageError("--dc must be a positive distance");
    }
    options.dcPercent = args.number("--dc-percent", 2.0);
    if (!(options.dcPercent > 0.0 && options.dcPercent < 100.0)) throw UsageError("--dc-percent must lie in (0, 100)");
    options.exactPercentile = args.choice("--dc-method", {"exact", "sampled"}, "exact") == "exact";
    options.kernel = args.choice("--kernel", {"cutoff", "gaussian"}, "gaussian") == "cutoff" ? DensityKernel::Cutoff
                                                                                             : DensityKernel::Gaussian;
    options.seed = args.count("--seed", 1);
    options.index = parseSpatialIndex(args.choice("--index", {"auto", "none", "grid", "tree"}, "auto"));
    if (args.has("--gpus")) {
        if (backendFrom(args) == Backend::Cpu) throw UsageError("--gpus needs the GPU backend, not --backend cpu");
        if (options.index == SpatialIndex::Grid || options.index == SpatialIndex::Tree)
            throw UsageError("--gpus spreads the all-pairs GPU passes; --index grid and tree run on the CPU");
        try {
            options.cudaDevices = parseGpus(args.value("--gpus"));
        } catch (const InvalidInput& e) {
            throw UsageError(e.what());
        }
    }
    return options;
}

/// Under mpirun: what a run across ranks cannot do (checked before MPI starts): the GPU backend only
/// (a rank that fell back to the CPU would leave the others waiting), one GPU per rank, one run.
void checkRankOptions(bool sweep, Backend backend, const DensityPeaksOptions& options) {
    if (sweep) throw UsageError("--dc-sweep runs in one process; start it without mpirun");
    if (backend == Backend::Cpu) throw UsageError("under mpirun every rank drives a GPU; leave out --backend cpu");
    if (options.cudaDevices.size() > 1)
        throw UsageError("--gpus: under mpirun each rank drives one GPU; use --gpus 1 and start one rank per GPU");
    if (options.index == SpatialIndex::Grid || options.index == SpatialIndex::Tree)
        throw UsageError("--index grid and tree run on the CPU, in one process; start them without mpirun");
}

/// This rank's share of the passes on its host's GPU number hostRank() (modulo the host's GPUs).
void spreadOverRanks(ProcessGroup& ranks, Backend& backend, DensityPeaksOptions& options) {
    const int gpus = cudaDeviceCount();
    if (gpus == 0)
        throw UsageError("mpirun: rank " + std::to_string(ranks.rank()) + " is on a host without a CUDA device");
    options.cudaDevices = {hostRank() % gpus};
    options.processes = &ranks;
    backend = Backend::Cuda;
}

/// --peaks as positions among the analysed events; the user names whole-dataset indices.
std::vector<std::int64_t> peakList(const Args& args, const SessionRun& run) {
    std::vector<std::int64_t> peaks;
    for (const std::string& item : args.list("--peaks")) {
        std::int64_t v = 0;
        auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
        const std::int64_t position = ec == std::errc() && ptr == item.data() + item.size() ? run.positionOf(v) : -1;
        if (position < 0)
            throw UsageError("--peaks: '" + item + "' is not the index of an analysed event (0.." +
                             std::to_string(run.eventCount() - 1) + (run.onPopulation() ? ", in --population" : "") +
                             ")");
        peaks.push_back(position);
    }
    return peaks;
}

std::string defaultName(const DensityPeaksOptions& options) {
    char dc[64];
    if (options.dc)
        std::snprintf(dc, sizeof dc, "%g", *options.dc);
    else
        std::snprintf(dc, sizeof dc, "%g%%", options.dcPercent);
    return std::string("DPC dc=") + dc + (options.kernel == DensityKernel::Cutoff ? " cutoff" : " gaussian");
}

/// The result as the session stores it and DPC.csv shows it: whole-dataset indices.
DpcResult dpcEntry(const DensityPeaksResult& r, const SessionRun& run, ResultInfo info) {
    DpcResult entry;
    entry.info = std::move(info);
    entry.dc = r.dc.value;
    entry.dcPercent = r.dc.percent;
    entry.dcMethod = r.dc.method;
    entry.kernel = r.kernel == DensityKernel::Cutoff ? "cutoff" : "gaussian";
    entry.rho = r.rho;
    entry.delta = r.delta;
    entry.gamma = r.gamma;
    for (std::int64_t j : r.nearestHigher) entry.nearestHigher.push_back(run.indexOf(j));
    return entry;
}

/// Labels of the chosen peaks per analysed event (-1 = halo with --halo); adds their timings.
std::vector<std::int32_t> peakLabels(const Args& args, const Dataset& data, const DensityPeaksResult& r,
                                     const std::vector<std::int64_t>& peaks, Backend backend,
                                     const std::vector<int>& devices, Json& seconds) {
    Stopwatch assignClock;
    std::vector<std::int32_t> labels = assignFromPeaks(r, peaks);
    seconds.set("assign", assignClock.seconds());
    if (!args.flag("--halo")) return labels;
    Stopwatch haloClock;
    Computed<std::vector<std::int32_t>> halo =
        applyHalo(data.values.data(), data.n, data.d, r, labels, r.dc.value, backend, nullptr, devices);
    printWarnings(halo.warnings);
    seconds.set("halo", haloClock.seconds());
    return std::move(halo.result);
}

void printJson(const Dataset& data, const DensityPeaksResult& r, const DpcResult& entry, Backend backend,
               std::size_t gpus, const Json& seconds, const std::optional<DcSweepJson>& sweep) {
    Json peakJson = Json::array();
    for (std::int64_t p : entry.peaks) peakJson.push(p);
    Json json = Json::object()
                    .set("n", data.n)
                    .set("d", data.d)
                    .set("dc", r.dc.value)
                    .set("dc_method", r.dc.method)
                    .set("dc_percent", r.dc.percent)
                    .set("kernel", entry.kernel)
                    .set("index", r.index)
                    .set("peaks", peakJson)
                    .set("suggested_peaks", suggestPeakCount(r))
                    .set("backend", backendDescription(backend))
                    .set("gpus", backend == Backend::Cuda ? std::max<std::size_t>(1, gpus) : 0)
                    .set("seconds", seconds);
    if (sweep) json.set("sweep", sweep->sweep).set("persistence", sweep->persistence);
    std::printf("%s\n", json.dump().c_str());
}

}  // namespace

int dpcCommand(const Arguments& argv) {
    Args args(argv, with(kCommonFlags, {"--halo"}),
              with(with(kCommonValued, {"--dc", "--dc-percent", "--dc-method", "--kernel", "--out", "--peaks-top",
                                        "--peaks", "--labels-out", "--index", "--dc-sweep", "--gpus"}),
                   kSessionValued));
    args.expectPositional({"INPUT"});
    const std::string out = args.required("--out");
    DensityPeaksOptions options = optionsFrom(args);
    if (args.has("--peaks-top") && args.has("--peaks")) throw UsageError("--peaks-top and --peaks cannot be combined");
    if ((args.has("--labels-out") || args.flag("--halo")) && !args.has("--peaks-top") && !args.has("--peaks"))
        throw UsageError("--labels-out and --halo need peaks: --peaks-top K or --peaks i,j,...");
    const std::optional<DcSweepRequest> sweepRequest = dcSweepRequest(args);
    if (sweepRequest && options.dc) throw UsageError("--dc-sweep chooses dc itself; it cannot be combined with --dc");
    if (sweepRequest && !args.has("--peaks-top") && !args.has("--peaks"))
        throw UsageError("--dc-sweep judges a choice of peaks: add --peaks-top K or --peaks i,j,...");
    Backend backend = backendFrom(args);
    if (launchedAsRanks()) checkRankOptions(sweepRequest.has_value(), backend, options);
    ProcessGroup* const ranks = launchedRanks();
    if (ranks) spreadOverRanks(*ranks, backend, options);
    if (backend == Backend::Cuda && options.index == SpatialIndex::Grid)
        throw UsageError("--index grid runs on the CPU; add --backend cpu (the GPU passes are all-pairs)");
    Stopwatch readClock;
    Dataset input = loadInput(args.positional()[0], args);
    SessionRun run(args, argv, "dpc", args.positional()[0], input);
    const Dataset data = run.restrict(std::move(input));
    const double readSeconds = readClock.seconds();
    std::vector<std::int64_t> peaks = peakList(args, run);
    if (args.has("--peaks-top") && (args.count("--peaks-top", 0) < 1 || args.count("--peaks-top", 0) > data.n))
        throw UsageError("--peaks-top must lie in 1.." + std::to_string(data.n));

    Stopwatch clock;
    const bool quietRank = ranks && ranks->rank() != 0;
    const Computed<DensityPeaksResult> computed = [&] {
        if (quietRank) return densityPeaks(data.values.data(), data.n, data.d, options, backend, nullptr);
        ProgressLine progress(args, "dpc");
        return densityPeaks(data.values.data(), data.n, data.d, options, backend, progress.control());
    }();
    if (quietRank) return 0;  // rank 0 holds the result and writes the outputs
    printWarnings(computed.warnings);
    const DensityPeaksResult& r = computed.result;
    Json seconds = Json::object();
    seconds.set("read", readSeconds)
        .set("dc", r.secondsDc)
        .set("rho", r.secondsRho)
        .set("delta", r.secondsDelta)
        .set("density_peaks", clock.seconds());
    DpcResult entry = dpcEntry(r, run, run.info(defaultName(options), data));
    writeDpcCsv(out, entry);
    if (args.has("--peaks-top")) peaks = peaksTopK(r, args.count("--peaks-top", 1));
    std::vector<std::int32_t> labels;
    if (!peaks.empty()) labels = peakLabels(args, data, r, peaks, computed.backend, options.cudaDevices, seconds);
    for (std::int64_t p : peaks) entry.peaks.push_back(run.indexOf(p));
    if (args.flag("--halo"))
        for (std::int32_t label : labels) entry.halo.push_back(label == -1 ? 1 : 0);
    std::optional<DcSweepJson> sweep;
    if (sweepRequest) sweep = runDcSweep(args, data, options, *sweepRequest, r, peaks, run, computed.backend, seconds);
    if (!labels.empty()) labels = run.wholeLabels(std::move(labels));
    if (args.has("--labels-out")) writeLabelsCsv(args.value("--labels-out"), labels);
    run.save([&](Session& session) {
        if (!labels.empty()) putNamed(session.labelings, LabelingResult{entry.info, labels, {}, {}});
        putNamed(session.dpc, entry);
    });
    if (args.flag("--json"))
        printJson(data, r, entry, computed.backend,
                  ranks ? static_cast<std::size_t>(ranks->size()) : options.cudaDevices.size(), seconds, sweep);
    return 0;
}

}  // namespace clusterlens::cli
