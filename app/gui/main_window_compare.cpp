// Wiring of the comparison views: the point-height scatter of two hierarchical clusterings and
// the flat comparison (contingency heatmap, matched pairs, ARI/NMI/F-measure), each in a dock.
// Both read the analysis session and share its selection with every other view.

#include <QDockWidget>

#include "analysis_session.hpp"
#include "compare/flat_view.hpp"
#include "compare/heights_view.hpp"
#include "dataset_session.hpp"
#include "log_panel.hpp"
#include "main_window.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

void MainWindow::buildCompareDocks() {
    m_heightsView = new HeightsView(m_runner, m_analysis, this);
    auto* heightsDock = new QDockWidget(tr("Point heights"), this);
    heightsDock->setObjectName(QStringLiteral("PointHeightsDock"));
    heightsDock->setWidget(m_heightsView);
    addDockWidget(Qt::RightDockWidgetArea, heightsDock);

    m_flatView = new FlatComparisonView(m_runner, m_analysis, this);
    auto* flatDock = new QDockWidget(tr("Compare clusterings"), this);
    flatDock->setObjectName(QStringLiteral("CompareClusteringsDock"));
    flatDock->setWidget(m_flatView);
    addDockWidget(Qt::RightDockWidgetArea, flatDock);
    splitDockWidget(heightsDock, flatDock, Qt::Vertical);
    resizeDocks({heightsDock}, {480}, Qt::Horizontal);

    // An imported linkage must cluster the points of the open dataset.
    connect(m_session, &DatasetSession::currentChanged, this, [this] {
        const auto current = m_session->current();
        m_heightsView->setDatasetSize(current ? current->n : 0);
        const QString file = current ? QString::fromStdString(current->provenance.path) : QString();
        m_heightsView->setDataFile(file);
        m_flatView->setDataFile(file);
    });
    connect(m_heightsView, &HeightsView::failed, this,
            [this](const QString& message) { m_logPanel->error(tr("Point heights: %1").arg(message)); });
}

}  // namespace clusterlens::gui
