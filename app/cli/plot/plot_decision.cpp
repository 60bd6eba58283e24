// clusterlens-cli plot decision DPC.csv [--peaks-top K | --peaks i,j,...] [--log-rho] [--log-delta]
//                               --out FIG.png|tif|svg|pdf [common figure options, plot_options.hpp]
// The decision graph of the GUI (views/dpc/decision_figure.hpp), headless, from the DPC table the
// `dpc` command writes. With --peaks-top the K points of largest gamma become the peaks (with
// --peaks the points listed, as picked in the GUI) and every point is coloured by the cluster it
// joins (the same O(n) assignment as the GUI).

#include <QFileInfo>
#include <QString>

#include <cstdlib>
#include <memory>

#include "args.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "dpc/decision_figure.hpp"
#include "clusterlens/io/dpc_csv.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"

namespace clusterlens::cli {

namespace {

int runPlotDecision(const std::vector<std::string>& argv) {
    Args args(argv, {"--log-rho", "--log-delta"}, with(kPlotValued, {"--peaks-top", "--peaks"}));
    args.expectPositional({"DPC.csv"});
    const std::string& path = args.positional()[0];
    const PlotOutput output = plotOutput(args, "decision", argv, {path});
    auto result = std::make_shared<const DensityPeaksResult>(readDpcCsv(path));
    views::DecisionFigureOptions figure;
    figure.title = QStringLiteral("Decision graph: %1").arg(QFileInfo(QString::fromStdString(path)).completeBaseName());
    figure.logRho = args.flag("--log-rho");
    figure.logDelta = args.flag("--log-delta");
    if (args.has("--peaks-top") && args.has("--peaks")) throw UsageError("give --peaks-top or --peaks, not both");
    std::vector<std::int64_t> peaks;
    if (args.has("--peaks-top")) {
        const std::uint64_t k = args.count("--peaks-top", 0);
        if (k < 1 || k > result->rho.size()) throw UsageError("--peaks-top must lie in 1..number of points");
        peaks = peaksTopK(*result, k);
    }
    for (const std::string& text : args.list("--peaks")) {
        char* end = nullptr;
        const long long p = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || p < 0 || static_cast<std::size_t>(p) >= result->rho.size())
            throw UsageError("--peaks: '" + text + "' is not a point index 0.." +
                             std::to_string(result->rho.size() - 1));
        peaks.push_back(p);
    }
    if (!peaks.empty()) {
        auto labels = std::make_shared<views::LabelVector>(assignFromPeaks(*result, peaks));
        // Label order is density order: list each peak under the cluster it founded.
        figure.peaks.assign(peaks.size(), -1);
        for (std::int64_t p : peaks) figure.peaks[static_cast<std::size_t>((*labels)[static_cast<std::size_t>(p)])] = p;
        figure.labels = std::move(labels);
    }
    views::DecisionFigure drawn(result, std::move(figure));
    writePlot(drawn, output, std::to_string(result->rho.size()) + " points");
    return 0;
}

const PlotRegistrar registrar{
    {"decision", "DPC.csv [--peaks-top K | --peaks i,j,...] [--log-rho] [--log-delta]", runPlotDecision}};

}  // namespace

}  // namespace clusterlens::cli
