// clusterlens-cli plot heights LINKAGE_A.csv LINKAGE_B.csv [--equal-axes] [--linkage-format scipy|thesis|hclust]
//                              --out FIG.png|tif|svg|pdf [common figure options, plot_options.hpp]
// The point-height comparison figure of the GUI (views/compare/heights_figure.hpp), headless.
// --equal-axes gives both axes one range (heights in the same unit), as the GUI's checkbox does.

#include <QFileInfo>
#include <QString>

#include <memory>
#include <string>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "compare/heights_comparison.hpp"
#include "compare/heights_figure.hpp"
#include "input.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"

namespace clusterlens::cli {

namespace {

int runPlotHeights(const std::vector<std::string>& argv) {
    Args args(argv, {"--equal-axes"}, with(kPlotValued, {"--linkage-format"}));
    args.expectPositional({"LINKAGE_A.csv", "LINKAGE_B.csv"});
    const std::string& pathA = args.positional()[0];
    const std::string& pathB = args.positional()[1];
    const PlotOutput output = plotOutput(args, "heights", argv, {pathA, pathB});
    const Linkage a = readLinkageFrom(args, pathA);
    const Linkage b = readLinkageFrom(args, pathB);
    if (a.leafCount != b.leafCount)
        throw InvalidInput(pathB + ": clusters " + std::to_string(b.leafCount) + " points but " + pathA + " clusters " +
                           std::to_string(a.leafCount));
    // The file names (without folder and extension) name the clusterings on the axes.
    const auto comparison = std::make_shared<const views::HeightsComparison>(
        views::compareHeights(a, b, QFileInfo(QString::fromStdString(pathA)).completeBaseName(),
                              QFileInfo(QString::fromStdString(pathB)).completeBaseName()));
    views::HeightsFigure drawn(comparison, args.flag("--equal-axes"));
    writePlot(
        drawn, output,
        std::to_string(comparison->pointCount()) + " points, " + views::correlationText(*comparison).toStdString());
    return 0;
}

const PlotRegistrar registrar{
    {"heights", "LINKAGE_A.csv LINKAGE_B.csv [--equal-axes] [--linkage-format F]", runPlotHeights}};

}  // namespace

}  // namespace clusterlens::cli
