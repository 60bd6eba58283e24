// Wiring of the analysis session: results of the current dataset, the labeling that colours every
// view, and the point selection shared by all views.

#include <QList>

#include <algorithm>

#include "analysis_session.hpp"
#include "colouring_combo.hpp"
#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "marker_scale.hpp"
#include "main_window.hpp"
#include "result_names.hpp"
#include "scatter/point_tooltip.hpp"
#include "scatter/scatter_controller.hpp"
#include "scatter/scatter_widget.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

void MainWindow::connectAnalysis() {
    installEventTooltips(m_scatter, m_session, m_analysis);
    connect(m_scatter, &ScatterWidget::selectionChanged, this, [this](const QList<qsizetype>& rows) {
        // The scatter also reports selections it was given from the session: do not echo them back.
        const auto current = m_analysis->selection();
        if (std::equal(rows.begin(), rows.end(), current->begin(), current->end())) return;
        auto indices = std::make_shared<IndexVector>(rows.begin(), rows.end());
        m_analysis->setSelection(std::move(indices), m_scatter);
    });
    connect(m_analysis, &AnalysisSession::selectionChanged, this, [this](const QObject* origin) {
        if (origin == m_scatter) return;
        const auto selection = m_analysis->selection();
        m_scatter->setSelection(QList<qsizetype>(selection->begin(), selection->end()));
    });
    connect(m_analysis, &AnalysisSession::colouringChanged, this, [this](const QString& name) {
        ColouringCombo* combo = m_datasetPanel->colouringCombo();
        const auto current = m_session->current();
        const QString marker = m_analysis->colouringMarker();
        if (!marker.isEmpty() && current) {
            m_scatterController->setMarker(markerColumn(*current, marker));
            combo->setColouring(ColourMode::Marker, marker);
            return;
        }
        const auto labels = m_analysis->labeling(name);
        m_scatterController->setLabels(labels, m_analysis->labelingStyle(name));
        if (!labels) return;
        m_scatterController->setColourMode(ColourMode::Labels);
        combo->setColouring(ColourMode::Labels, name);
    });
    connect(m_analysis, &AnalysisSession::labelingsChanged, this,
            [this] { m_datasetPanel->colouringCombo()->setLabelings(m_analysis->labelingNames()); });
    connect(m_datasetPanel->colouringCombo(), &ColouringCombo::colouringChosen, this,
            [this](ColourMode mode, const QString& name) {
                if (mode == ColourMode::Labels) return m_analysis->setColouring(name);
                if (mode == ColourMode::Marker) return m_analysis->setMarkerColouring(name);
                // Density first, so that dropping the labeling does not rebuild a labelled scatter.
                m_scatterController->setColourMode(ColourMode::Density);
                m_analysis->setColouring(QString());
            });
}

void MainWindow::resetAnalysis(bool newRows) {
    if (!newRows) return;  // a transform keeps the points, so results and selection stay valid
    m_analysis->clear();
    const auto current = m_session->current();
    if (current && !current->labels.empty())
        m_analysis->addLabeling(groundTruthName(QString::fromStdString(current->labelSource)),
                                std::make_shared<LabelVector>(current->labels));
}

}  // namespace clusterlens::gui
