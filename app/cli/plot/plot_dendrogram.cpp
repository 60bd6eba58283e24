// clusterlens-cli plot dendrogram (LINKAGE.csv | --session FILE --name LINKAGE [--population P])
//                                 [--cut-k K [--min-cluster-size M]] [--log]
//                                 [--heatmap INPUT [--columns ...] [--transform ...] [--heatmap-scale zscore|minmax]]
//                                 [--linkage-format scipy|thesis|hclust] [--strip WHAT]...
//                                 [--leaves A:B] [--heights C:D] [--collapse ID,ID,...]
//                                 [--threshold-marks T]
//                                 --out FIG.png|tif|svg|pdf [common figure options, plot_options.hpp]
// The dendrogram figure of the GUI's export (views/dendrogram/dendrogram_figure.hpp), headless:
// the whole tree, clusters of a cut into K populations of at least M leaves coloured (smaller
// clusters grey; M defaults to 1, a plain cut), heights on a linear or (--log) logarithmic axis,
// and with --heatmap the clustermap of the data's marker medians per cluster (per leaf block
// without a cut) under the leaves (for a linkage of a population, the rows of its members), and up
// to three colour strips under the leaves (--strip, plot_strips.hpp). --leaves A:B and --heights C:D
// draw only that part of the tree (leaf units: the leaf at rank r spans r..r+1; merge heights, also
// with --log), as the GUI's export of "only the leaves in view" writes them. --collapse draws the
// subtrees of those clusters as triangles, as the GUI does after a double-click (ids as scipy numbers
// them: n + the merge row that made the cluster). --threshold-marks T marks on the height axis where
// clusters reach T·N leaves, MHCA's size for the full Mahalanobis shape (T its --threshold), as the
// GUI's "Threshold-size marks" do. The title defaults to the linkage file's or the stored linkage's
// name.

#include <QFileInfo>
#include <QString>

#include <algorithm>
#include <charconv>
#include <cstdint>
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
#include "dendrogram/dendrogram_view.hpp"
#include "dendrogram/threshold_marks.hpp"
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

// --leaves/--heights: the part of the tree drawn, checked to show some of it.
void showPart(const Args& args, const views::DendrogramLayout& layout, views::DendrogramFigureOptions& figure) {
    const auto leaves = rangeOption(args, "--leaves", "leaf units");
    const auto heights = rangeOption(args, "--heights", "merge heights");
    const auto n = static_cast<double>(layout.leafCount);
    if (leaves && (leaves->second <= 0.0 || leaves->first >= n))
        throw UsageError("--leaves: " + args.value("--leaves") +
                         " shows none of the tree's leaves 0:" + std::to_string(layout.leafCount));
    if (heights && figure.logHeights && heights->first <= 0.0)
        throw UsageError("--heights: on the --log axis the heights must be positive, got '" + args.value("--heights") +
                         "'");
    views::DendrogramView whole;
    const views::HeightScale scale = views::HeightScale::forLayout(layout, figure.logHeights);
    whole.reset(layout, scale);
    showDendrogramPart(figure, leaves, heights);
    if (heights && (figure.y1 <= whole.y0() || figure.y0 >= whole.y1()))
        throw UsageError("--heights: " + args.value("--heights") + " shows none of the tree's merge heights " +
                         QString::number(scale.fromAxis(whole.y0()), 'g', 6).toStdString() + ":" +
                         QString::number(scale.fromAxis(whole.y1()), 'g', 6).toStdString());
}

/// --collapse ID,...: one flag per merge row, set for the rows that made those clusters.
std::vector<std::uint8_t> collapsedFrom(const Args& args, std::size_t leafCount) {
    if (!args.has("--collapse")) return {};
    std::vector<std::uint8_t> collapsed(leafCount - 1, 0);
    for (const std::string& item : args.list("--collapse")) {
        std::size_t id = 0;
        const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), id);
        if (error != std::errc() || end != item.data() + item.size() || id < leafCount || id > 2 * leafCount - 2)
            throw UsageError("--collapse: '" + item + "' is not the id of a merged cluster (" +
                             std::to_string(leafCount) + ".." + std::to_string(2 * leafCount - 2) +
                             ": n + the merge row that made it)");
        collapsed[id - leafCount] = 1;
    }
    return collapsed;
}

/// --threshold-marks T: MHCA's threshold-size marks for T in (0, 1].
std::shared_ptr<const views::ThresholdMarks> thresholdMarksFrom(const Args& args, const Linkage& linkage) {
    if (!args.has("--threshold-marks")) return nullptr;
    const double threshold = args.number("--threshold-marks", 0.5);
    if (!(threshold > 0.0 && threshold <= 1.0))
        throw UsageError("--threshold-marks: the MHCA threshold must lie in (0, 1], got '" +
                         args.value("--threshold-marks") + "'");
    return views::buildThresholdMarks(linkage, threshold);
}

int runPlotDendrogram(const std::vector<std::string>& argv) {
    Args args(argv, with(kCommonFlags, {"--log"}),
              with(with(with(kCommonValued, kPlotValued), kPlotSessionValued),
                   {"--cut-k", "--min-cluster-size", "--linkage-format", "--heatmap", "--heatmap-scale", "--strip",
                    "--leaves", "--heights", "--collapse", "--threshold-marks"}));
    std::vector<std::string> dataFiles = sourceFiles(args);
    if (args.has("--heatmap")) dataFiles.push_back(args.value("--heatmap"));
    for (const std::string& file : stripFiles(args)) dataFiles.push_back(file);
    const PlotOutput output = plotOutput(args, "dendrogram", argv, dataFiles);
    const PlotLinkage tree = plotLinkage(args);
    const auto& layout = tree.layout;
    views::DendrogramFigureOptions figure;
    figure.title = tree.name;
    figure.logHeights = args.flag("--log");
    showPart(args, *layout, figure);
    figure.cut = plotCut(args, tree);
    figure.clustermap = clustermapFrom(args, *layout, figure.cut.get(), tree.members);
    figure.strips = stripsFrom(args, tree);
    figure.collapsed = collapsedFrom(args, layout->leafCount);
    figure.thresholdMarks = thresholdMarksFrom(args, tree.linkage);
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

const PlotRegistrar dendrogramRegistrar{
    {"dendrogram",
     "(LINKAGE.csv | --session FILE --name LINKAGE) [--cut-k K [--min-cluster-size M]] "
     "[--log] [--heatmap INPUT [--heatmap-scale zscore|minmax]] "
     "[--linkage-format F] [--strip WHAT]... [--leaves A:B] [--heights C:D] "
     "[--collapse ID,...] [--threshold-marks T]",
     runPlotDendrogram}};

}  // namespace

}  // namespace clusterlens::cli
