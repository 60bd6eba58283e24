// clusterlens-cli plot vat (INPUT | [INPUT] --session FILE --name VAT [--population P]) [--image ivat|vat] [--metric
// euclidean|sqeuclidean|manhattan|cosine]
//                          [--colormap grey|viridis|magma] [--pixel representative|mean] [--reverse]
//                          [--gamma G] [--clip LOW,HIGH] [--levels LO,HI] [--cut-k K] [--strip WHAT]...
//                          [--rows A:B] [--cols C:D] [common data options]
//                          --out FIG.png|tif|svg|pdf [common figure options]
// The VAT/iVAT figure of the GUI (views/vat/vat_figure.hpp), headless: the VAT order of INPUT, the
// image rendered at the output's resolution by the same viewport renderer as the view, position
// ticks, the boxes of the K largest cuts, the colour bar of the distances and up to three colour
// strips along both axes (--strip, plot_strips.hpp). From a session, the
// stored VAT order NAME (of all events or of a population) over the session's data (INPUT checked
// against its SHA-256, else its embedded matrix or data file), on the features and metric it was
// computed with: nothing is ordered again. --rows A:B and --cols C:D draw only that part of the image
// (ordered positions 0..n, fractional, as the GUI's export of "only the part in view" writes them);
// the image is square, so both span as many positions, and one alone shows that block of the
// diagonal. The display options are the view's: --pixel (representative or block mean), --reverse
// (the colormap), --gamma, --clip (the contrast percentiles, default 0,99) and --levels (held contrast
// levels, distances, instead of the image's percentiles), as the GUI's export writes them.

#include <QFileInfo>
#include <QString>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/session/population.hpp"
#include "clusterlens/vat/colormap.hpp"
#include "clusterlens/vat/metric.hpp"
#include "clusterlens/vat/vat.hpp"
#include "input.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"
#include "plot/plot_session.hpp"
#include "plot/plot_strips.hpp"
#include "vat/vat_figure.hpp"
#include "vat/vat_run.hpp"

namespace clusterlens::cli {

namespace {

/// The stored order NAME of the session, over the session's data `all`.
views::VatRun storedRun(const PlotSession& session, const Args& args, const Dataset& all) {
    const VatEntry& stored = sessionResult(args, session, session.session.vat, "--name", "VAT order");
    views::VatRequest request;
    request.dataset = std::make_shared<const Dataset>(eventsOf(all, stored.info.members, session.path));
    request.metric = parseMetric(stored.metric);
    for (const std::string& feature : stored.info.features) {
        const std::ptrdiff_t column = request.dataset->featureIndex(feature);
        if (column < 0)
            throw InvalidInput("--name: VAT order '" + stored.info.name + "' was computed on feature '" + feature +
                               "', which the session's data lacks");
        request.columns.push_back(static_cast<std::size_t>(column));
    }
    if (stored.info.features.empty())
        for (std::size_t j = 0; j < request.dataset->d; ++j) request.columns.push_back(j);
    auto vat = std::make_shared<VatResult>();
    vat->n = request.dataset->n;
    vat->order = stored.info.members.empty() ? stored.order : indicesToPositions(stored.order, stored.info.members);
    if (vat->order.size() != vat->n || vat->order.empty())
        throw InvalidInput("--name: VAT order '" + stored.info.name + "' orders " +
                           std::to_string(stored.order.size()) + " events, its data has " + std::to_string(vat->n));
    vat->start = static_cast<std::size_t>(vat->order.front());
    vat->metric = request.metric;
    vat->cut = stored.cut;
    return views::storedVatRun(request, std::move(vat));
}

/// --image, --colormap, --pixel, --reverse, --gamma and --clip: how the view shows the matrix.
views::VatDisplay displayFrom(const Args& args) {
    views::VatDisplay display;
    display.kind = args.choice("--image", {"ivat", "vat"}, "ivat") == "ivat" ? VatImageKind::Ivat : VatImageKind::Vat;
    display.colormap = parseColormap(args.choice("--colormap", {"grey", "viridis", "magma"}, "grey"));
    display.mode = args.choice("--pixel", {"representative", "mean"}, "representative") == "mean"
                       ? VatPixelMode::BlockMean
                       : VatPixelMode::Representative;
    display.reversed = args.flag("--reverse");
    display.gamma = args.number("--gamma", display.gamma);
    if (!(display.gamma > 0.0 && display.gamma < 1e6)) throw UsageError("--gamma must be a positive number");
    std::tie(display.lowPercent, display.highPercent) = args.clipPercentiles({display.lowPercent, display.highPercent});
    return display;
}

/// --levels LO,HI: held contrast levels (distances at the colour bar's ends), none without it.
std::optional<std::pair<float, float>> levelsFrom(const Args& args) {
    if (!args.has("--levels")) return std::nullopt;
    const auto [low, high] = args.numberPair("--levels", "two distances LO,HI with LO < HI");
    if (!(low < high))
        throw UsageError("--levels takes two distances LO,HI with LO < HI, got '" + args.value("--levels") + "'");
    return std::pair{static_cast<float>(low), static_cast<float>(high)};
}

constexpr double kRangeSlack = 1e-9;  // of n: the rounding of the ends of a window as the GUI writes them

/// --rows/--cols: the window of the ordered matrix drawn, the whole one without them.
views::VatWindow windowFrom(const Args& args, std::size_t n) {
    auto rows = rangeOption(args, "--rows", "ordered positions");
    auto cols = rangeOption(args, "--cols", "ordered positions");
    const double size = static_cast<double>(n), slack = kRangeSlack * size;
    for (const auto& [option, range] : {std::pair{"--rows", rows}, std::pair{"--cols", cols}})
        if (range && (range->first < -slack || range->second > size + slack ||
                      range->second - range->first < std::min(size, views::VatWindow::minSpan) - slack))
            throw UsageError(std::string(option) + ": A:B must lie inside 0:" + std::to_string(n) +
                             " (the image's ordered positions) and span at least " +
                             std::to_string(std::min(n, static_cast<std::size_t>(views::VatWindow::minSpan))) +
                             " of them, got '" + args.value(option) + "'");
    if (!rows) rows = cols;
    if (!cols) cols = rows;
    if (!rows) return views::vatWindowOf(n, {0.0, size}, {0.0, size});
    if (std::abs((rows->second - rows->first) - (cols->second - cols->first)) > slack)
        throw UsageError("--rows " + args.value("--rows") + " and --cols " + args.value("--cols") +
                         " must span as many positions: the image is square");
    return views::vatWindowOf(n, *rows, *cols);
}

views::VatRun computedRun(const Args& args, std::shared_ptr<const Dataset> data) {
    views::VatRequest request;
    request.metric =
        parseMetric(args.choice("--metric", {"euclidean", "sqeuclidean", "manhattan", "cosine"}, "euclidean"));
    request.backend = backendFrom(args);
    request.dataset = data;
    for (std::size_t j = 0; j < data->d; ++j) request.columns.push_back(j);
    JobControl control;
    views::VatRun run = views::computeVatRun(request, control);
    printWarnings(control.warnings());
    return run;
}

int runPlotVat(const std::vector<std::string>& argv) {
    Args args(argv, with(kCommonFlags, {"--reverse"}),
              with(with(with(kCommonValued, kPlotValued), kPlotSessionValued),
                   {"--image", "--metric", "--colormap", "--cut-k", "--strip", "--rows", "--cols", "--pixel", "--gamma",
                    "--clip", "--levels"}));
    const auto session = plotSession(args, {"INPUT"}, {"INPUT"});
    if (session && args.has("--metric"))
        throw UsageError("--metric: a stored VAT order keeps the metric it was computed with");
    std::vector<std::string> files = sourceFiles(args);
    for (const std::string& file : stripFiles(args)) files.push_back(file);
    const PlotOutput output = plotOutput(args, "vat", argv, files);
    const views::VatDisplay display = displayFrom(args);
    const bool ivat = display.kind == VatImageKind::Ivat;
    const std::string input = args.positional().empty() ? std::string() : args.positional()[0];
    // The strips colour every event of the data; a run on a population shows its members' colours.
    const auto data = std::make_shared<const Dataset>(session ? sessionData(*session, input) : loadInput(input, args));
    const views::VatRun run = session ? storedRun(*session, args, *data) : computedRun(args, data);
    StripSource strips{session ? &*session : nullptr, data.get(), "INPUT", data->n, {}};
    if (session) strips.members = findNamed(session->session.vat, args.value("--name"))->info.members;
    views::VatFigureOptions options;
    options.strips = plotStrips(args, strips);
    options.order = std::shared_ptr<const std::vector<std::int64_t>>(run.vat, &run.vat->order);
    const QString name = session ? QString::fromStdString(args.value("--name"))
                                 : QFileInfo(QString::fromStdString(args.positional()[0])).completeBaseName();
    options.title = QStringLiteral("%1: %2").arg(ivat ? QStringLiteral("iVAT") : QStringLiteral("VAT"), name);
    options.display = display;
    options.levels = levelsFrom(args);
    if (args.has("--cut-k")) {
        const std::uint64_t k = args.count("--cut-k", 1);
        if (k < 1 || k > run.n()) throw UsageError("--cut-k must lie in 1.." + std::to_string(run.n()));
        options.cuts = largestCutPositions(*run.vat, k);
    }
    options.window = windowFrom(args, run.n());
    views::VatFigure figure(run.renderer, std::move(options));
    writePlot(figure, output, std::to_string(run.n()) + " points, order from " + std::to_string(run.vat->start));
    return 0;
}

const PlotRegistrar vatRegistrar{
    {"vat",
     "(INPUT | [INPUT] --session FILE --name VAT) [--image ivat|vat] [--metric M] "
     "[--colormap grey|viridis|magma] [--pixel representative|mean] [--reverse] [--gamma G] [--clip LOW,HIGH] "
     "[--levels LO,HI] [--cut-k K] [--strip WHAT]... [--rows A:B] [--cols C:D]",
     runPlotVat}};

}  // namespace

}  // namespace clusterlens::cli
