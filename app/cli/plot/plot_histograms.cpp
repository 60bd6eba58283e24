// clusterlens-cli plot histograms [INPUT] --session FILE --marker NAME [--populations A,B,...]
//                                 --out FIG.png|tif|svg|pdf [common figure options]
// The Charts dock's marker histograms (views/charts), headless: one marker's distribution over each
// population of the session (all of them without --populations), each as its share of the
// population's events per bin over the range of every event's value, overlaid in the populations'
// colours. The data is the session's (INPUT checked against its SHA-256 and read as the session read
// it, else its embedded matrix or its data file).

#include <QColor>
#include <QString>

#include <memory>

#include "args.hpp"
#include "charts/chart_builders.hpp"
#include "charts/chart_data.hpp"
#include "charts/chart_figure.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/session/session_file.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"
#include "plot/plot_session.hpp"

namespace clusterlens::cli {

namespace {

/// The populations of --populations (all without it), in the session's order.
std::vector<views::ChartPopulation> chartPopulations(const Args& args, const PlotSession& session) {
    std::vector<std::string> names = args.list("--populations");
    if (names.empty())
        for (const Population& p : session.session.populations) names.push_back(p.name);
    if (names.empty()) throw InvalidInput(session.path + ": the session has no populations");
    std::vector<views::ChartPopulation> populations;
    for (const std::string& name : names) {
        const Population* p = findNamed(session.session.populations, name);
        if (!p) throw InvalidInput("--populations: " + session.path + " has no population '" + name + "'");
        populations.push_back({QString::fromStdString(p->name), QColor(QString::fromStdString(p->colour)),
                               std::make_shared<const std::vector<std::int64_t>>(p->members)});
    }
    return populations;
}

int runPlotHistograms(const std::vector<std::string>& argv) {
    Args args(argv, {}, with(with(kPlotValued, kPlotSessionValued), {"--marker", "--populations"}));
    if (!args.has("--session")) throw UsageError("plot histograms needs --session FILE (its populations)");
    if (args.has("--name") || args.has("--name2") || args.has("--population"))
        throw UsageError("plot histograms takes --populations A,B,... (not --name or --population)");
    if (args.positional().size() > 1) throw UsageError("plot histograms takes at most one INPUT");
    PlotSession session{args.value("--session"), readSession(args.value("--session"))};
    const std::string marker = args.required("--marker");
    const PlotOutput output = plotOutput(args, "histograms", argv, sourceFiles(args));
    const Dataset data = sessionData(session, args.positional().empty() ? std::string() : args.positional()[0]);
    const long column = data.featureIndex(marker);
    if (column < 0) throw UsageError("--marker: the session's data has no feature '" + marker + "'");
    const views::HistogramData histogram =
        views::markerHistograms(data, static_cast<std::size_t>(column), chartPopulations(args, session));
    views::ChartFigure figure(
        QStringLiteral("%1 by population").arg(histogram.marker), views::histogramTitles(histogram.marker),
        [histogram](const views::ChartAxisTitles& t) { return views::makeHistogramChart(histogram, t); });
    writePlot(figure, output,
              std::to_string(histogram.series.size()) + " populations, " + std::to_string(histogram.bins) + " bins");
    return 0;
}

const PlotRegistrar histogramsRegistrar{
    {"histograms", "[INPUT] --session FILE --marker NAME [--populations A,B,...]", runPlotHistograms}};

}  // namespace

}  // namespace clusterlens::cli
