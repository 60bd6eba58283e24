// clusterlens-cli kmeans INPUT -k K [--seed S] [--max-iterations M] [--gpus all|N] --labels-out LABELS.csv
//                 [--session FILE [--name NAME] [--population NAME]]

#include <algorithm>
#include <cstdio>

#include "args.hpp"
#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "json.hpp"
#include "progress.hpp"
#include "session_run.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {

int kMeansCommand(const Arguments& argv) {
    Args args(argv, kCommonFlags,
              with(with(kCommonValued, {"-k", "--k", "--labels-out", "--max-iterations", "--gpus"}), kSessionValued));
    args.expectPositional({"INPUT"});
    const std::string out = args.required("--labels-out");
    const std::string kOption = args.has("-k") ? "-k" : "--k";
    KMeansOptions options;
    options.k = args.count(kOption, 0);
    if (options.k == 0) throw UsageError("-k K is required (K >= 1)");
    options.seed = args.count("--seed", 1);
    options.maxIterations = args.count("--max-iterations", 300);
    const Backend backend = backendFrom(args);
    if (args.has("--gpus")) {
        if (backend == Backend::Cpu) throw UsageError("--gpus needs the GPU backend, not --backend cpu");
        try {
            options.cudaDevices = parseGpus(args.value("--gpus"));
        } catch (const InvalidInput& e) {
            throw UsageError(e.what());
        }
    }
    Stopwatch readClock;
    Dataset input = loadInput(args.positional()[0], args);
    SessionRun run(args, argv, "kmeans", args.positional()[0], input);
    const Dataset data = run.restrict(std::move(input));
    const double readSeconds = readClock.seconds();
    if (options.k > data.n)
        throw UsageError("-k " + std::to_string(options.k) + " exceeds the " + std::to_string(data.n) + " points");
    Stopwatch clock;
    const Computed<KMeansResult> computed = [&] {
        ProgressLine progress(args, "kmeans");
        return kmeans(data.values.data(), data.n, data.d, options, backend, progress.control());
    }();
    printWarnings(computed.warnings);
    const KMeansResult& result = computed.result;
    const double seconds = clock.seconds();
    const std::vector<std::int32_t> labels = run.wholeLabels(result.labels);
    writeLabelsCsv(out, labels);
    const std::string name = "k-means k=" + std::to_string(options.k) + " seed " + std::to_string(options.seed);
    run.save([&](Session& session) {
        putNamed(session.labelings, LabelingResult{run.info(name, data), labels, {}, {}});
    });
    if (args.flag("--json"))
        std::printf("%s\n", Json::object()
                                .set("n", data.n)
                                .set("d", data.d)
                                .set("k", options.k)
                                .set("inertia", result.inertia)
                                .set("iterations", result.iterations)
                                .set("backend", backendDescription(computed.backend))
                                .set("gpus", computed.backend == Backend::Cuda
                                                 ? std::max<std::size_t>(1, options.cudaDevices.size())
                                                 : 0)
                                .set("seconds", Json::object().set("read", readSeconds).set("kmeans", seconds))
                                .dump()
                                .c_str());
    return 0;
}

}  // namespace clusterlens::cli
