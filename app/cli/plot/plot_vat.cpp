// clusterlens-cli plot vat INPUT [--image ivat|vat] [--metric euclidean|sqeuclidean|manhattan|cosine]
//                          [--colormap grey|viridis|magma] [--cut-k K] [common data options]
//                          --out FIG.png|tif|svg|pdf [common figure options]
// The VAT/iVAT figure of the GUI (views/vat/vat_figure.hpp), headless: the VAT order of INPUT, the
// image rendered at the output's resolution by the same viewport renderer as the view, position
// ticks, the boxes of the K largest cuts, and the colour bar of the distances.

#include <QFileInfo>
#include <QString>

#include <memory>

#include "args.hpp"
#include "clusterlens/vat/colormap.hpp"
#include "clusterlens/vat/metric.hpp"
#include "clusterlens/vat/vat.hpp"
#include "input.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"
#include "vat/vat_figure.hpp"
#include "vat/vat_run.hpp"

namespace clusterlens::cli {

namespace {

int runPlotVat(const std::vector<std::string>& argv) {
    Args args(argv, kCommonFlags,
              with(with(kCommonValued, kPlotValued), {"--image", "--metric", "--colormap", "--cut-k"}));
    args.expectPositional({"INPUT"});
    const std::string& path = args.positional()[0];
    const PlotOutput output = plotOutput(args, "vat", argv, {path});
    const bool ivat = args.choice("--image", {"ivat", "vat"}, "ivat") == "ivat";
    views::VatRequest request;
    request.metric =
        parseMetric(args.choice("--metric", {"euclidean", "sqeuclidean", "manhattan", "cosine"}, "euclidean"));
    request.backend = backendFrom(args);
    auto data = std::make_shared<const Dataset>(loadInput(path, args));
    request.dataset = data;
    for (std::size_t j = 0; j < data->d; ++j) request.columns.push_back(j);

    JobControl control;
    const views::VatRun run = views::runVat(request, control);
    printWarnings(control.warnings());
    views::VatFigureOptions options;
    const QString name = QFileInfo(QString::fromStdString(path)).completeBaseName();
    options.title = QStringLiteral("%1: %2").arg(ivat ? QStringLiteral("iVAT") : QStringLiteral("VAT"), name);
    options.display.kind = ivat ? VatImageKind::Ivat : VatImageKind::Vat;
    options.display.colormap = parseColormap(args.choice("--colormap", {"grey", "viridis", "magma"}, "grey"));
    if (args.has("--cut-k")) {
        const std::uint64_t k = args.count("--cut-k", 1);
        if (k < 1 || k > run.n()) throw UsageError("--cut-k must lie in 1.." + std::to_string(run.n()));
        options.cuts = largestCutPositions(*run.vat, k);
    }
    views::VatFigure figure(run.renderer, std::move(options));
    writePlot(figure, output, std::to_string(run.n()) + " points, order from " + std::to_string(run.vat->start));
    return 0;
}

const PlotRegistrar registrar{
    {"vat", "INPUT [--image ivat|vat] [--metric M] [--colormap grey|viridis|magma] [--cut-k K]", runPlotVat}};

}  // namespace

}  // namespace clusterlens::cli
