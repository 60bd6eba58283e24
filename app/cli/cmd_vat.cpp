// clusterlens-cli vat INPUT [--metric euclidean|sqeuclidean|manhattan|cosine] [--precomputed] --out ORDER.csv
//                 [--index auto|allpairs|tree]
//                 [--image OUT.png [--size 1024] [--ivat] [--pixel representative|mean]
//                  [--colormap grey|viridis|magma] [--reverse] [--clip 1,99] [--gamma 1]]
//                 [--cut-k K [--labels-out LABELS.csv]] [--session FILE [--name NAME] [--population NAME]]
//                 [--sample N [--sample-groups K] [--sample-seed S]] [--order-from LINKAGE.csv]
// --sample: the VAT of an sVAT sample of N events (clusterlens/vat/sampled_vat.hpp), for data too
// large for the exact VAT; ORDER.csv then lists the sampled events only, --cut-k labels them (the rest
// -1), the JSON says "sampled", and the stored result is named "sampled VAT … (N of M)".
// --order-from: ORDER.csv and the image in the leaf order of that tree (any linkage of the same events,
// e.g. MHCA): the VAT matrix with rows and columns permuted, so it lines up beside the dendrogram;
// `cut` is then the iVAT (minimax) distance between neighbouring events of that order.

#include <charconv>
#include <cstdio>
#include <functional>
#include <optional>
#include <tuple>
#include <vector>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/linkage_cut.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/write_png.hpp"
#include "clusterlens/vat/colormap.hpp"
#include "clusterlens/vat/sampled_vat.hpp"
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
    std::tie(r.clipLow, r.clipHigh) = args.clipPercentiles({r.clipLow, r.clipHigh});
    r.gamma = args.number("--gamma", 1.0);
    if (!(r.gamma > 0.0 && r.gamma < 1e6)) throw UsageError("--gamma must be a positive number");
    return r;
}

/// Position in the ordered events -> whole-dataset index.
using WholeIndex = std::function<std::int64_t(std::int64_t)>;

/// The ordering as the session stores it and ORDER.csv shows it: whole-dataset indices.
VatEntry vatEntry(const VatResult& vat, const WholeIndex& whole, ResultInfo info, bool precomputed) {
    VatEntry entry{std::move(info), precomputed ? "precomputed" : metricName(vat.metric), {}, vat.cut};
    for (std::int64_t position : vat.order) entry.order.push_back(whole(position));
    return entry;
}

/// --order-from LINKAGE.csv: `vat` re-expressed in that tree's leaf order — `order` its leaves, `cut[k]`
/// the minimax distance between the events at positions k-1 and k (a VAT order's own cut exactly).
VatResult inTreeOrder(const VatResult& vat, const Linkage& tree, const std::string& path) {
    if (tree.leafCount != vat.n)
        throw InvalidInput(path + ": the tree clusters " + std::to_string(tree.leafCount) + " events, the data has " +
                           std::to_string(vat.n));
    std::vector<std::size_t> vatPosition(vat.n);
    for (std::size_t k = 0; k < vat.n; ++k) vatPosition[static_cast<std::size_t>(vat.order[k])] = k;
    const RangeMaxTable minimax(vat.cut);
    VatResult out = vat;
    out.order = dendrogramLeafOrder(tree);
    out.start = static_cast<std::size_t>(out.order.front());
    out.edges.clear();  // not a Prim order of the spanning tree any more
    for (std::size_t k = 1; k < vat.n; ++k) {
        const std::size_t a = vatPosition[static_cast<std::size_t>(out.order[k - 1])];
        const std::size_t b = vatPosition[static_cast<std::size_t>(out.order[k])];
        out.cut[k] = minimax.max(std::min(a, b) + 1, std::max(a, b));
    }
    return out;
}

/// --sample N [--sample-groups K] [--sample-seed S]; nothing without --sample.
std::optional<SampledVatOptions> sampleOptionsFrom(const Args& args) {
    if (!args.has("--sample")) {
        for (const char* option : {"--sample-groups", "--sample-seed"})
            if (args.has(option)) throw UsageError(std::string(option) + " needs --sample N");
        return std::nullopt;
    }
    SampledVatOptions options;
    options.sampleSize = args.count("--sample", 0);
    options.groups = args.count("--sample-groups", 0);
    if (args.has("--sample-groups") && options.groups == 0) throw UsageError("--sample-groups must be at least 1");
    options.seed = args.count("--sample-seed", 1);
    return options;
}

/// The rows of `data` at ascending `positions`, as a dataset of their own (what the image shows).
Dataset rowsOf(const Dataset& data, const std::vector<std::int64_t>& positions) {
    Dataset rows;
    rows.n = positions.size();
    rows.d = data.d;
    rows.features = data.features;
    rows.values.reserve(rows.n * rows.d);
    for (std::int64_t p : positions)
        rows.values.insert(rows.values.end(), data.values.begin() + p * static_cast<std::int64_t>(data.d),
                           data.values.begin() + (p + 1) * static_cast<std::int64_t>(data.d));
    return rows;
}

/// --cut-k K: the clusters of the K-1 largest cuts as whole-dataset labels (written to --labels-out);
/// adds the cut positions to `result`. With a sample (positions among the `eventCount` analysed
/// events), events outside it are -1.
std::vector<std::int32_t> cutLabels(const Args& args, const VatResult& vat, const SessionRun& run,
                                    const std::vector<std::int64_t>& sample, std::size_t eventCount, Json& result) {
    const std::size_t k = args.count("--cut-k", 1);
    Json positions = Json::array();
    for (std::size_t p : largestCutPositions(vat, k)) positions.push(p);
    result.set("cut_k", k).set("cut_positions", positions);
    const std::vector<int> blocks = labelsFromLargestCuts(vat, k);
    std::vector<std::int32_t> events(blocks.begin(), blocks.end());
    if (!sample.empty()) {
        events.assign(eventCount, -1);
        for (std::size_t p = 0; p < sample.size(); ++p) events[static_cast<std::size_t>(sample[p])] = blocks[p];
    }
    std::vector<std::int32_t> labels = run.wholeLabels(std::move(events));
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
                    const std::vector<double>* matrix, const std::vector<std::int64_t>* displayOrder, Json& seconds) {
    Stopwatch renderClock;
    const double all = static_cast<double>(vat.n);
    const VatViewport viewport{0.0, all, 0.0, all, request.size, request.size, request.kind, request.mode};
    std::vector<float> image(static_cast<std::size_t>(request.size) * static_cast<std::size_t>(request.size));
    if (matrix) {
        renderVatViewportFromDistances(matrix->data(), vat, viewport, image.data());
    } else {
        const VatRenderSource source = displayOrder
                                           ? makeVatRenderSourceInOrder(vat, data.values.data(), data.d, *displayOrder)
                                           : makeVatRenderSource(vat, data.values.data(), data.d);
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

/// The option combinations `vat` refuses (UsageError naming them).
void checkCombinations(const Args& args, bool precomputed, bool sampling) {
    if (precomputed && args.has("--metric")) throw UsageError("--metric does not apply to a --precomputed matrix");
    if (precomputed && args.has("--index")) throw UsageError("--index does not apply to a --precomputed matrix");
    if (precomputed &&
        (args.has("--columns") || args.has("--transform") || args.has("--subsample") || args.has("--population")))
        throw UsageError("--columns, --transform, --subsample and --population do not apply to a --precomputed matrix");
    if (sampling && precomputed) throw UsageError("--sample does not apply to a --precomputed matrix");
    if (args.has("--order-from") &&
        (precomputed || sampling || args.has("--population") || args.has("--cut-k") || args.has("--session")))
        throw UsageError(
            "--order-from takes the tree's order of all events and is not stored: not with "
            "--precomputed, --sample, --population, --cut-k or --session");
    if (args.has("--labels-out") && !args.has("--cut-k")) throw UsageError("--labels-out needs --cut-k K");
}

/// The VAT order of the analysed events: of a --precomputed matrix (kept in `matrix`), of an sVAT
/// sample (kept in `sampled`, its VAT moved out), or of every event.
struct Ordering {
    VatResult vat;
    SampledVat sampled;
    std::vector<double> matrix;
};

Ordering computeOrdering(const Args& args, const Dataset& data, const std::string& input, const VatOptions& options,
                         bool precomputed, const std::optional<SampledVatOptions>& sampling) {
    Ordering o;
    ProgressLine progress(args, sampling ? "sampled vat" : "vat");
    if (precomputed) {
        o.matrix = distanceMatrix(data, input);
        o.vat = computeVatFromDistances(o.matrix.data(), data.n, progress.control());
    } else if (sampling) {
        o.sampled = sampledVat(data.values.data(), data.n, data.d, options, *sampling, progress.control());
        o.vat = std::move(o.sampled.vat);
    } else {
        o.vat = computeVat(data.values.data(), data.n, data.d, options, progress.control());
    }
    return o;
}

/// What the session stores the run as: named (unless --name) and scoped to the sample when sampled.
ResultInfo storedInfo(const SessionRun& run, const Dataset& data, std::string name,
                      const std::vector<std::int64_t>& sample, const WholeIndex& whole) {
    if (!sample.empty())
        name = "sampled " + name + " (" + std::to_string(sample.size()) + " of " + std::to_string(data.n) + ")";
    ResultInfo info = run.info(name, data);
    if (!sample.empty()) {  // the events it ran on are the sample's
        info.members.clear();
        for (std::size_t p = 0; p < sample.size(); ++p) info.members.push_back(whole(static_cast<std::int64_t>(p)));
    }
    return info;
}

Json imageJson(const ImageRequest& image, const Contrast& contrast) {
    Json clip = Json::array();
    clip.push(static_cast<double>(contrast.low)).push(static_cast<double>(contrast.high));
    return Json::object()
        .set("kind", image.kind == VatImageKind::Ivat ? "ivat" : "vat")
        .set("size", image.size)
        .set("colormap", colormapName(image.colormap))
        .set("clip_values", clip);
}

}  // namespace

int vatCommand(const Arguments& argv) {
    Args args(argv, with(kCommonFlags, {"--ivat", "--reverse", "--precomputed"}),
              with(with(kCommonValued, {"--metric", "--out", "--image", "--size", "--pixel", "--colormap", "--clip",
                                        "--gamma", "--cut-k", "--labels-out", "--index", "--sample", "--sample-groups",
                                        "--sample-seed", "--order-from", "--linkage-format"}),
                   kSessionValued));
    args.expectPositional({"INPUT"});
    const std::string out = args.required("--out");
    const bool precomputed = args.flag("--precomputed");
    const Metric metric =
        parseMetric(args.choice("--metric", {"euclidean", "sqeuclidean", "manhattan", "cosine"}, "euclidean"));
    const ImageRequest image = imageRequestFrom(args);
    const std::optional<SampledVatOptions> sampling = sampleOptionsFrom(args);
    checkCombinations(args, precomputed, sampling.has_value());
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
    const Ordering ordering = computeOrdering(args, data, input, options, precomputed, sampling);
    const VatResult& vat = ordering.vat;
    const std::vector<std::int64_t>& sample = ordering.sampled.sample;
    const WholeIndex whole = [&](std::int64_t p) {
        return run.indexOf(sample.empty() ? p : sample[static_cast<std::size_t>(p)]);
    };
    VatResult treeOrdered;  // --order-from: the same matrix in the tree's leaf order
    if (args.has("--order-from"))
        treeOrdered = inTreeOrder(vat, readLinkageFrom(args, args.value("--order-from")), args.value("--order-from"));
    const VatResult& written = args.has("--order-from") ? treeOrdered : vat;
    printWarnings(vat.warnings);
    Json seconds = Json::object();
    seconds.set("read", readSeconds)
        .set("tree", vat.secondsTree)
        .set("order", vat.secondsOrder)
        .set("vat", vatClock.seconds());
    const std::string name = "VAT " + std::string(precomputed ? "precomputed" : metricName(metric));
    const VatEntry entry = vatEntry(written, whole, storedInfo(run, data, name, sample, whole), precomputed);
    writeOrderCsv(out, entry);

    Json result = Json::object();
    result.set("n", vat.n)
        .set("d", data.d)
        .set("start", whole(static_cast<std::int64_t>(written.start)))
        .set("metric", precomputed ? "precomputed" : metricName(metric));
    if (!image.path.empty()) {
        Dataset sampleRows;  // (a conditional of `data` and a temporary would copy `data`)
        if (!sample.empty()) sampleRows = rowsOf(data, sample);
        const Dataset& shown = sample.empty() ? data : sampleRows;
        result.set("image",
                   imageJson(image, writeImage(image, vat, shown, precomputed ? &ordering.matrix : nullptr,
                                               args.has("--order-from") ? &treeOrdered.order : nullptr, seconds)));
    }
    const std::vector<std::int32_t> labels =
        args.has("--cut-k") ? cutLabels(args, vat, run, sample, data.n, result) : std::vector<std::int32_t>{};
    if (!sample.empty())
        result.set("sampled", Json::object()
                                  .set("n", sample.size())
                                  .set("of", data.n)
                                  .set("groups", ordering.sampled.distinguished.size())
                                  .set("seed", ordering.sampled.seed));
    run.save([&](Session& session) {
        if (!labels.empty()) putNamed(session.labelings, LabelingResult{entry.info, labels, {}, {}});
        putNamed(session.vat, entry);
    });
    if (args.flag("--json")) {
        result.set("backend", vat.backend).set("seconds", seconds);
        if (args.has("--order-from")) result.set("order_from", args.value("--order-from"));
        if (!vat.index.empty()) result.set("index", vat.index);
        std::printf("%s\n", result.dump().c_str());
    }
    return 0;
}

}  // namespace clusterlens::cli
