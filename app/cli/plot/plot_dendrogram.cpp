// clusterlens-cli plot dendrogram LINKAGE.csv [--cut-k K [--min-cluster-size M]] [--log]
//                                 [--heatmap INPUT [--columns ...] [--transform ...] [--heatmap-scale zscore|minmax]]
//                                 [--linkage-format scipy|thesis|hclust]
//                                 --out FIG.png|tif|svg|pdf [common figure options, plot_options.hpp]
// The dendrogram figure of the GUI's export (views/dendrogram/dendrogram_figure.hpp), headless:
// the whole tree, clusters of a cut into K populations of at least M leaves coloured (smaller
// clusters grey; M defaults to 1, a plain cut), heights on a linear or (--log) logarithmic axis,
// and with --heatmap the clustermap of the data's marker medians per cluster (per leaf block
// without a cut) under the leaves. The title defaults to the linkage file's name.

#include <QFileInfo>
#include <QString>

#include <memory>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "dendrogram/clustermap.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_figure.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "input.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"

namespace clusterlens::cli {

namespace {

std::shared_ptr<const views::DendrogramCut> cutFrom(const Args& args, const Linkage& linkage,
                                                    const views::DendrogramLayout& layout) {
    const std::uint64_t minSize = args.count("--min-cluster-size", 1);
    if (!args.has("--cut-k")) {
        if (args.has("--min-cluster-size")) throw UsageError("--min-cluster-size needs --cut-k");
        return nullptr;
    }
    const std::uint64_t k = args.count("--cut-k", 1);
    if (k < 1 || k > linkage.leafCount)
        throw UsageError("--cut-k must lie in 1.." + std::to_string(linkage.leafCount) + ", got " +
                         args.value("--cut-k"));
    if (minSize < 1 || minSize > linkage.leafCount)
        throw UsageError("--min-cluster-size must lie in 1.." + std::to_string(linkage.leafCount) + ", got " +
                         args.value("--min-cluster-size"));
    return std::make_shared<const views::DendrogramCut>(
        views::cutIntoPopulations(linkage, layout, static_cast<int>(k), static_cast<std::size_t>(minSize)));
}

// --heatmap INPUT: the clustermap of every column the common input options keep.
std::shared_ptr<const views::Clustermap> clustermapFrom(const Args& args, const views::DendrogramLayout& layout,
                                                        const views::DendrogramCut* cut) {
    if (!args.has("--heatmap")) {
        if (args.has("--heatmap-scale")) throw UsageError("--heatmap-scale needs --heatmap");
        return nullptr;
    }
    auto data = std::make_shared<const Dataset>(loadInput(args.value("--heatmap"), args));
    if (data->n != layout.leafCount)
        throw InvalidInput(args.value("--heatmap") + ": " + std::to_string(data->n) + " points, but the tree has " +
                           std::to_string(layout.leafCount) + " leaves");
    QStringList names;
    for (const std::string& feature : data->features) names << QString::fromStdString(feature);
    const auto scaling = args.choice("--heatmap-scale", {"zscore", "minmax"}, "zscore") == "minmax"
                             ? MarkerScaling::MinMax
                             : MarkerScaling::ZScore;
    return views::buildClustermap(layout, cut, views::selectFeatures(data, names), scaling);
}

int runPlotDendrogram(const std::vector<std::string>& argv) {
    Args args(argv, with(kCommonFlags, {"--log"}),
              with(with(kCommonValued, kPlotValued),
                   {"--cut-k", "--min-cluster-size", "--linkage-format", "--heatmap", "--heatmap-scale"}));
    args.expectPositional({"LINKAGE.csv"});
    const std::string& path = args.positional()[0];
    std::vector<std::string> dataFiles{path};
    if (args.has("--heatmap")) dataFiles.push_back(args.value("--heatmap"));
    const PlotOutput output = plotOutput(args, "dendrogram", argv, dataFiles);
    const Linkage linkage = readLinkageFrom(args, path);
    const auto layout = std::make_shared<const views::DendrogramLayout>(views::buildDendrogramLayout(linkage));

    views::DendrogramFigureOptions figure;
    figure.title = QFileInfo(QString::fromStdString(path)).completeBaseName();
    figure.logHeights = args.flag("--log");
    figure.cut = cutFrom(args, linkage, *layout);
    figure.clustermap = clustermapFrom(args, *layout, figure.cut.get());
    std::string summary =
        std::to_string(layout->leafCount) + " leaves, " + std::to_string(layout->inversionCount) + " inversions";
    if (figure.cut && figure.cut->k > figure.cut->populations)
        summary += ", " + std::to_string(figure.cut->populations) + " clusters of at least " +
                   std::to_string(figure.cut->minSize) + " leaves and " +
                   std::to_string(figure.cut->k - figure.cut->populations) + " small";
    views::DendrogramFigure drawn(layout, std::move(figure));
    writePlot(drawn, output, summary);
    return 0;
}

const PlotRegistrar registrar{
    {"dendrogram",
     "LINKAGE.csv [--cut-k K [--min-cluster-size M]] [--log] [--heatmap INPUT [--heatmap-scale zscore|minmax]] "
     "[--linkage-format F]",
     runPlotDendrogram}};

}  // namespace

}  // namespace clusterlens::cli
