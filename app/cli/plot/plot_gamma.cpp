// clusterlens-cli plot gamma DPC.csv [--peaks-top K] --out FIG.png|tif|svg|pdf [common figure options]
// The γ-rank plot of the GUI's DPC panel (views/dpc/gamma_figure.hpp), headless, from the table the
// `dpc` command writes: γ = ρ·δ by rank on a log axis, the suggested count (the largest drop) and,
// with --peaks-top, the K chosen peaks in their clusters' colours.

#include <QFileInfo>
#include <QString>

#include <memory>

#include "args.hpp"
#include "clusterlens/io/dpc_csv.hpp"
#include "dpc/gamma_figure.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"

namespace clusterlens::cli {

namespace {

int runPlotGamma(const std::vector<std::string>& argv) {
    Args args(argv, {}, with(kPlotValued, {"--peaks-top"}));
    args.expectPositional({"DPC.csv"});
    const std::string& path = args.positional()[0];
    const PlotOutput output = plotOutput(args, "gamma", argv, {path});
    auto result = std::make_shared<const DensityPeaksResult>(readDpcCsv(path));
    views::GammaFigureOptions options;
    options.title =
        QStringLiteral("\u03b3 by rank: %1").arg(QFileInfo(QString::fromStdString(path)).completeBaseName());
    if (args.has("--peaks-top")) {
        options.chosen = args.count("--peaks-top", 0);
        if (options.chosen < 1 || options.chosen > result->rho.size())
            throw UsageError("--peaks-top must lie in 1..number of points");
    }
    views::GammaFigure figure(result, std::move(options));
    writePlot(figure, output,
              std::to_string(result->gamma.size()) + " points, largest drop at " + std::to_string(figure.suggested()) +
                  " peaks");
    return 0;
}

const PlotRegistrar registrar{{"gamma", "DPC.csv [--peaks-top K]", runPlotGamma}};

}  // namespace

}  // namespace clusterlens::cli
