// clusterlens-cli plot heights (LINKAGE_A.csv LINKAGE_B.csv | --session FILE --name A --name2 B)
//                              [--equal-axes] [--colour density|rank-difference]
//                              [--linkage-format scipy|thesis|hclust]
//                              --out FIG.png|tif|svg|pdf [common figure options, plot_options.hpp]
// The point-height comparison figure of the GUI (views/compare/heights_figure.hpp), headless.
// --equal-axes gives both axes one range (heights in the same unit), as the GUI's checkbox does;
// --colour rank-difference colours the points by |height rank in A − rank in B| as the view can.
// From a session, --name and --name2 are two stored linkages of the same events (A on the x axis).

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
#include "plot/plot_session.hpp"

namespace clusterlens::cli {

namespace {

views::HeightsColour colourOption(const Args& args) {
    const std::string text = args.value("--colour", "density");
    for (const auto colour : {views::HeightsColour::Density, views::HeightsColour::RankDifference})
        if (text == views::heightsColourId(colour).toStdString()) return colour;
    throw UsageError("--colour: unknown colouring '" + text + "' (expected density or rank-difference)");
}

int runPlotHeights(const std::vector<std::string>& argv) {
    Args args(argv, {"--equal-axes"}, with(with(kPlotValued, kPlotSessionValued), {"--linkage-format", "--colour"}));
    const views::HeightsColour colour = colourOption(args);
    const auto session = plotSession(args, {"LINKAGE_A.csv", "LINKAGE_B.csv"});
    if (session && !args.has("--name2")) throw UsageError("--session needs --name A and --name2 B (two linkages)");
    const PlotOutput output = plotOutput(args, "heights", argv, sourceFiles(args));
    Linkage a, b;
    QString nameA, nameB;
    std::string whereA, whereB;
    if (session) {
        const LinkageResult& storedA = sessionResult(args, *session, session->session.linkages, "--name", "linkage");
        const LinkageResult& storedB = sessionResult(args, *session, session->session.linkages, "--name2", "linkage");
        if (storedA.info.members != storedB.info.members)
            throw InvalidInput("--name2: '" + storedB.info.name + "' clustered other events than '" +
                               storedA.info.name + "' in " + session->path);
        a = storedA.linkage, b = storedB.linkage;
        nameA = QString::fromStdString(storedA.info.name), nameB = QString::fromStdString(storedB.info.name);
        whereA = "'" + storedA.info.name + "'", whereB = "--name2: '" + storedB.info.name + "'";
    } else {
        whereA = args.positional()[0], whereB = args.positional()[1];
        a = readLinkageFrom(args, whereA), b = readLinkageFrom(args, whereB);
        // The file names (without folder and extension) name the clusterings on the axes.
        nameA = QFileInfo(QString::fromStdString(whereA)).completeBaseName();
        nameB = QFileInfo(QString::fromStdString(whereB)).completeBaseName();
    }
    if (a.leafCount != b.leafCount)
        throw InvalidInput(whereB + ": clusters " + std::to_string(b.leafCount) + " points but " + whereA +
                           " clusters " + std::to_string(a.leafCount));
    const auto comparison = std::make_shared<const views::HeightsComparison>(views::compareHeights(a, b, nameA, nameB));
    views::HeightsFigure drawn(comparison, args.flag("--equal-axes"), colour);
    writePlot(
        drawn, output,
        std::to_string(comparison->pointCount()) + " points, " + views::correlationText(*comparison).toStdString());
    return 0;
}

const PlotRegistrar heightsRegistrar{
    {"heights",
     "(LINKAGE_A.csv LINKAGE_B.csv | --session FILE --name A --name2 B) [--equal-axes] "
     "[--colour density|rank-difference] [--linkage-format F]",
     runPlotHeights}};

}  // namespace

}  // namespace clusterlens::cli
