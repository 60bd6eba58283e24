// Wiring of the Populations dock: it reads the data as read and as analysed and the active features
// (the markers of its medians); everything else goes through the session document, the analysis
// session's selection and colouring, and the application's undo stack.

#include <QDockWidget>
#include <QStatusBar>

#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "log_panel.hpp"
#include "main_window.hpp"
#include "populations/populations_panel.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

void MainWindow::buildPopulationsDock() {
    m_populationsPanel = new PopulationsPanel(m_document, m_analysis, m_undo, m_runner, this);
    auto* dock = new QDockWidget(tr("Populations"), this);
    dock->setObjectName(QStringLiteral("PopulationsDock"));
    // Its toolbar scrolls by itself rather than widen the window (PopulationsPanel).
    dock->setWidget(m_populationsPanel);
    // A tab beside the clustering form in the left column.
    QDockWidget* neighbour = findChild<QDockWidget*>(QStringLiteral("ClusteringDock"));
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    if (neighbour) tabifyDockWidget(neighbour, dock);

    const auto feed = [this] {
        m_populationsPanel->setDataSource(m_session->raw(), m_session->current(), m_datasetPanel->activeFeatures());
    };
    connect(m_session, &DatasetSession::currentChanged, this, feed);
    connect(m_datasetPanel, &DatasetPanel::activeFeaturesChanged, this, feed);
    connect(m_populationsPanel, &PopulationsPanel::message, this, [this](const QString& text, bool error) {
        if (error) {
            m_logPanel->warning(text);
            statusBar()->showMessage(text, 8000);
        } else {
            m_logPanel->info(text);
        }
    });
}

}  // namespace clusterlens::gui
