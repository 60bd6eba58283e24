// Wiring of the density-peaks page (decision graph): it reads the current dataset and the dataset
// panel's active features; the labels of the chosen peaks reach the other views through the
// analysis session inside the panel.

#include <QDockWidget>

#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "dpc/dpc_panel.hpp"
#include "log_panel.hpp"
#include "main_window.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

void MainWindow::buildDpcDock() {
    m_dpcPanel = new DpcPanel(m_runner, m_analysis, this);
    auto* dock = new QDockWidget(tr("Decision graph"), this);
    dock->setObjectName(QStringLiteral("DecisionGraphDock"));
    dock->setWidget(m_dpcPanel);
    // A tab beside the other views of the right column.
    QDockWidget* neighbour = nullptr;
    for (QDockWidget* other : findChildren<QDockWidget*>())
        if (other != dock && dockWidgetArea(other) == Qt::RightDockWidgetArea && !neighbour) neighbour = other;
    addDockWidget(Qt::RightDockWidgetArea, dock);
    if (neighbour) tabifyDockWidget(neighbour, dock);

    const auto feed = [this] { m_dpcPanel->setDataSource(m_session->current(), m_datasetPanel->activeFeatures()); };
    connect(m_session, &DatasetSession::currentChanged, this, feed);
    connect(m_datasetPanel, &DatasetPanel::activeFeaturesChanged, this, feed);
    connect(m_dpcPanel, &DpcPanel::resultShown, dock, &QDockWidget::raise);
    connect(m_dpcPanel, &DpcPanel::message, this, [this](const QString& text, bool error) {
        if (error)
            m_logPanel->error(text);
        else
            m_logPanel->info(text);
    });
}

}  // namespace clusterlens::gui
