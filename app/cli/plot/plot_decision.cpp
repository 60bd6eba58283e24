// clusterlens-cli plot decision (DPC.csv | --session FILE --name DPC [--population P])
//                               [--peaks-top K | --peaks i,j,...] [--log-rho] [--log-delta]
//                               [--rho-min R --delta-min D]
//                               --out FIG.png|tif|svg|pdf [common figure options, plot_options.hpp]
// The decision graph of the GUI (views/dpc/decision_figure.hpp), headless, from the DPC table the
// `dpc` command writes (also of a run on a population, whose indices are whole-dataset indices) or
// from a DPC result stored in a session. With --peaks-top the K points of largest gamma become the
// peaks, with --peaks the points listed (values of the table's index column, as picked in the GUI),
// from a session without either the peaks chosen there; every point is coloured by the cluster it
// joins (the same O(n) assignment as the GUI; the stored halo grey). A stored result is drawn as the
// GUI's export draws it (its dc as the subtitle, no file name in the title). --rho-min/--delta-min
// draw the threshold lines the GUI shows when it picks peaks by thresholds.

#include <QPointF>
#include <QString>

#include <memory>

#include "args.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "dpc/decision_figure.hpp"
#include "dpc/dpc_run.hpp"
#include "plot/plot_dpc_source.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"
#include "plot/plot_session.hpp"

namespace clusterlens::cli {

namespace {

int runPlotDecision(const std::vector<std::string>& argv) {
    Args args(argv, {"--log-rho", "--log-delta"},
              with(with(kPlotValued, kPlotSessionValued), {"--peaks-top", "--peaks", "--rho-min", "--delta-min"}));
    if (args.has("--rho-min") != args.has("--delta-min")) throw UsageError("give --rho-min and --delta-min together");
    if (args.has("--peaks-top") && args.has("--peaks")) throw UsageError("give --peaks-top or --peaks, not both");
    const PlotDpc dpc = plotDpc(args);
    const PlotOutput output = plotOutput(args, "decision", argv, sourceFiles(args));
    const DensityPeaksResult& result = *dpc.result;
    views::DecisionFigureOptions figure;
    // A stored result is drawn as the GUI draws it; a file's figure is titled with the file.
    if (dpc.stored)
        figure.subtitle = views::describeDc(result.dc);
    else
        figure.title = QStringLiteral("Decision graph: %1").arg(dpc.name);
    figure.logRho = args.flag("--log-rho");
    figure.logDelta = args.flag("--log-delta");
    if (args.has("--rho-min")) figure.thresholds = QPointF(args.number("--rho-min", 0), args.number("--delta-min", 0));
    std::vector<std::int64_t> peaks = dpc.storedPeaks;
    if (args.has("--peaks-top")) {
        const std::uint64_t k = args.count("--peaks-top", 0);
        if (k < 1 || k > result.rho.size()) throw UsageError("--peaks-top must lie in 1..number of points");
        peaks = peaksTopK(result, k);
    }
    if (args.has("--peaks")) peaks = dpcPositions(dpc, args.list("--peaks"), "--peaks");
    if (!peaks.empty()) {
        auto labels = std::make_shared<views::LabelVector>(dpcLabels(dpc, peaks));
        // Label order is density order: list each peak under the cluster it founded.
        const std::vector<std::int32_t> founded = assignFromPeaks(result, peaks);
        figure.peaks.assign(peaks.size(), -1);
        for (std::int64_t p : peaks) figure.peaks[static_cast<std::size_t>(founded[static_cast<std::size_t>(p)])] = p;
        figure.labels = std::move(labels);
    }
    views::DecisionFigure drawn(dpc.result, std::move(figure));
    writePlot(drawn, output, std::to_string(result.rho.size()) + " points");
    return 0;
}

const PlotRegistrar decisionRegistrar{
    {"decision",
     "(DPC.csv | --session FILE --name DPC) [--peaks-top K | --peaks i,j,...] [--log-rho] "
     "[--log-delta] [--rho-min R --delta-min D]",
     runPlotDecision}};

}  // namespace

}  // namespace clusterlens::cli
