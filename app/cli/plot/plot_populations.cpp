// clusterlens-cli plot populations INPUT --session FILE [--name POPULATION] [--markers a,b,...] [read options]
//                                 --out FIG.png|tif|svg|pdf [common figure options]
// The population statistics figure of the GUI's Populations dock (views/figure/population_stats_figure.hpp),
// headless: every population of the session (with --name, the population POPULATION and every
// population below it, parents before children, % of parent still of its own parent) with its count,
// % of parent, % of all events and the median of each marker (all of INPUT's features without
// --markers) over the data as read. INPUT must be the session's data file (same SHA-256) read as the
// session read it.

#include <QString>
#include <QStringList>

#include <algorithm>
#include <memory>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/file_hash.hpp"
#include "clusterlens/session/session_file.hpp"
#include "figure/population_stats_figure.hpp"
#include "input.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"
#include "plot/plot_session.hpp"
#include "populations/population_ops.hpp"
#include "populations/population_stats.hpp"

namespace clusterlens::cli {

namespace {

/// The session at `path`, checked against INPUT: its data file's SHA-256 and event count, and every
/// population's members inside it. InvalidInput naming the file otherwise.
Session sessionFor(const std::string& path, const std::string& input, const Dataset& data) {
    Session session = readSession(path);
    if (!session.data.sha256.empty() && session.data.sha256 != sha256File(input))
        throw InvalidInput(path + ": its data file has another content than " + input + " (SHA-256 differs)");
    if (session.data.n != data.n)
        throw InvalidInput(path + ": its populations count " + std::to_string(session.data.n) + " events, " + input +
                           " has " + std::to_string(data.n) + " as read (read it with the session's options)");
    for (const Population& population : session.populations)
        if (!population.members.empty() && static_cast<std::size_t>(population.members.back()) >= data.n)
            throw InvalidInput(path + ": population '" + population.name + "' names events beyond " + input);
    return session;
}

/// With --name: the rows of that population and of every population below it, in the table's order.
void keepSubtree(const Args& args, const PlotSession& opened, views::PopulationStatistics& statistics) {
    if (!args.has("--name")) return;
    const Population& top = sessionResult(args, opened, opened.session.populations, "--name", "population");
    const QStringList subtree = views::populationSubtree(opened.session, QString::fromStdString(top.name));
    std::erase_if(statistics.rows,
                  [&](const views::PopulationStatistics::Row& row) { return !subtree.contains(row.name); });
}

int runPlotPopulations(const std::vector<std::string>& argv) {
    Args args(argv, kCommonFlags, with(with(kCommonValued, kPlotValued), {"--session", "--name", "--markers"}));
    args.expectPositional({"INPUT"});
    const std::string& input = args.positional()[0];
    const std::string sessionPath = args.required("--session");
    const PlotOutput output = plotOutput(args, "populations", argv, {input});
    const Dataset data = loadInput(input, args, true);
    const PlotSession opened{sessionPath, sessionFor(sessionPath, input, data)};
    const Session& session = opened.session;
    if (session.populations.empty()) throw InvalidInput(sessionPath + ": the session has no populations");
    QStringList markers;
    if (args.has("--markers")) {
        for (const std::string& marker : args.list("--markers")) {
            if (data.featureIndex(marker) < 0)
                throw UsageError("--markers: " + input + " has no feature '" + marker + "'");
            markers << QString::fromStdString(marker);
        }
    } else {
        for (const std::string& feature : data.features) markers << QString::fromStdString(feature);
    }
    auto table = views::populationStatistics(session, data, markers);
    keepSubtree(args, opened, table);
    const auto statistics = std::make_shared<const views::PopulationStatistics>(std::move(table));
    views::PopulationStatsFigure figure(statistics);
    writePlot(figure, output,
              std::to_string(statistics->rows.size()) + " populations, medians of " +
                  std::to_string(statistics->markers.size()) + " markers");
    return 0;
}

const PlotRegistrar populationsRegistrar{
    {"populations", "INPUT --session FILE [--name POPULATION] [--markers a,b,...]", runPlotPopulations}};

}  // namespace

}  // namespace clusterlens::cli
