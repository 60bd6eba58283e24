// clusterlens-cli plot contingency LABELS_A.csv LABELS_B.csv [--matching hungarian|greedy]
//                                  --out FIG.png|tif|svg|pdf [common figure options]
// The contingency heatmap of the GUI's flat comparison (views/compare/contingency_figure.hpp),
// headless: clusters of A (rows) against clusters of B (columns) in matched order, each cell the
// share of its row, the matched pairs outlined on the diagonal, ARI/NMI/F-measure in the subtitle.
// Beyond ContingencyFigure::figureColumnLimit columns the smallest unmatched clusters of B are summed
// into one "other" column, as in the GUI's export.

#include <QFileInfo>
#include <QString>

#include <memory>

#include "args.hpp"
#include "clusterlens/compare/agreement.hpp"
#include "clusterlens/io/labels.hpp"
#include "compare/contingency_figure.hpp"
#include "compare/flat_comparison.hpp"
#include "plot/plot_options.hpp"
#include "plot/plot_registry.hpp"

namespace clusterlens::cli {

namespace {

QString baseName(const std::string& path) {
    return QFileInfo(QString::fromStdString(path)).completeBaseName();
}

int runPlotContingency(const std::vector<std::string>& argv) {
    Args args(argv, {}, with(kPlotValued, {"--matching"}));
    args.expectPositional({"LABELS_A.csv", "LABELS_B.csv"});
    const std::string& pathA = args.positional()[0];
    const std::string& pathB = args.positional()[1];
    const MatchingMethod matching =
        parseMatchingMethod(args.choice("--matching", {"hungarian", "greedy"}, "hungarian"));
    const PlotOutput output = plotOutput(args, "contingency", argv, {pathA, pathB});
    auto a = std::make_shared<const views::LabelVector>(readLabels(pathA));
    auto b = std::make_shared<const views::LabelVector>(readLabels(pathB, a->size()));
    const auto comparison = std::make_shared<const views::FlatComparison>(
        views::compareLabelings(a, b, baseName(pathA), baseName(pathB), matching));
    views::ContingencyFigure figure(comparison);
    const std::string other = figure.otherClusterCount() > 0
                                  ? " (" + std::to_string(figure.otherClusterCount()) + " smallest summed as other)"
                                  : std::string();
    writePlot(figure, output,
              std::to_string(comparison->rows()) + " x " + std::to_string(comparison->cols()) + " clusters" + other +
                  ", " + views::scoresText(*comparison).toStdString());
    return 0;
}

const PlotRegistrar registrar{
    {"contingency", "LABELS_A.csv LABELS_B.csv [--matching hungarian|greedy]", runPlotContingency}};

}  // namespace

}  // namespace clusterlens::cli
