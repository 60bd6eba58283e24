// clusterlens-cli plot sizes (LINKAGE.csv | --session FILE --name LINKAGE [--population P])
//                            --cut-k K [--min-cluster-size M] [--linkage-format F]
// clusterlens-cli plot merge-heights (LINKAGE.csv | --session FILE --name LINKAGE [--population P])
//                                    [--cut-k K [--min-cluster-size M]] [--linkage-format F]
//                                    --out FIG.png|tif|svg|pdf [common figure options]
// The Charts dock's cluster sizes and merge-height profile (views/charts), headless: the same Qt
// Charts drawn by the same builders into the same figure. `sizes` shows one bar per cluster of the cut
// into K clusters of at least M leaves (smaller clusters grey, "s1", "s2", ...); `merge-heights` the
// highest merge left against the number of clusters, the cut's K marked.

#include <QString>

#include <memory>

#include "args.hpp"
#include "charts/chart_builders.hpp"
#include "charts/chart_data.hpp"
#include "charts/chart_figure.hpp"
#include "plot/plot_linkage_source.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"
#include "plot/plot_session.hpp"

namespace clusterlens::cli {

namespace {

Args chartArgs(const std::vector<std::string>& argv) {
    return Args(argv, {},
                with(with(kPlotValued, kPlotSessionValued), {"--cut-k", "--min-cluster-size", "--linkage-format"}));
}

int runPlotSizes(const std::vector<std::string>& argv) {
    const Args args = chartArgs(argv);
    if (!args.has("--cut-k")) throw UsageError("plot sizes needs --cut-k K (the cut whose clusters it counts)");
    const PlotLinkage tree = plotLinkage(args);
    const PlotOutput output = plotOutput(args, "sizes", argv, sourceFiles(args));
    const auto cut = plotCut(args, tree);
    const views::BarChartData bars = views::clusterSizeBars(*tree.layout, *cut);
    views::ChartFigure figure(QStringLiteral("Cluster sizes: %1").arg(tree.name), views::clusterSizeTitles(),
                              [bars](const views::ChartAxisTitles& t) { return views::makeClusterSizeChart(bars, t); });
    std::string summary = std::to_string(cut->k) + " clusters, " + std::to_string(cut->k - cut->populations) +
                          " smaller than " + std::to_string(cut->minSize);
    if (bars.omitted > 0) summary += ", " + std::to_string(bars.omitted) + " not shown";
    writePlot(figure, output, summary);
    return 0;
}

int runPlotMergeHeights(const std::vector<std::string>& argv) {
    const Args args = chartArgs(argv);
    const PlotLinkage tree = plotLinkage(args);
    const PlotOutput output = plotOutput(args, "merge-heights", argv, sourceFiles(args));
    const auto cut = plotCut(args, tree);
    const views::MergeProfile profile = views::mergeHeightProfile(*tree.layout, cut ? cut->k : 1);
    views::ChartFigure figure(
        QStringLiteral("Merge heights: %1").arg(tree.name), views::mergeProfileTitles(),
        [profile](const views::ChartAxisTitles& t) { return views::makeMergeProfileChart(profile, t); });
    writePlot(figure, output, std::to_string(profile.points.size()) + " cluster counts");
    return 0;
}

const PlotRegistrar sizes{{"sizes",
                           "(LINKAGE.csv | --session FILE --name LINKAGE) --cut-k K [--min-cluster-size M] "
                           "[--linkage-format F]",
                           runPlotSizes}};
const PlotRegistrar mergeHeights{{"merge-heights",
                                  "(LINKAGE.csv | --session FILE --name LINKAGE) [--cut-k K [--min-cluster-size M]] "
                                  "[--linkage-format F]",
                                  runPlotMergeHeights}};

}  // namespace

}  // namespace clusterlens::cli
