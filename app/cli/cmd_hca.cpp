// clusterlens-cli hca INPUT --linkage ... --out LINKAGE.csv [--session FILE [--name NAME] [--population NAME]]
// [--profile] [--gpus all|N] (DESIGN.md command-line contract). On a population, LINKAGE.csv keeps scipy's convention
// over its m members: leaf k is the k-th member in ascending order. --profile: what the GPU MHCA did
// (MhcaProbe: counts, phase and kernel stage times) on stderr; a profiled run synchronises between its
// stages, so it is slower.

#include <cstdio>
#include <utility>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/fix_monotonic.hpp"
#include "clusterlens/hca/hca.hpp"
#include "clusterlens/hca/hca_result_name.hpp"
#include "clusterlens/hca/mhca_probe.hpp"
#include "clusterlens/io/labels.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "json.hpp"
#include "progress.hpp"
#include "session_run.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {
namespace {

HcaRequest requestFrom(const Args& args, std::size_t n) {
    HcaRequest request;
    const std::string linkage = args.choice(
        "--linkage", {"mahalanobis", "single", "complete", "average", "weighted", "centroid", "median", "ward"},
        "mahalanobis");
    request.mahalanobis = linkage == "mahalanobis";
    try {
        if (!request.mahalanobis) request.method = parseLinkageMethod(linkage);
        request.mhca.variant = parseMhcaVariant(args.choice("--variant", {"full", "centroid"}, "full"));
        request.mhca.subthreshold = parseSubthresholdMode(
            args.choice("--subthreshold", {"mahal", "mahal0", "euclid", "euclid-mahal"}, "mahal"));
    } catch (const InvalidInput& e) {
        throw UsageError(e.what());
    }
    request.mhca.threshold = args.number("--threshold", 0.5);
    if (!(request.mhca.threshold > 0.0 && request.mhca.threshold <= 1.0))
        throw UsageError("--threshold must lie in (0, 1], got " + args.value("--threshold"));
    request.mhca.normalize = args.flag("--normalize");
    request.aprioriKMeans = args.count("--apriori-kmeans", 0);
    request.seed = args.count("--seed", 1);
    if (args.has("--apriori") && args.has("--apriori-kmeans"))
        throw UsageError("--apriori and --apriori-kmeans cannot be combined");
    if (args.has("--apriori-kmeans") && request.aprioriKMeans == 0) throw UsageError("--apriori-kmeans needs K >= 1");
    if (request.aprioriKMeans > n)
        throw UsageError("--apriori-kmeans: K = " + std::to_string(request.aprioriKMeans) + " exceeds the " +
                         std::to_string(n) + " points");
    if (!request.mahalanobis && (args.has("--apriori") || args.has("--apriori-kmeans") || args.has("--variant") ||
                                 args.has("--subthreshold") || args.flag("--normalize") || args.has("--threshold")))
        throw UsageError(
            "--variant, --threshold, --subthreshold, --normalize and --apriori apply to --linkage mahalanobis only");
    if (args.has("--gpus")) {
        if (!request.mahalanobis) throw UsageError("--gpus spreads MHCA's a-priori groups; use --linkage mahalanobis");
        if (backendFrom(args) == Backend::Cpu) throw UsageError("--gpus needs the GPU backend, not --backend cpu");
        try {
            request.mhca.cudaDevices = parseGpus(args.value("--gpus"));
        } catch (const InvalidInput& e) {
            throw UsageError(e.what());
        }
    }
    return request;
}

/// --apriori FILE: one group per event of the whole dataset, kept for the analysed events.
std::vector<std::int32_t> aprioriGroups(const std::string& path, const SessionRun& run, const Dataset& data) {
    std::vector<std::int32_t> groups = readLabels(path, run.eventCount());
    if (!run.onPopulation()) return groups;
    std::vector<std::int32_t> kept(data.n);
    for (std::size_t k = 0; k < data.n; ++k)
        kept[k] = groups[static_cast<std::size_t>(run.indexOf(static_cast<std::int64_t>(k)))];
    return kept;
}

/// --profile's report on stderr: the probe's counts and lines, or why there are none.
void printProfile(const MhcaProbe& probe, const std::string& backend) {
    if (probe.merges == 0) {
        std::fprintf(stderr,
                     "clusterlens-cli: --profile: nothing to report (%s ran; the probe is filled by the GPU MHCA)\n",
                     backend.c_str());
        return;
    }
    std::fprintf(
        stderr,
        "[mhca probe] %zu merges, %zu persistent launches, %zu switch steps, %zu key shifts, %zu merges updated "
        "again for a shift, %zu speculated shapes taken (%zu from the growth kernel)\n%s",
        probe.merges, probe.persistentLaunches, probe.switchSteps, probe.keyShifts, probe.mergesUpdatedAgain,
        probe.speculatedShapesTaken, probe.growthShapesTaken, probe.report.c_str());
}

}  // namespace

int hcaCommand(const Arguments& argv) {
    Args args(argv, with(kCommonFlags, {"--normalize", "--profile"}),
              with(with(kCommonValued, {"--linkage", "--variant", "--threshold", "--subthreshold", "--apriori",
                                        "--apriori-kmeans", "--out", "--fix-monotonic", "--gpus"}),
                   kSessionValued));
    args.expectPositional({"INPUT"});
    const std::string out = args.required("--out");
    const Backend backend = backendFrom(args);
    Stopwatch readClock;
    Dataset input = loadInput(args.positional()[0], args);
    SessionRun run(args, argv, "hca", args.positional()[0], input);
    const Dataset data = run.restrict(std::move(input));
    const double readSeconds = readClock.seconds();
    HcaRequest request = requestFrom(args, data.n);
    if (args.has("--apriori")) request.mhca.apriori = aprioriGroups(args.value("--apriori"), run, data);
    MhcaProbe probe;
    if (args.flag("--profile")) {
        if (!request.mahalanobis) throw UsageError("--profile applies to --linkage mahalanobis only");
        request.mhca.probe = &probe;
    }
    if (data.n < 2)
        throw InvalidInput(data.provenance.path + ": clustering needs at least 2 points, the data has " +
                           std::to_string(data.n));

    Stopwatch clusterClock;
    Computed<Linkage> computed = [&] {
        ProgressLine progress(args, "hca");
        return clusterHierarchically(data, request, backend, progress.control());
    }();
    printWarnings(computed.warnings);
    if (request.mhca.probe) printProfile(probe, backendDescription(computed.backend));
    Linkage linkage = std::move(computed.result);
    const double clusterSeconds = clusterClock.seconds();
    const std::size_t inversions = linkage.inversionCount();
    const bool fix = args.has("--fix-monotonic");
    if (fix)
        linkage =
            fixNonMonotonic(linkage, parseMonotonicFix(args.choice("--fix-monotonic", {"eps", "halfway"}, "eps")));
    writeLinkageCsv(out, linkage);
    run.save([&](Session& session) {
        putNamed(session.linkages, LinkageResult{run.info(hcaResultName(request), data), linkage});
    });
    if (inversions > 0 && !fix)
        std::fprintf(stderr,
                     "clusterlens-cli: warning: %zu inversions (merges lower than a cluster they join); "
                     "--fix-monotonic eps|halfway repairs them as mhca's fixNonMonotHca\n",
                     inversions);
    if (args.flag("--json")) {
        Json json = Json::object();
        json.set("n", data.n)
            .set("d", data.d)
            .set("linkage", args.value("--linkage", "mahalanobis"))
            .set("merges", linkage.merges.size())
            .set("non_monotonic", inversions)
            .set("fixed", fix)
            .set("out", out)
            .set("backend", backendDescription(computed.backend))
            .set("seconds", Json::object().set("read", readSeconds).set("cluster", clusterSeconds));
        std::printf("%s\n", json.dump().c_str());
    }
    return 0;
}

}  // namespace clusterlens::cli
