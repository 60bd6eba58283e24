// Wiring of the dendrogram view and the clustering panel that feeds it. Both read the current
// dataset and the dataset panel's active features; everything else (cuts colouring the views, the
// linked selection) goes through the analysis session inside the panels. Failed jobs reach the log
// through the job runner already.

#include <QDockWidget>
#include <QScrollArea>

#include "analysis_session.hpp"
#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "dendrogram/clustering_panel.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "log_panel.hpp"
#include "main_window.hpp"
#include "session/session_document.hpp"
#include "session/session_results.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

void MainWindow::buildDendrogramDock() {
    m_dendrogramPanel = new DendrogramPanel(m_runner, m_analysis, this);
    m_dendrogramPanel->setLinkageFeatures([this](const QString& name) {
        const LinkageResult* stored = findNamed(m_document->session().linkages, name.toStdString());
        return stored ? toQStringList(stored->info.features) : QStringList();
    });
    auto* dendrogramDock = new QDockWidget(tr("Dendrogram"), this);
    dendrogramDock->setObjectName(QStringLiteral("DendrogramDock"));
    dendrogramDock->setWidget(m_dendrogramPanel);
    // Share the right column with the views already there, as a tab in front of them.
    QDockWidget* neighbour = nullptr;
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        if (dockWidgetArea(dock) == Qt::RightDockWidgetArea && !neighbour) neighbour = dock;
    addDockWidget(Qt::RightDockWidgetArea, dendrogramDock);
    if (neighbour) tabifyDockWidget(neighbour, dendrogramDock);
    dendrogramDock->raise();

    m_clusteringPanel = new ClusteringPanel(m_runner, m_analysis, this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_clusteringPanel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* clusteringDock = new QDockWidget(tr("Clustering"), this);
    clusteringDock->setObjectName(QStringLiteral("ClusteringDock"));
    clusteringDock->setWidget(scroll);
    addDockWidget(Qt::LeftDockWidgetArea, clusteringDock);

    const auto feed = [this] {
        const auto current = m_session->current();
        const QStringList features = m_datasetPanel->activeFeatures();
        m_clusteringPanel->setDataSource(current, features);
        m_dendrogramPanel->setDataSource(current, features);
    };
    connect(m_session, &DatasetSession::currentChanged, this, feed);
    connect(m_datasetPanel, &DatasetPanel::activeFeaturesChanged, this, feed);
    connect(m_clusteringPanel, &ClusteringPanel::linkageAdded, this, [this, dendrogramDock](const QString& name) {
        m_dendrogramPanel->showLinkage(name);
        dendrogramDock->raise();
    });
    connect(m_dendrogramPanel, &DendrogramPanel::message, this, [this](const QString& text, bool error) {
        if (error)
            m_logPanel->error(text);
        else
            m_logPanel->info(text);
    });
}

}  // namespace clusterlens::gui
