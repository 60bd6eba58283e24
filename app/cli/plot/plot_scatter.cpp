// clusterlens-cli plot scatter INPUT --x F1 --y F2 [--labels LABELS.csv | --colour-by WHAT]
//                              [--xlim A:B] [--ylim C:D] [--cluster-shapes]
//                              [common data options] --out FIG.png|tif|svg|pdf [common figure options]
// The data scatter of the GUI (views/scatter/scatter_figure.hpp), headless: features F1 and F2 (a
// name, or a 0-based number) of INPUT, coloured by LABELS.csv, else by the labels the file carries
// (its class column, named in the legend), else by point density. --colour-by density | labels |
// marker:NAME chooses explicitly; marker:NAME colours by that marker's expression (a short or long
// name, or a 0-based number) on viridis over its 1st-99th percentile, with a colour bar titled with
// the marker and its transform, as the GUI draws it (views/marker_scale.hpp). The axes are titled with the
// markers and their transform, e.g. "CD3 (arcsinh/5)" after --transform asinh:5.
// From a session (`[INPUT] --session FILE --name NAME [--population P]`): the session's data (INPUT,
// checked against its SHA-256 and read as the session read it, else its embedded matrix or its data
// file), coloured by the labeling NAME with its cluster names, or by membership of the population
// NAME; --population P draws only P's events. --xlim/--ylim show only that part of the axes (data
// units, after the transform), as the GUI's export of "what is in view" does. --cluster-shapes draws
// each cluster's 95 % covariance ellipse (views/scatter/cluster_shapes.hpp), as the GUI can.

#include <QFileInfo>
#include <QString>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "input.hpp"
#include "plot/plot_options.hpp"
#include "marker_scale.hpp"
#include "plot/plot_registry.hpp"
#include "plot/plot_session.hpp"
#include "scatter/scatter_export.hpp"
#include "scatter/scatter_figure.hpp"

namespace clusterlens::cli {

namespace {

/// A feature by exact name, then by name ignoring case, then as a 0-based column number.
std::size_t featureColumn(const Dataset& data, const std::string& text, const char* option) {
    const auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return s;
    };
    for (std::size_t j = 0; j < data.features.size(); ++j)
        if (data.features[j] == text) return j;
    for (std::size_t j = 0; j < data.features.size(); ++j)
        if (lower(data.features[j]) == lower(text)) return j;
    std::size_t column = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), column);
    if (error == std::errc() && end == text.data() + text.size() && column < data.d) return column;
    throw UsageError(std::string(option) + ": no feature '" + text + "' (a name, or a number 0.." +
                     std::to_string(data.d - 1) + ")");
}

/// --colour-by: Density, Labels, or Marker with `marker` set to the feature.
views::ColourMode colourBy(const Args& args, const Dataset& data, bool labelled, std::ptrdiff_t& marker) {
    const std::string what = args.value("--colour-by");
    if (what == "density") return views::ColourMode::Density;
    if (what == "labels") {
        if (!labelled) throw UsageError("--colour-by labels: the file has no labels; give --labels LABELS.csv");
        return views::ColourMode::Labels;
    }
    if (what.rfind("marker:", 0) != 0 || what.size() == 7)
        throw UsageError("--colour-by: expected density, labels or marker:NAME, got '" + what + "'");
    if (args.has("--labels")) throw UsageError("--colour-by marker:NAME and --labels exclude each other");
    const std::string name = what.substr(7);
    marker = views::markerColumn(data, QString::fromStdString(name));
    if (marker < 0) marker = static_cast<std::ptrdiff_t>(featureColumn(data, name, "--colour-by marker"));
    return views::ColourMode::Marker;
}

std::string summaryOf(const views::ScatterData& scatter) {
    const std::string points = std::to_string(scatter.pointCount) + " points";
    if (scatter.mode == views::ColourMode::Labels)
        return points + ", " + std::to_string(scatter.labelValues.size()) + " labels";
    if (scatter.mode == views::ColourMode::Marker)
        return points + ", coloured by " + scatter.markerTitle.toStdString() + " from " +
               QString::number(scatter.markerLow, 'g', 6).toStdString() + " to " +
               QString::number(scatter.markerHigh, 'g', 6).toStdString();
    return points + ", coloured by density";
}

/// The labels of --name (a labeling, or membership of a population) over all events of `data`.
void sessionColours(const Args& args, const PlotSession& session, views::ScatterRequest& request,
                    views::ScatterFigureOptions& options) {
    const std::string name = args.value("--name");
    auto labels = std::make_shared<std::vector<std::int32_t>>();
    if (const LabelingResult* labeling = findNamed(session.session.labelings, name)) {
        *labels = labeling->labels;
        for (const std::string& cluster : labeling->clusterNames)
            options.labelNames.push_back(QString::fromStdString(cluster));
    } else if (const Population* population = findNamed(session.session.populations, name)) {
        labels->assign(request.dataset->n, -1);
        for (std::int64_t member : population->members)
            if (static_cast<std::uint64_t>(member) < labels->size()) (*labels)[static_cast<std::size_t>(member)] = 0;
        options.labelNames = {QString::fromStdString(name)};
    } else {
        std::vector<std::string> names;
        for (const LabelingResult& l : session.session.labelings) names.push_back(l.info.name);
        for (const Population& p : session.session.populations) names.push_back(p.name);
        missingResult(args, session, "--name", "labeling or population", names);
    }
    if (labels->size() != request.dataset->n)
        throw InvalidInput("--name: '" + name + "' in " + session.path + " labels " + std::to_string(labels->size()) +
                           " events, the data has " + std::to_string(request.dataset->n));
    options.colouring = QString::fromStdString(name);
    request.labels = std::move(labels);
}

/// --population P of a session: only P's events (and their labels) are drawn.
void restrictToPopulation(const Args& args, const PlotSession& session, views::ScatterRequest& request) {
    if (!args.has("--population")) return;
    const Population& population =
        sessionResult(args, session, session.session.populations, "--population", "population");
    request.dataset = std::make_shared<const Dataset>(eventsOf(*request.dataset, population.members, session.path));
    if (!request.labels) return;
    auto labels = std::make_shared<std::vector<std::int32_t>>();
    for (std::int64_t member : population.members)
        labels->push_back((*request.labels)[static_cast<std::size_t>(member)]);
    request.labels = std::move(labels);
}

int runPlotScatter(const std::vector<std::string>& argv) {
    Args args(argv, with(kCommonFlags, {"--cluster-shapes"}),
              with(with(with(kCommonValued, kPlotValued), kPlotSessionValued),
                   {"--x", "--y", "--labels", "--colour-by", "--xlim", "--ylim"}));
    const auto session = plotSession(args, {"INPUT"}, {"INPUT"});
    if (session && args.has("--labels")) throw UsageError("--labels and --session exclude each other");
    std::vector<std::string> files = sourceFiles(args);
    if (args.has("--labels")) files.push_back(args.value("--labels"));
    const PlotOutput output = plotOutput(args, "scatter", argv, files);
    const std::string path = args.positional().empty() ? std::string() : args.positional()[0];
    auto data = std::make_shared<const Dataset>(session ? sessionData(*session, path) : loadInput(path, args, true));

    views::ScatterRequest request;
    request.dataset = data;
    request.axes.x = featureColumn(*data, args.required("--x"), "--x");
    request.axes.y = featureColumn(*data, args.required("--y"), "--y");
    views::ScatterFigureOptions options;
    if (session) {
        sessionColours(args, *session, request, options);
        restrictToPopulation(args, *session, request);
    } else if (args.has("--labels")) {
        request.labels = std::make_shared<const std::vector<std::int32_t>>(readLabels(args.value("--labels"), data->n));
        options.colouring = QFileInfo(QString::fromStdString(args.value("--labels"))).completeBaseName();
    } else if (!data->labels.empty()) {
        options.labelNames = views::datasetLabelNames(*data);
        options.colouring = views::datasetLabelingName(*data);
    }
    const bool labelled = request.labels || !data->labels.empty();
    request.mode = labelled ? views::ColourMode::Labels : views::ColourMode::Density;
    if (args.has("--colour-by")) request.mode = colourBy(args, *data, labelled, request.marker);
    options.xTitle = views::markerAxisTitle(*data, request.axes, false);
    options.yTitle = views::markerAxisTitle(*data, request.axes, true);
    options.title =
        QFileInfo(QString::fromStdString(path.empty() ? session->session.data.path : path)).completeBaseName();
    const auto scatter = std::make_shared<const views::ScatterData>(views::prepareScatter(request));
    const views::ScatterLimits limits{rangeOption(args, "--xlim", "data units"),
                                      rangeOption(args, "--ylim", "data units")};
    if (limits.x || limits.y) options.window = views::scatterWindow(*scatter, limits);
    if (args.flag("--cluster-shapes") && scatter->mode != views::ColourMode::Labels)
        throw UsageError(
            "--cluster-shapes draws the clusters of a labeling: add --labels, --name LABELING or "
            "--colour-by labels");
    options.clusterShapes = args.flag("--cluster-shapes");
    views::ScatterFigure figure(scatter, std::move(options));
    writePlot(figure, output, summaryOf(*scatter));
    return 0;
}

const PlotRegistrar scatterRegistrar{
    {"scatter",
     "(INPUT | [INPUT] --session FILE --name LABELING|POPULATION [--population P]) --x F1 --y F2 "
     "[--labels LABELS.csv | --colour-by density|labels|marker:NAME] [--xlim A:B] [--ylim C:D] "
     "[--cluster-shapes]",
     runPlotScatter}};

}  // namespace

}  // namespace clusterlens::cli
