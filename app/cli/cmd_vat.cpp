// clusterlens-cli vat INPUT [--metric euclidean|sqeuclidean|manhattan|cosine] [--precomputed] --out ORDER.csv
//                 [--index auto|allpairs|tree]
//                 [--image OUT.png [--size 1024] [--ivat] [--pixel representative|mean]
//                  [--colormap grey|viridis|magma] [--reverse] [--clip 1,99] [--gamma 1]]
//                 [--cut-k K [--labels-out LABELS.csv]] [--session FILE [--name NAME] [--population NAME]]

#include <charconv>
#include <cstdio>
#include <vector>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/write_png.hpp"
#include "clusterlens/vat/colormap.hpp"
#include "clusterlens/vat/vat.hpp"
#include "clusterlens/vat/viewport.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "json.hpp"
#include "progress.hpp"
#include "result_csv.hpp"
#include "session_run.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {
namespace {

constexpr const char* kImageOptions[] = {"--size", "--pixel", "--colormap", "--clip", "--gamma"};

struct ImageRequest {
    std::string path;
    int size = 1024;
    VatImageKind kind = VatImageKind::Vat;
    VatPixelMode mode = VatPixelMode::Representative;
    Colormap colormap = Colormap::Grey;
    bool reversed = false;
    double clipLow = 1.0, clipHigh = 99.0;
    double gamma = 1.0;
};

ImageRequest imageRequestFrom(const Args& args) {
    ImageRequest r;
    if (!args.has("--image")) {
        for (const char* option : kImageOptions)
            if (args.has(option)) throw UsageError(std::string(option) + " needs --image OUT.png");
        for (const char* flag : {"--ivat", "--reverse"})
            if (args.flag(flag)) throw UsageError(std::string(flag) + " needs --image OUT.png");
        return r;
    }
    r.path = args.value("--image");
    const std::uint64_t size = args.count("--size", 1024);
    if (size < 1 || size > 16384) throw UsageError("--size must lie in 1..16384 pixels");
    r.size = static_cast<int>(size);
    r.kind = args.flag("--ivat") ? VatImageKind::Ivat : VatImageKind::Vat;
    r.mode = args.choice("--pixel", {"representative", "mean"}, "representative") == "mean"
                 ? VatPixelMode::BlockMean
                 : VatPixelMode::Representative;
    r.colormap = parseColormap(args.choice("--colormap", {"grey", "gray", "viridis", "magma"}, "grey"));
    r.reversed = args.flag("--reverse");
    if (args.has("--clip")) {
        const std::vector<std::string> parts = args.list("--clip");
        const auto parse = [](const std::string& text, double& value) {
            auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            return ec == std::errc() && ptr == text.data() + text.size();
        };
        if (parts.size() != 2 || !parse(parts[0], r.clipLow) || !parse(parts[1], r.clipHigh) ||
            !(r.clipLow >= 0.0 && r.clipLow < r.clipHigh && r.clipHigh <= 100.0))
            throw UsageError("--clip takes two percentiles LOW,HIGH with 0 <= LOW < HIGH <= 100, e.g. 1,99");
    }
    r.gamma = args.number("--gamma", 1.0);
    if (!(r.gamma > 0.0 && r.gamma < 1e6)) throw UsageError("--gamma must be a positive number");
    return r;
}

/// The ordering as the session stores it and ORDER.csv shows it: whole-dataset indices.
VatEntry vatEntry(const VatResult& vat, const SessionRun& run, ResultInfo info, bool precomputed) {
    VatEntry entry{std::move(info), precomputed ? "precomputed" : metricName(vat.metric), {}, vat.cut};
    for (std::int64_t position : vat.order) entry.order.push_back(run.indexOf(position));
    return entry;
}

/// --cut-k K: the clusters of the K-1 largest cuts as whole-dataset labels (written to --labels-out);
/// adds the cut positions to `result`.
std::vector<std::int32_t> cutLabels(const Args& args, const VatResult& vat, const SessionRun& run, Json& result) {
    const std::size_t k = args.count("--cut-k", 1);
    Json positions = Json::array();
    for (std::size_t p : largestCutPositions(vat, k)) positions.push(p);
    result.set("cut_k", k).set("cut_positions", positions);
    const std::vector<int> blocks = labelsFromLargestCuts(vat, k);
    std::vector<std::int32_t> labels = run.wholeLabels(std::vector<std::int32_t>(blocks.begin(), blocks.end()));
    if (args.has("--labels-out")) writeLabelsCsv(args.value("--labels-out"), labels);
    return labels;
}

// A precomputed INPUT is a square matrix: n rows of n values.
std::vector<double> distanceMatrix(const Dataset& data, const std::string& path) {
    if (data.n != data.d)
        throw InvalidInput(path + ": --precomputed needs a square dissimilarity matrix, got " + std::to_string(data.n) +
                           " rows of " + std::to_string(data.d) + " values");
    return data.valuesAsDouble();
}

// Renders the whole matrix at size x size, applies contrast and colour, writes the PNG; returns the
// contrast limits used.
Contrast writeImage(const ImageRequest& request, const VatResult& vat, const Dataset& data,
                    const std::vector<double>* matrix, Json& seconds) {
    Stopwatch renderClock;
    const double all = static_cast<double>(vat.n);
    const VatViewport viewport{0.0, all, 0.0, all, request.size, request.size, request.kind, request.mode};
    std::vector<float> image(static_cast<std::size_t>(request.size) * static_cast<std::size_t>(request.size));
    if (matrix) {
        renderVatViewportFromDistances(matrix->data(), vat, viewport, image.data());
    } else {
        const VatRenderSource source = makeVatRenderSource(vat, data.values.data(), data.d);
        renderVatViewportCpu(source, viewport, image.data());
    }
    seconds.set("render", renderClock.seconds());
    Stopwatch pngClock;
    const auto [low, high] = imagePercentiles(image.data(), image.size(), request.clipLow, request.clipHigh);
    const Contrast contrast{low, high, request.gamma};
    const std::vector<std::uint8_t> rgb =
        colorizeImage(image.data(), image.size(), contrast, colormapTable(request.colormap, request.reversed));
    writePngRgb(request.path, rgb.data(), request.size, request.size);
    seconds.set("png", pngClock.seconds());
    return contrast;
}

}  // namespace

int vatCommand(const Arguments& argv) {
    Args args(argv, with(kCommonFlags, {"--ivat", "--reverse", "--precomputed"}),
              with(with(kCommonValued, {"--metric", "--out", "--image", "--size", "--pixel", "--colormap", "--clip",
                                        "--gamma", "--cut-k", "--labels-out", "--index"}),
                   kSessionValued));
    args.expectPositional({"INPUT"});
    const std::string out = args.required("--out");
    const bool precomputed = args.flag("--precomputed");
    if (precomputed && args.has("--metric")) throw UsageError("--metric does not apply to a --precomputed matrix");
    if (precomputed && args.has("--index")) throw UsageError("--index does not apply to a --precomputed matrix");
    if (precomputed &&
        (args.has("--columns") || args.has("--transform") || args.has("--subsample") || args.has("--population")))
        throw UsageError("--columns, --transform, --subsample and --population do not apply to a --precomputed matrix");
    const Metric metric =
        parseMetric(args.choice("--metric", {"euclidean", "sqeuclidean", "manhattan", "cosine"}, "euclidean"));
    const ImageRequest image = imageRequestFrom(args);
    if (args.has("--labels-out") && !args.has("--cut-k")) throw UsageError("--labels-out needs --cut-k K");
    VatOptions options;
    options.metric = metric;
    options.backend = backendFrom(args);
    options.index = parseMstIndex(args.choice("--index", {"auto", "allpairs", "tree"}, "auto"));

    Stopwatch readClock;
    const std::string input = args.positional()[0];
    Dataset loaded = loadInput(input, args);
    SessionRun run(args, argv, "vat", input, loaded);
    const Dataset data = run.restrict(std::move(loaded));
    const double readSeconds = readClock.seconds();
    if (args.has("--cut-k") && (args.count("--cut-k", 0) < 1 || args.count("--cut-k", 0) > data.n))
        throw UsageError("--cut-k must lie in 1.." + std::to_string(data.n));

    Stopwatch vatClock;
    std::vector<double> matrix;
    VatResult vat;
    {
        ProgressLine progress(args, "vat");
        if (precomputed) {
            matrix = distanceMatrix(data, input);
            vat = computeVatFromDistances(matrix.data(), data.n, progress.control());
        } else {
            vat = computeVat(data.values.data(), data.n, data.d, options, progress.control());
        }
    }
    printWarnings(vat.warnings);
    Json seconds = Json::object();
    seconds.set("read", readSeconds)
        .set("tree", vat.secondsTree)
        .set("order", vat.secondsOrder)
        .set("vat", vatClock.seconds());
    const std::string name = "VAT " + std::string(precomputed ? "precomputed" : metricName(metric));
    const VatEntry entry = vatEntry(vat, run, run.info(name, data), precomputed);
    writeOrderCsv(out, entry);

    Json result = Json::object();
    result.set("n", vat.n)
        .set("d", data.d)
        .set("start", run.indexOf(static_cast<std::int64_t>(vat.start)))
        .set("metric", precomputed ? "precomputed" : metricName(metric));
    if (!image.path.empty()) {
        const Contrast contrast = writeImage(image, vat, data, precomputed ? &matrix : nullptr, seconds);
        Json clip = Json::array();
        clip.push(static_cast<double>(contrast.low)).push(static_cast<double>(contrast.high));
        result.set("image", Json::object()
                                .set("kind", image.kind == VatImageKind::Ivat ? "ivat" : "vat")
                                .set("size", image.size)
                                .set("colormap", colormapName(image.colormap))
                                .set("clip_values", clip));
    }
    const std::vector<std::int32_t> labels =
        args.has("--cut-k") ? cutLabels(args, vat, run, result) : std::vector<std::int32_t>{};
    run.save([&](Session& session) {
        if (!labels.empty()) putNamed(session.labelings, LabelingResult{entry.info, labels, {}, {}});
        putNamed(session.vat, entry);
    });
    if (args.flag("--json")) {
        result.set("backend", vat.backend).set("seconds", seconds);
        if (!vat.index.empty()) result.set("index", vat.index);
        std::printf("%s\n", result.dump().c_str());
    }
    return 0;
}

}  // namespace clusterlens::cli
