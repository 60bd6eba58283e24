// clusterlens-cli plot dendrogram LINKAGE.csv [--cut-k K] [--log] [--linkage-format scipy|thesis|hclust]
//                                 --out FIG.png|tif|svg|pdf [common figure options, plot_options.hpp]
// The dendrogram figure of the GUI's export (views/dendrogram/dendrogram_figure.hpp), headless:
// the whole tree, clusters of a cut into K coloured, heights on a linear or (--log) logarithmic
// axis. The title defaults to the linkage file's name.

#include <QFileInfo>
#include <QString>

#include <memory>

#include "args.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_figure.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "input.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"

namespace clusterlens::cli {

namespace {

int runPlotDendrogram(const std::vector<std::string>& argv) {
    Args args(argv, {"--log"}, with(kPlotValued, {"--cut-k", "--linkage-format"}));
    args.expectPositional({"LINKAGE.csv"});
    const std::string& path = args.positional()[0];
    const PlotOutput output = plotOutput(args, "dendrogram", argv, {path});
    const Linkage linkage = readLinkageFrom(args, path);
    const auto layout = std::make_shared<const views::DendrogramLayout>(views::buildDendrogramLayout(linkage));

    views::DendrogramFigureOptions figure;
    figure.title = QFileInfo(QString::fromStdString(path)).completeBaseName();
    figure.logHeights = args.flag("--log");
    if (args.has("--cut-k")) {
        const std::uint64_t k = args.count("--cut-k", 1);
        if (k < 1 || k > linkage.leafCount)
            throw UsageError("--cut-k must lie in 1.." + std::to_string(linkage.leafCount) + ", got " +
                             args.value("--cut-k"));
        figure.cut = std::make_shared<const views::DendrogramCut>(views::cutIntoClusters(*layout, static_cast<int>(k)));
    }
    views::DendrogramFigure drawn(layout, std::move(figure));
    writePlot(drawn, output,
              std::to_string(layout->leafCount) + " leaves, " + std::to_string(layout->inversionCount) + " inversions");
    return 0;
}

const PlotRegistrar registrar{
    {"dendrogram", "LINKAGE.csv [--cut-k K] [--log] [--linkage-format F]", runPlotDendrogram}};

}  // namespace

}  // namespace clusterlens::cli
