// Wiring of analyses on populations: the k-means dock (an analysis of its own, its result a step of
// the undo stack), the session's populations mirrored into the analysis session so that every form can
// run on one, and "Analyse this population" of the Populations panel, which points every form's
// "Run on" at that population.

#include <QDockWidget>
#include <QScrollArea>
#include <QStatusBar>

#include "analysis_session.hpp"
#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "kmeans/kmeans_panel.hpp"
#include "log_panel.hpp"
#include "main_window.hpp"
#include "populations/populations_panel.hpp"
#include "populations/run_on_choice.hpp"
#include "session/labeling_step.hpp"
#include "session/session_document.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

void MainWindow::buildKMeansDock() {
    m_kmeansPanel = new KMeansPanel(m_runner, m_analysis, this);
    m_kmeansPanel->setPublisher(
        [this](const QString& name, std::shared_ptr<const LabelVector> labels, ResultScope scope) {
            addLabelingStep(m_undo, m_analysis, m_document, name, std::move(labels), std::move(scope),
                            tr("Run %1").arg(name));
        });
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_kmeansPanel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* dock = new QDockWidget(tr("k-means"), this);
    dock->setObjectName(QStringLiteral("KMeansDock"));
    dock->setWidget(scroll);
    QDockWidget* neighbour = findChild<QDockWidget*>(QStringLiteral("ClusteringDock"));
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    if (neighbour) tabifyDockWidget(neighbour, dock);

    const auto feed = [this] { m_kmeansPanel->setDataSource(m_session->current(), m_datasetPanel->activeFeatures()); };
    connect(m_session, &DatasetSession::currentChanged, this, feed);
    connect(m_datasetPanel, &DatasetPanel::activeFeaturesChanged, this, feed);
    connect(m_kmeansPanel, &KMeansPanel::labelingAdded, this,
            [this](const QString& name) { m_logPanel->info(tr("k-means: %1").arg(name)); });
    connectPopulationScopes();
}

void MainWindow::connectPopulationScopes() {
    const auto mirror = [this] {
        std::map<QString, std::shared_ptr<const IndexVector>> populations;
        for (const Population& p : m_document->populations())
            populations[QString::fromStdString(p.name)] = std::make_shared<const IndexVector>(p.members);
        m_analysis->setPopulations(std::move(populations));
    };
    connect(m_document, &SessionDocument::populationsChanged, this, mirror);
    connect(m_document, &SessionDocument::documentReset, this, mirror);
    mirror();
    connect(m_populationsPanel, &PopulationsPanel::analyseRequested, this, [this](const QString& name) {
        for (RunOnChoice* choice : findChildren<RunOnChoice*>()) choice->setPopulation(name);
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("ClusteringDock"))) dock->raise();
        statusBar()->showMessage(
            tr("Every analysis now runs on %1; choose \u201cAll events\u201d in its form to go back.").arg(name), 8000);
    });
}

}  // namespace clusterlens::gui
