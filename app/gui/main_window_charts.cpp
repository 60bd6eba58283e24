// Wiring of the Charts dock: the dendrogram's tree and cut feed the cluster-size and merge-height
// charts, the current dataset and the session's populations feed the marker histograms.

#include <QDockWidget>

#include "charts/charts_panel.hpp"
#include "dataset_session.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "log_panel.hpp"
#include "main_window.hpp"
#include "session/session_document.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

void MainWindow::buildChartsDock() {
    auto* charts = new ChartsPanel(this);
    charts->setObjectName(QStringLiteral("ChartsPanel"));
    auto* dock = new QDockWidget(tr("Charts"), this);
    dock->setObjectName(QStringLiteral("ChartsDock"));
    dock->setWidget(charts);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    if (auto* dendrogramDock = findChild<QDockWidget*>(QStringLiteral("DendrogramDock")))
        tabifyDockWidget(dendrogramDock, dock);

    // Every frame of the dendrogram follows a new tree or cut (or a cut taken away).
    const auto followCut = [this, charts] {
        charts->setCut(m_dendrogramPanel->layout(), m_dendrogramPanel->cut(), m_dendrogramPanel->currentLinkage());
    };
    connect(m_dendrogramPanel, &DendrogramPanel::cutApplied, charts, followCut);
    connect(m_dendrogramPanel, &DendrogramPanel::treeShown, charts, followCut);
    connect(m_dendrogramPanel->widget(), &DendrogramWidget::contentDrawn, charts, followCut);
    connect(m_session, &DatasetSession::currentChanged, charts,
            [this, charts] { charts->setData(m_session->current()); });

    const auto followPopulations = [this, charts] {
        std::vector<ChartPopulation> populations;
        for (const Population& p : m_document->populations())
            populations.push_back({QString::fromStdString(p.name), QColor(QString::fromStdString(p.colour)),
                                   std::make_shared<const std::vector<std::int64_t>>(p.members)});
        charts->setPopulations(std::move(populations));
    };
    connect(m_document, &SessionDocument::populationsChanged, charts, followPopulations);
    connect(m_document, &SessionDocument::documentReset, charts, followPopulations);
    connect(m_document, &SessionDocument::populationStyleChanged, charts, followPopulations);
    connect(charts, &ChartsPanel::message, this, [this](const QString& text, bool error) {
        if (error)
            m_logPanel->error(text);
        else
            m_logPanel->info(text);
    });
}

}  // namespace clusterlens::gui
