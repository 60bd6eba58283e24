// clusterlens-cli dpc INPUT [--dc X | --dc-percent P] [--kernel cutoff|gaussian] --out DPC.csv
//                 [--peaks-top K | --peaks i,j,...] [--labels-out LABELS.csv] [--halo]

#include <charconv>
#include <cstdio>

#include "args.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/density_peaks_cuda.hpp"
#endif
#include "commands.hpp"
#include "input.hpp"
#include "json.hpp"
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
    options.index = parseSpatialIndex(args.choice("--index", {"auto", "none", "grid"}, "auto"));
    return options;
}

std::vector<std::int64_t> peakList(const Args& args, std::size_t n) {
    std::vector<std::int64_t> peaks;
    for (const std::string& item : args.list("--peaks")) {
        std::int64_t v = 0;
        auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
        if (ec != std::errc() || ptr != item.data() + item.size() || v < 0 || static_cast<std::size_t>(v) >= n)
            throw UsageError("--peaks: '" + item + "' is not a point index in 0.." + std::to_string(n - 1));
        peaks.push_back(v);
    }
    return peaks;
}

void writeDpcCsv(const std::string& path, const DensityPeaksResult& r) {
    std::FILE* file = std::fopen(path.c_str(), "w");
    if (!file) throwFileError(path, "", "cannot open the file for writing");
    std::fprintf(file, "index,rho,delta,nearest_higher,gamma\n");
    for (std::size_t i = 0; i < r.rho.size(); ++i)
        std::fprintf(file, "%zu,%.17g,%.17g,%lld,%.17g\n", i, r.rho[i], r.delta[i],
                     static_cast<long long>(r.nearestHigher[i]), r.gamma[i]);
    if (std::fclose(file) != 0) throwFileError(path, "", "write failed (disk full?)");
}

} // namespace

int runDpc(const Arguments& argv) {
    Args args(argv, with(kCommonFlags, {"--halo"}),
              with(kCommonValued, {"--dc", "--dc-percent", "--dc-method", "--kernel", "--out", "--peaks-top", "--peaks",
                                   "--labels-out", "--index"}));
    args.expectPositional({"INPUT"});
    const std::string out = args.required("--out");
    const DensityPeaksOptions options = optionsFrom(args);
    if (args.has("--peaks-top") && args.has("--peaks")) throw UsageError("--peaks-top and --peaks cannot be combined");
    if ((args.has("--labels-out") || args.flag("--halo")) && !args.has("--peaks-top") && !args.has("--peaks"))
        throw UsageError("--labels-out and --halo need peaks: --peaks-top K or --peaks i,j,...");
    const Backend backend = backendFrom(args);
    if (backend == Backend::Cuda && options.index == SpatialIndex::Grid)
        throw UsageError("--index grid runs on the CPU; add --backend cpu (the GPU passes are all-pairs)");
    Stopwatch readClock;
    const Dataset data = loadInput(args.positional()[0], args);
    const double readSeconds = readClock.seconds();
    std::vector<std::int64_t> peaks = peakList(args, data.n);
    if (args.has("--peaks-top") && (args.count("--peaks-top", 0) < 1 || args.count("--peaks-top", 0) > data.n))
        throw UsageError("--peaks-top must lie in 1.." + std::to_string(data.n));

    Stopwatch clock;
#ifdef CLUSTERLENS_HAVE_CUDA
    const DensityPeaksResult r = backend == Backend::Cuda ? densityPeaksCuda(data.values.data(), data.n, data.d, options)
                                                          : densityPeaksCpu(data.values.data(), data.n, data.d, options);
#else
    const DensityPeaksResult r = densityPeaksCpu(data.values.data(), data.n, data.d, options);
#endif
    const double densitySeconds = clock.seconds();
    writeDpcCsv(out, r);
    if (args.has("--peaks-top")) peaks = peaksTopK(r, args.count("--peaks-top", 1));
    Json seconds = Json::object();
    seconds.set("read", readSeconds).set("dc", r.secondsDc).set("rho", r.secondsRho).set("delta", r.secondsDelta)
        .set("density_peaks", densitySeconds);
    std::vector<std::int32_t> labels;
    if (!peaks.empty()) {
        Stopwatch assignClock;
        labels = assignFromPeaks(r, peaks);
        seconds.set("assign", assignClock.seconds());
        if (args.flag("--halo")) {
            Stopwatch haloClock;
#ifdef CLUSTERLENS_HAVE_CUDA
            if (backend == Backend::Cuda)
                labels = applyHaloCuda(data.values.data(), data.n, data.d, r, labels, r.dc.value);
            else
#endif
                labels = applyHalo(data.values.data(), data.n, data.d, r, labels, r.dc.value);
            seconds.set("halo", haloClock.seconds());
        }
        if (args.has("--labels-out")) writeLabelsCsv(args.value("--labels-out"), labels);
    }
    if (args.flag("--json")) {
        Json peakJson = Json::array();
        for (std::int64_t p : peaks) peakJson.push(p);
        std::printf("%s\n", Json::object()
                                .set("n", data.n)
                                .set("d", data.d)
                                .set("dc", r.dc.value)
                                .set("dc_method", r.dc.method)
                                .set("dc_percent", r.dc.percent)
                                .set("kernel", options.kernel == DensityKernel::Cutoff ? "cutoff" : "gaussian")
                                .set("index", r.index)
                                .set("peaks", peakJson)
                                .set("suggested_peaks", suggestPeakCount(r))
                                .set("backend", backendDescription(backend))
                                .set("seconds", seconds)
                                .dump()
                                .c_str());
    }
    return 0;
}

} // namespace clusterlens::cli
