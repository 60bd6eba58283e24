// clusterlens-cli plot contingency (LABELS_A.csv LABELS_B.csv | --session FILE --name A --name2 B |
//                                   --session FILE --name COMPARISON) [--matching hungarian|greedy]
//                                  --out FIG.png|tif|svg|pdf [common figure options]
// The contingency heatmap of the GUI's flat comparison (views/compare/contingency_figure.hpp),
// headless: clusters of A (rows) against clusters of B (columns) in matched order, each cell the
// share of its row, the matched pairs outlined on the diagonal, ARI/NMI/F-measure in the subtitle.
// Beyond ContingencyFigure::figureColumnLimit columns the smallest unmatched clusters of B are summed
// into one "other" column, as in the GUI's export. From a session, --name and --name2 are two stored
// labelings (events outside a labeling's population count as its "noise"), or --name alone a stored
// comparison, which names its labelings and its matching (--matching overrides it).

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
#include "plot/plot_session.hpp"

namespace clusterlens::cli {

namespace {

QString baseName(const std::string& path) {
    return QFileInfo(QString::fromStdString(path)).completeBaseName();
}

struct Labelings {
    std::shared_ptr<const views::LabelVector> a, b;
    QString nameA, nameB;
    std::string matching = "hungarian";
};

/// --name A --name2 B, or --name COMPARISON: the stored labelings.
Labelings storedLabelings(const Args& args, const PlotSession& session) {
    const std::vector<LabelingResult>& stored = session.session.labelings;
    const LabelingResult* a = nullptr;
    const LabelingResult* b = nullptr;
    Labelings out;
    if (args.has("--name2")) {
        a = &sessionResult(args, session, stored, "--name", "labeling");
        b = &sessionResult(args, session, stored, "--name2", "labeling");
    } else {
        const ComparisonResult& comparison =
            sessionResult(args, session, session.session.comparisons, "--name", "comparison");
        out.matching = comparison.matching;
        for (const std::string* name : {&comparison.labelingA, &comparison.labelingB}) {
            const LabelingResult* found = findNamed(stored, *name);
            if (!found)
                throw InvalidInput("--name: comparison '" + comparison.info.name + "' names labeling '" + *name +
                                   "', which " + session.path + " does not hold");
            (a ? b : a) = found;
        }
    }
    out.a = std::make_shared<const views::LabelVector>(a->labels);
    out.b = std::make_shared<const views::LabelVector>(b->labels);
    out.nameA = QString::fromStdString(a->info.name), out.nameB = QString::fromStdString(b->info.name);
    return out;
}

int runPlotContingency(const std::vector<std::string>& argv) {
    Args args(argv, {}, with(with(kPlotValued, kPlotSessionValued), {"--matching"}));
    const auto session = plotSession(args, {"LABELS_A.csv", "LABELS_B.csv"});
    const PlotOutput output = plotOutput(args, "contingency", argv, sourceFiles(args));
    Labelings labelings;
    if (session) {
        labelings = storedLabelings(args, *session);
    } else {
        const std::string& pathA = args.positional()[0];
        const std::string& pathB = args.positional()[1];
        labelings.a = std::make_shared<const views::LabelVector>(readLabels(pathA));
        labelings.b = std::make_shared<const views::LabelVector>(readLabels(pathB, labelings.a->size()));
        labelings.nameA = baseName(pathA), labelings.nameB = baseName(pathB);
    }
    const MatchingMethod matching =
        parseMatchingMethod(args.choice("--matching", {"hungarian", "greedy"}, labelings.matching));
    const auto comparison = std::make_shared<const views::FlatComparison>(
        views::compareLabelings(labelings.a, labelings.b, labelings.nameA, labelings.nameB, matching));
    views::ContingencyFigure figure(comparison);
    const std::string other = figure.otherClusterCount() > 0
                                  ? " (" + std::to_string(figure.otherClusterCount()) + " smallest summed as other)"
                                  : std::string();
    writePlot(figure, output,
              std::to_string(comparison->rows()) + " x " + std::to_string(comparison->cols()) + " clusters" + other +
                  ", " + views::scoresText(*comparison).toStdString());
    return 0;
}

const PlotRegistrar contingencyRegistrar{
    {"contingency",
     "(LABELS_A.csv LABELS_B.csv | --session FILE --name A --name2 B | --session FILE --name "
     "COMPARISON) [--matching hungarian|greedy]",
     runPlotContingency}};

}  // namespace

}  // namespace clusterlens::cli
