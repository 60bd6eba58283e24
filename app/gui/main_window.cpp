#include "main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>

#include <string>

#include "analysis_session.hpp"
#include "app_resources.hpp"
#include "clusterlens/backend.hpp"
#include "compare/flat_view.hpp"
#include "compare/heights_view.hpp"
#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dpc/dpc_panel.hpp"
#include "figure/figure_composer_dialog.hpp"
#include "jobs/job_runner.hpp"
#include "jobs/jobs_panel.hpp"
#include "populations/populations_panel.hpp"
#include "log_panel.hpp"
#include "recent_files.hpp"
#include "scatter/scatter_controller.hpp"
#include "scatter/scatter_export.hpp"
#include "scatter/scatter_widget.hpp"
#include "vat/vat_panel.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_runner(new JobRunner(this)),
      m_session(new DatasetSession(m_runner, this)),
      m_analysis(new AnalysisSession(this)),
      m_scatter(new ScatterWidget(this)),
      m_scatterController(new ScatterController(m_runner, m_scatter, this)),
      m_shapeLabel(new QLabel(this)),
      m_backendLabel(new QLabel(this)),
      m_selectionLabel(new QLabel(this)) {
    ensureAppResources();
    setWindowTitle(QStringLiteral("ClusterLens"));
    setWindowIcon(QIcon(QStringLiteral(":/clusterlens/icons/clusterlens.svg")));
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    setCentralWidget(m_scatter);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    buildDocks();
    buildCompareDocks();
    buildDendrogramDock();
    buildDpcDock();
    buildVatDock();
    buildSessionParts();
    buildChartsDock();
    buildMenus();
    buildVatMenu();
    connectSession();
    connectPanel();
    connectJobs();
    connectAnalysis();
    connectDocument();
    connectOpening();

    statusBar()->addPermanentWidget(m_selectionLabel);
    statusBar()->addPermanentWidget(m_shapeLabel);
    statusBar()->addPermanentWidget(m_backendLabel);
    applyDefaultLayout();
    restoreSettings();
    updateStatus();

    m_runner->start<std::string>(
        this, QStringLiteral("backend"), tr("Detect compute backend"),
        [](JobControl&) { return backendDescription(resolveBackend(Backend::Auto)); },
        [this](const JobOutcome<std::string>& outcome) {
            if (outcome.state != JobState::Finished) return;
            m_backendText = QString::fromStdString(*outcome.result);
            m_datasetPanel->setBackendText(m_backendText);
            updateStatus();
        });
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
    m_datasetPanel = new DatasetPanel(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_datasetPanel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* datasetDock = new QDockWidget(tr("Dataset"), this);
    datasetDock->setObjectName(QStringLiteral("DatasetDock"));
    datasetDock->setWidget(scroll);
    addDockWidget(Qt::LeftDockWidgetArea, datasetDock);

    m_jobsPanel = new JobsPanel(m_runner, this);
    auto* jobsDock = new QDockWidget(tr("Jobs"), this);
    jobsDock->setObjectName(QStringLiteral("JobsDock"));
    jobsDock->setWidget(m_jobsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, jobsDock);

    m_logPanel = new LogPanel(this);
    auto* logDock = new QDockWidget(tr("Log"), this);
    logDock->setObjectName(QStringLiteral("LogDock"));
    logDock->setWidget(m_logPanel);
    addDockWidget(Qt::BottomDockWidgetArea, logDock);
    tabifyDockWidget(jobsDock, logDock);
    // Warnings (a cut FCS file, ...) must not hide behind the Jobs tab.
    connect(m_logPanel, &LogPanel::attentionNeeded, logDock, &QDockWidget::raise);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open data\u2026"), this, &MainWindow::chooseAndOpen);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &demo dataset"), this, &MainWindow::openDemo);
    QMenu* recentMenu = file->addMenu(tr("Open &recent data"));
    m_recent = new RecentFiles(recentMenu, this);
    connect(m_recent, &RecentFiles::openRequested, this, &MainWindow::openRecentData);
    file->addSeparator();
    addSessionActions(file);
    file->addSeparator();
    QAction* exportScatter = file->addAction(tr("&Export scatter figure\u2026"), this, [this] {
        const QString path =
            exportScatterFigure(this, m_scatter, m_session->current(), m_datasetPanel->axes(), m_analysis->colouring());
        if (!path.isEmpty()) m_logPanel->info(tr("Wrote %1").arg(path));
    });
    exportScatter->setShortcut(Qt::CTRL | Qt::Key_E);
    // The population statistics are computed (as a job) before the composer lists them with the views.
    file->addAction(tr("&Compose figure\u2026"), this, [this] {
        m_populationsPanel->withStatisticsSource([this](const FigureExportSource& statistics) {
            const QString path = runFigureComposer(
                {scatterExportSource(m_scatter, m_session->current(), m_datasetPanel->axes(), m_analysis->colouring()),
                 m_dendrogramPanel->figureExportSource(), m_dpcPanel->decisionExportSource(),
                 m_dpcPanel->gammaExportSource(), m_vatPanel->figureExportSource(), m_heightsView->figureExportSource(),
                 m_flatView->figureExportSource(), statistics},
                this);
            if (!path.isEmpty()) m_logPanel->info(tr("Wrote %1").arg(path));
        });
    });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    buildEditMenu();
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* reset = view->addAction(tr("&Reset zoom"), m_scatter, &ScatterWidget::resetView);
    reset->setShortcut(Qt::CTRL | Qt::Key_0);
    view->addAction(tr("&Clear selection"), m_scatter, &ScatterWidget::clearSelection);
    view->addAction(tr("&Polygon gate (click vertices, double-click closes)"), m_scatter,
                    &ScatterWidget::beginPolygonGate);
    QAction* shapes = view->addAction(tr("Cluster &shapes (95 % covariance ellipses)"));
    shapes->setCheckable(true);
    shapes->setToolTip(
        tr("While the scatter is coloured by a labeling, draw each cluster's covariance ellipse in "
           "the plotted markers: for a cut of an MHCA tree, the shape its Mahalanobis distance used"));
    connect(shapes, &QAction::toggled, m_scatter, &ScatterWidget::setShapesVisible);
    buildDendrogramViewMenu(view);
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
    buildFocusMenu(view);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ClusterLens"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::connectSession() {
    connect(m_session, &DatasetSession::loadStarted, this, [this](const QString& path) {
        m_logPanel->info(tr("Reading %1").arg(path));
        statusBar()->showMessage(tr("Reading %1\u2026").arg(path));
    });
    connect(m_session, &DatasetSession::loaded, this, &MainWindow::onLoaded);
    connect(m_session, &DatasetSession::loadFailed, this, &MainWindow::onLoadFailed);
    connect(m_session, &DatasetSession::loadCancelled, this, [this](const QString& path) {
        m_logPanel->info(tr("Reading %1 was cancelled; the previous dataset stays.").arg(path));
        statusBar()->clearMessage();
    });
    connect(m_session, &DatasetSession::currentChanged, this, &MainWindow::onCurrentChanged);
    connect(m_scatterController, &ScatterController::failed, this,
            [this](const QString& message) { m_logPanel->error(tr("Scatter: %1").arg(message)); });
    connect(m_scatter, &ScatterWidget::selectionChanged, this, &MainWindow::updateStatus);
}

void MainWindow::connectPanel() {
    connect(m_datasetPanel, &DatasetPanel::transformChanged, this,
            [this](const TransformChoice& choice) { m_session->setTransform(choice); });
    connect(m_datasetPanel, &DatasetPanel::axesChanged, this, [this](const ScatterAxes& axes) {
        m_scatterController->setAxes(axes);
        if (axes.embedding < 0) {
            QSettings().setValue(QStringLiteral("scatter/x"), m_datasetPanel->xName());
            QSettings().setValue(QStringLiteral("scatter/y"), m_datasetPanel->yName());
            m_datasetPanel->setPreferredAxes(m_datasetPanel->xName(), m_datasetPanel->yName());
        }
    });
    connect(m_datasetPanel, &DatasetPanel::activeFeaturesChanged, this, [this](const QStringList& names) {
        QSettings().setValue(QStringLiteral("analysis/activeFeatures"), names);
        m_datasetPanel->setPreferredActiveFeatures(names);
    });
}

void MainWindow::connectJobs() {
    // The one log line of a failed job: views show the failure in place but do not log it again.
    connect(m_runner, &JobRunner::jobFinished, this,
            [this](JobId, const QString& name, JobState state, const QString& message, qint64 ms) {
                const QString seconds = QString::number(static_cast<double>(ms) / 1000.0, 'f', 2);
                if (state == JobState::Finished)
                    m_logPanel->info(tr("%1: done in %2 s").arg(name, seconds));
                else if (state == JobState::Cancelled && message.isEmpty())
                    m_logPanel->info(tr("%1: cancelled after %2 s").arg(name, seconds));
                else if (state == JobState::Failed)
                    m_logPanel->error(tr("%1 failed: %2").arg(name, message));
            });
    // A GPU fault the engine survived (out of memory, a lost CUDA context): the work ran on the CPU.
    connect(m_runner, &JobRunner::jobWarning, this, [this](JobId, const QString& name, const QString& message) {
        m_logPanel->warning(tr("%1: %2").arg(name, message));
        statusBar()->showMessage(message, 15000);
        m_backendText = QString::fromStdString(backendDescription(resolveBackend(Backend::Auto)));
        m_datasetPanel->setBackendText(m_backendText);
        updateStatus();
    });
}

void MainWindow::onCurrentChanged(bool newRows) {
    resetAnalysis(newRows);
    m_scatterController->setDataset(m_session->current(), m_datasetPanel->axes(), m_datasetPanel->colourMode(),
                                    !newRows);
    updateStatus();
}

void MainWindow::updateStatus() {
    const auto current = m_session->current();
    m_shapeLabel->setText(current ? QStringLiteral("%1 \u00d7 %2")
                                        .arg(QLocale().toString(static_cast<qulonglong>(current->n)))
                                        .arg(current->d)
                                  : tr("no dataset"));
    m_backendLabel->setText(m_backendText.isEmpty() ? tr("backend: detecting\u2026")
                                                    : tr("backend: %1").arg(m_backendText));
    const auto selected = m_scatter->selection().size();
    m_selectionLabel->setText(selected > 0 ? tr("%1 selected").arg(selected) : QString());
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About ClusterLens"),
                       tr("<h3>ClusterLens %1</h3><p>Visual analytics of cluster structure in "
                          "cytometry and single-cell data.</p><p>Compute backend: %2</p>")
                           .arg(QStringLiteral(CLUSTERLENS_VERSION), m_backendText.toHtmlEscaped()));
}

}  // namespace clusterlens::gui
