// clusterlens-cli plot decision DPC.csv [--peaks-top K] [--log-rho] [--log-delta]
//                               --out FIG.png|tif|svg|pdf [common figure options, plot_options.hpp]
// The decision graph of the GUI (views/dpc/decision_figure.hpp), headless, from the DPC table the
// `dpc` command writes. With --peaks-top the K points of largest gamma become the peaks and every
// point is coloured by the cluster it joins (the same O(n) assignment as the GUI).

#include <QFileInfo>
#include <QString>

#include <memory>

#include "args.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "dpc/decision_figure.hpp"
#include "dpc/dpc_csv.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"

namespace clusterlens::cli {

namespace {

int runPlotDecision(const std::vector<std::string>& argv) {
    Args args(argv, {"--log-rho", "--log-delta"}, with(kPlotValued, {"--peaks-top"}));
    args.expectPositional({"DPC.csv"});
    const std::string& path = args.positional()[0];
    const PlotOutput output = plotOutput(args, "decision", argv, {path});
    auto result = std::make_shared<const DensityPeaksResult>(views::readDpcCsv(path));
    views::DecisionFigureOptions figure;
    figure.title = QStringLiteral("Decision graph: %1").arg(QFileInfo(QString::fromStdString(path)).completeBaseName());
    figure.logRho = args.flag("--log-rho");
    figure.logDelta = args.flag("--log-delta");
    if (args.has("--peaks-top")) {
        const std::uint64_t k = args.count("--peaks-top", 0);
        if (k < 1 || k > result->rho.size()) throw UsageError("--peaks-top must lie in 1..number of points");
        auto labels = std::make_shared<views::LabelVector>(assignFromPeaks(*result, peaksTopK(*result, k)));
        // Label order is density order: list each peak under the cluster it founded.
        figure.peaks.assign(k, -1);
        for (std::int64_t p : peaksTopK(*result, k))
            figure.peaks[static_cast<std::size_t>((*labels)[static_cast<std::size_t>(p)])] = p;
        figure.labels = std::move(labels);
    }
    views::DecisionFigure drawn(result, std::move(figure));
    writePlot(drawn, output, std::to_string(result->rho.size()) + " points");
    return 0;
}

const PlotRegistrar registrar{
    {"decision", "DPC.csv [--peaks-top K] [--log-rho] [--log-delta]", runPlotDecision}};

}  // namespace

}  // namespace clusterlens::cli
