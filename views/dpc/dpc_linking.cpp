// DpcPanel's part in what links the views: the decision graph highlights the events selected in any
// view and selects events for all of them (shift-drag), a ctrl-click adds or removes one peak, and
// the hover tooltips name the events. A run on a population has one point per member, so its
// positions are mapped to whole-dataset indices and back here.

#include <QCheckBox>

#include <algorithm>

#include "dpc/decision_graph.hpp"
#include "dpc/dpc_panel.hpp"
#include "dpc/gamma_plot.hpp"
#include "dpc/peak_choice.hpp"

namespace clusterlens::views {

namespace {

/// Whole-dataset rows -> positions among `members` (ascending indices; null: every event, positions
/// are rows). Rows outside the members are left out. O(s log m).
QList<qsizetype> positionsOf(const IndexVector& rows, const IndexVector* members) {
    QList<qsizetype> positions;
    positions.reserve(static_cast<qsizetype>(rows.size()));
    for (std::int64_t row : rows) {
        if (!members) {
            positions.push_back(static_cast<qsizetype>(row));
            continue;
        }
        const auto it = std::lower_bound(members->begin(), members->end(), row);
        if (it != members->end() && *it == row) positions.push_back(static_cast<qsizetype>(it - members->begin()));
    }
    return positions;
}

/// Positions among `members` (null: every event) -> whole-dataset rows, ascending.
IndexVector rowsOf(const QList<qsizetype>& positions, const IndexVector* members) {
    IndexVector rows;
    rows.reserve(static_cast<std::size_t>(positions.size()));
    for (qsizetype p : positions) {
        if (!members)
            rows.push_back(p);
        else if (p >= 0 && static_cast<std::size_t>(p) < members->size())
            rows.push_back((*members)[static_cast<std::size_t>(p)]);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

}  // namespace

void DpcPanel::connectLinking() {
    m_graph->setAnalysis(m_analysis);
    m_gamma->setAnalysis(m_analysis);
    connect(m_graph, &DecisionGraph::peakToggled, this, [this](qsizetype row) {
        m_useThresholds->setChecked(false);
        m_choice->togglePeak(row);
    });
    connect(m_graph, &DecisionGraph::cellsSelected, this, [this](const QList<qsizetype>& rows) {
        const IndexVector* members = m_run ? m_run->scope.members.get() : nullptr;
        m_analysis->setSelection(std::make_shared<const IndexVector>(rowsOf(rows, members)), m_graph);
    });
    connect(m_analysis, &AnalysisSession::selectionChanged, this, [this](const QObject* origin) {
        if (origin != m_graph) showLinkedSelection();
    });
}

void DpcPanel::showLinkedSelection() {
    const auto members = m_run ? m_run->scope.members : nullptr;
    m_graph->setEventIndices(members);
    m_gamma->setEventIndices(members);
    m_graph->setHighlighted(positionsOf(*m_analysis->selection(), members.get()));
}

}  // namespace clusterlens::views
