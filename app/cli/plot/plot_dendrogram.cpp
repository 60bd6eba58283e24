// clusterlens-cli plot dendrogram (LINKAGE.csv | --session FILE --name LINKAGE [--population P])
//                                 [--cut-k K [--min-cluster-size M]] [--log]
//                                 [--heatmap INPUT [--columns ...] [--transform ...] [--heatmap-scale zscore|minmax]]
//                                 [--linkage-format scipy|thesis|hclust] [--strip WHAT]...
//                                 --out FIG.png|tif|svg|pdf [common figure options, plot_options.hpp]
// The dendrogram figure of the GUI's export (views/dendrogram/dendrogram_figure.hpp), headless:
// the whole tree, clusters of a cut into K populations of at least M leaves coloured (smaller
// clusters grey; M defaults to 1, a plain cut), heights on a linear or (--log) logarithmic axis,
// and with --heatmap the clustermap of the data's marker medians per cluster (per leaf block
// without a cut) under the leaves (for a linkage of a population, the rows of its members), and up
// to three colour strips under the leaves (--strip, plot_strips.hpp). The
// title defaults to the linkage file's or the stored linkage's name.

#include <QFileInfo>
#include <QString>

#include <algorithm>
#include <memory>
#include <optional>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/session/population.hpp"
#include "dendrogram/clustermap.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_figure.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "input.hpp"
#include "plot/plot_linkage_source.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"
#include "plot/plot_session.hpp"
#include "plot/plot_strips.hpp"

namespace clusterlens::cli {

namespace {

// --heatmap INPUT: the clustermap of every column the common input options keep.
std::shared_ptr<const views::Clustermap> clustermapFrom(const Args& args, const views::DendrogramLayout& layout,
                                                        const views::DendrogramCut* cut, const Members& members) {
    if (!args.has("--heatmap")) {
        if (args.has("--heatmap-scale")) throw UsageError("--heatmap-scale needs --heatmap");
        return nullptr;
    }
    auto data = std::make_shared<const Dataset>(
        eventsOf(loadInput(args.value("--heatmap"), args), members, args.value("--heatmap")));
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

// --strip: over the session's events (its data for marker strips), else over the leaves (--heatmap's
// data for marker strips).
std::shared_ptr<const views::ColourStrips> stripsFrom(const Args& args, const PlotLinkage& tree) {
    const std::vector<std::string> chosen = args.values("--strip");
    const bool markers = std::any_of(chosen.begin(), chosen.end(),
                                     [](const std::string& what) { return what.rfind("marker:", 0) == 0; });
    std::optional<Dataset> data;
    if (markers && tree.session)
        data = sessionData(*tree.session, std::string());
    else if (markers && args.has("--heatmap"))
        data = loadInput(args.value("--heatmap"), args);
    const PlotSession* session = tree.session.get();
    const std::size_t events = session ? session->session.data.n : tree.layout->leafCount;
    return plotStrips(args, {session, data ? &*data : nullptr, "--session or --heatmap INPUT", events, tree.members});
}

int runPlotDendrogram(const std::vector<std::string>& argv) {
    Args args(argv, with(kCommonFlags, {"--log"}),
              with(with(with(kCommonValued, kPlotValued), kPlotSessionValued),
                   {"--cut-k", "--min-cluster-size", "--linkage-format", "--heatmap", "--heatmap-scale", "--strip"}));
    std::vector<std::string> dataFiles = sourceFiles(args);
    if (args.has("--heatmap")) dataFiles.push_back(args.value("--heatmap"));
    for (const std::string& file : stripFiles(args)) dataFiles.push_back(file);
    const PlotOutput output = plotOutput(args, "dendrogram", argv, dataFiles);
    const PlotLinkage tree = plotLinkage(args);
    const auto& layout = tree.layout;
    views::DendrogramFigureOptions figure;
    figure.title = tree.name;
    figure.logHeights = args.flag("--log");
    figure.cut = plotCut(args, tree);
    figure.clustermap = clustermapFrom(args, *layout, figure.cut.get(), tree.members);
    figure.strips = stripsFrom(args, tree);
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

const PlotRegistrar registrar{{"dendrogram",
                               "(LINKAGE.csv | --session FILE --name LINKAGE) [--cut-k K [--min-cluster-size M]] "
                               "[--log] [--heatmap INPUT [--heatmap-scale zscore|minmax]] "
                               "[--linkage-format F] [--strip WHAT]...",
                               runPlotDendrogram}};

}  // namespace

}  // namespace clusterlens::cli
