// clusterlens-cli plot gamma (DPC.csv | --session FILE --name DPC [--population P]) [--peaks-top K]
//                            --out FIG.png|tif|svg|pdf [common figure options]
// The γ-rank plot of the GUI's DPC panel (views/dpc/gamma_figure.hpp), headless, from the table the
// `dpc` command writes (also of a population) or a DPC result stored in a session: γ = ρ·δ by rank on
// a log axis, the suggested count (the largest drop) and the K chosen peaks in their clusters'
// colours (--peaks-top K; from a session without it, as many as were chosen there).

#include <QString>

#include <memory>

#include "args.hpp"
#include "dpc/gamma_figure.hpp"
#include "plot/plot_dpc_source.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"
#include "plot/plot_session.hpp"

namespace clusterlens::cli {

namespace {

int runPlotGamma(const std::vector<std::string>& argv) {
    Args args(argv, {}, with(with(kPlotValued, kPlotSessionValued), {"--peaks-top"}));
    const PlotDpc dpc = plotDpc(args);
    const PlotOutput output = plotOutput(args, "gamma", argv, sourceFiles(args));
    views::GammaFigureOptions options;
    // A stored result keeps the GUI's title; a file's figure is titled with the file.
    if (!dpc.stored) options.title = QStringLiteral("\u03b3 by rank: %1").arg(dpc.name);
    options.chosen = dpc.storedPeaks.size();
    if (args.has("--peaks-top")) {
        options.chosen = args.count("--peaks-top", 0);
        if (options.chosen < 1 || options.chosen > dpc.result->rho.size())
            throw UsageError("--peaks-top must lie in 1..number of points");
    }
    views::GammaFigure figure(dpc.result, std::move(options));
    writePlot(figure, output,
              std::to_string(dpc.result->gamma.size()) + " points, largest drop at " +
                  std::to_string(figure.suggested()) + " peaks");
    return 0;
}

const PlotRegistrar gammaRegistrar{{"gamma", "(DPC.csv | --session FILE --name DPC) [--peaks-top K]", runPlotGamma}};

}  // namespace

}  // namespace clusterlens::cli
