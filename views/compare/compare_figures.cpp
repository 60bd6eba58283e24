// The comparison views' figure exports: the point-height plot and the contingency heatmap, each
// with the `plot` command that redraws it from the results exported as CSV (or from the saved session
// that stores them: --session FILE --name A --name2 B) and the methods text.

#include "compare/contingency_figure.hpp"
#include "compare/flat_view.hpp"
#include "compare/heights_figure.hpp"
#include "compare/heights_view.hpp"
#include "figure/methods_text.hpp"

namespace clusterlens::views {

namespace {

/// `plot KIND A.csv B.csv OPTIONS` as `plot KIND --name A --name2 B OPTIONS`: the two results by
/// their names in the session.
template <typename Comparison>
QStringList sessionCommandOf(const QStringList& command, const Comparison& comparison) {
    return command.mid(0, 3) +
           QStringList{QStringLiteral("--name"), comparison.nameA, QStringLiteral("--name2"), comparison.nameB} +
           command.mid(5);
}

}  // namespace

FigureExportSource HeightsView::figureExportSource() const {
    FigureExportSource source;
    if (!m_comparison) return source;
    const auto comparison = m_comparison;
    const bool equal = m_equalAxes;
    const HeightsColour colour = m_colour;
    source.title = tr("Export point-height figure");
    source.name = tr("Point heights");
    source.suggestedName = QStringLiteral("point_heights");
    source.figure = [comparison, equal, colour](bool) -> std::unique_ptr<Figure> {
        return std::make_unique<HeightsFigure>(comparison, equal, colour);
    };
    source.command = {QStringLiteral("clusterlens-cli"), QStringLiteral("plot"), QStringLiteral("heights"),
                      resultFileName(comparison->nameA), resultFileName(comparison->nameB)};
    if (equal) source.command << QStringLiteral("--equal-axes");
    if (colour != HeightsColour::Density) source.command << QStringLiteral("--colour") << heightsColourId(colour);
    source.sessionCommand = sessionCommandOf(source.command, *comparison);
    if (!m_dataFile.isEmpty()) source.dataFiles = {m_dataFile};
    source.methods = pointHeightsMethods(comparison->nameA, comparison->nameB, correlationText(*comparison));
    return source;
}

FigureExportSource FlatComparisonView::figureExportSource() const {
    FigureExportSource source;
    if (!m_comparison) return source;
    const auto comparison = m_comparison;
    source.title = tr("Export contingency heatmap");
    source.name = tr("Contingency heatmap");
    source.suggestedName = QStringLiteral("contingency");
    source.figure = [comparison](bool) -> std::unique_ptr<Figure> {
        return std::make_unique<ContingencyFigure>(comparison);
    };
    source.command = {
        QStringLiteral("clusterlens-cli"),
        QStringLiteral("plot"),
        QStringLiteral("contingency"),
        resultFileName(comparison->nameA),
        resultFileName(comparison->nameB),
        QStringLiteral("--matching"),
        matchingMethod() == MatchingMethod::Greedy ? QStringLiteral("greedy") : QStringLiteral("hungarian")};
    source.sessionCommand = sessionCommandOf(source.command, *comparison);
    if (!m_dataFile.isEmpty()) source.dataFiles = {m_dataFile};
    source.methods = flatComparisonMethods(comparison->nameA, comparison->nameB, scoresText(*comparison),
                                           comparison->method == MatchingMethod::Greedy);
    return source;
}

}  // namespace clusterlens::views
