// MainWindow: what goes into the session besides the AnalysisSession's linkages and labelings — DPC
// runs, VAT orders and comparisons as the panels finish them — and the view state: captured before
// each save, applied in two steps when a session opens (axes, features and dock layout while its data
// loads; colouring, tree, cut and zoom once the data is shown).

#include <QDockWidget>

#include <utility>

#include "clusterlens/vat/metric.hpp"
#include "jobs/job_runner.hpp"
#include "session/session_results.hpp"
#include "vat/vat_run.hpp"

#include "analysis_session.hpp"
#include "colour_strip_chooser.hpp"
#include "colouring_combo.hpp"
#include "compare/flat_view.hpp"
#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dpc/dpc_panel.hpp"
#include "dpc/peak_choice.hpp"
#include "clusterlens/session/population.hpp"
#include "jobs/job_runner.hpp"
#include "focus_mode.hpp"
#include "main_window.hpp"
#include "populations/run_on_choice.hpp"
#include "scatter/scatter_controller.hpp"
#include "scatter/scatter_widget.hpp"
#include "session/session_document.hpp"
#include "session/session_recorder.hpp"
#include "session/session_results.hpp"
#include "session/undo_recorder.hpp"
#include "session/view_state.hpp"
#include "vat/vat_panel.hpp"
#include "vat/vat_run.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

namespace {

/// Columns of `data` named in `features` (a stored result's), in that order; unknown names skipped.
std::vector<std::size_t> featureColumns(const Dataset& data, const std::vector<std::string>& features) {
    std::vector<std::size_t> columns;
    for (const std::string& feature : features)
        if (const long column = data.featureIndex(feature); column >= 0)
            columns.push_back(static_cast<std::size_t>(column));
    return columns;
}

// The clustermap modes of DendrogramPanel::clustermapMode(), by index, as the view state names them.
const QStringList kClustermapModes = {QStringLiteral("off"), QStringLiteral("zscore"), QStringLiteral("minmax")};

std::vector<StripChoice> stripChoices(const ColourStripChooser& chooser) {
    std::vector<StripChoice> strips;
    for (int slot = 0; slot < maxColourStrips; ++slot) {
        const ColouringCombo* combo = chooser.combo(slot);
        const ColourMode mode = combo->mode();
        strips.push_back({mode == ColourMode::Labels   ? QStringLiteral("labels")
                          : mode == ColourMode::Marker ? QStringLiteral("marker")
                                                       : QStringLiteral("none"),
                          mode == ColourMode::Density ? QString() : combo->name()});
    }
    return strips;
}

/// Chooses the stored strips again; a labeling or marker the session no longer has leaves its slot empty.
void chooseStrips(ColourStripChooser& chooser, const std::vector<StripChoice>& strips) {
    for (std::size_t slot = 0; slot < strips.size() && slot < static_cast<std::size_t>(maxColourStrips); ++slot) {
        const StripChoice& strip = strips[slot];
        const ColourMode mode = strip.mode == QLatin1String("labels")   ? ColourMode::Labels
                                : strip.mode == QLatin1String("marker") ? ColourMode::Marker
                                                                        : ColourMode::Density;
        chooser.setStrip(static_cast<int>(slot), mode, strip.name);
    }
}

}  // namespace

void MainWindow::connectResultRecording() {
    const auto updateContext = [this] {
        m_recorder->setContext({m_datasetPanel->activeFeatures(), m_session->transform().key()});
    };
    connect(m_datasetPanel, &DatasetPanel::activeFeaturesChanged, this, updateContext);
    connect(m_session, &DatasetSession::currentChanged, this, updateContext);
    connect(m_dpcPanel, &DpcPanel::resultShown, this, [this] {
        if (const auto run = m_dpcPanel->lastRun()) m_recorder->recordDpc(*run, nullptr, nullptr);
    });
    connect(m_dpcPanel, &DpcPanel::labelsApplied, this, [this] {
        if (const auto run = m_dpcPanel->lastRun())
            m_recorder->recordDpc(*run, &m_dpcPanel->peakChoice()->peaks(), m_dpcPanel->currentLabels().get());
    });
    connect(m_vatPanel, &VatPanel::resultShown, this, [this] {
        if (const auto run = m_vatPanel->lastRun()) m_recorder->recordVat(*run);
    });
    connect(m_flatView, &FlatComparisonView::comparisonReady, this, [this] {
        if (std::exchange(m_comparisonOfOpen, false)) return;
        const auto comparison = m_flatView->comparison();
        // A comparison names stored labelings; the populations labeling is derived, never stored.
        const QString derived = SessionRecorder::populationsLabeling();
        if (comparison && comparison->nameA != derived && comparison->nameB != derived)
            m_recorder->recordComparison(*comparison);
    });
}

ViewState MainWindow::captureViewState() const {
    ViewState s;
    s.xAxis = m_datasetPanel->xName();
    s.yAxis = m_datasetPanel->yName();
    s.embedding = m_datasetPanel->axes().embedding;
    const ViewWindow& window = m_scatter->viewWindow();
    s.scatterWindow = std::array<double, 4>{window.x0(), window.x1(), window.y0(), window.y1()};
    s.activeFeatures = m_datasetPanel->activeFeatures();
    s.colouring = m_analysis->colouring();
    s.colourMarker = m_analysis->colouringMarker();
    s.dendrogramLinkage = m_dendrogramPanel->currentLinkage();
    s.dendrogramClusters = m_dendrogramPanel->clusterCount();
    s.dendrogramMinSize = m_dendrogramPanel->minClusterSize();
    s.dendrogramHeatmap = kClustermapModes.value(m_dendrogramPanel->clustermapMode());
    s.dendrogramStrips = stripChoices(*m_dendrogramPanel->stripChooser());
    s.dendrogramThresholdMarks = m_dendrogramPanel->widget()->thresholdMarksShown();
    s.dendrogramTreeIvat = m_dendrogramPanel->treeVatShown();
    s.vatStrips = stripChoices(*m_vatPanel->stripChooser());
    if (const auto run = m_dpcPanel->lastRun()) s.dpcResult = dpcResultName(*run);
    if (const auto run = m_vatPanel->lastRun()) s.vatEntry = vatEntryName(*run);
    s.vatClusters = m_vatPanel->clusterCount();
    s.vatImage = m_vatPanel->display().kind == VatImageKind::Ivat ? QStringLiteral("ivat") : QStringLiteral("vat");
    s.dockLayout = m_focus->dockState();
    return s;
}

void MainWindow::applyViewStateBeforeData(const ViewState& s) {
    // The dataset panel picks these when the data arrives.
    if (!s.xAxis.isEmpty()) m_datasetPanel->setPreferredAxes(s.xAxis, s.yAxis);
    if (!s.activeFeatures.isEmpty()) m_datasetPanel->setPreferredActiveFeatures(s.activeFeatures);
    m_focus->leave();
    if (!s.dockLayout.isEmpty()) restoreState(s.dockLayout);
}

void MainWindow::applyViewStateAfterData(const ViewState& s) {
    m_vatPanel->setImageKind(s.vatImage == QLatin1String("ivat") ? VatImageKind::Ivat : VatImageKind::Vat);
    if (const auto mode = kClustermapModes.indexOf(s.dendrogramHeatmap); mode >= 0)
        m_dendrogramPanel->setClustermapMode(static_cast<int>(mode));
    m_dendrogramPanel->widget()->setThresholdMarksShown(s.dendrogramThresholdMarks);
    m_dendrogramPanel->setTreeVatShown(s.dendrogramTreeIvat);
    // Colouring and strips may name the labelings of cuts made below: applied again after each.
    const auto applyColouring = [this, s] {
        if (!s.colourMarker.isEmpty())
            m_analysis->setMarkerColouring(s.colourMarker);
        else if (!s.colouring.isEmpty() && m_analysis->labeling(s.colouring))
            m_analysis->setColouring(s.colouring);
        chooseStrips(*m_dendrogramPanel->stripChooser(), s.dendrogramStrips);
        chooseStrips(*m_vatPanel->stripChooser(), s.vatStrips);
    };
    showStoredDpc(s.dpcResult);
    showStoredVat(s.vatEntry, s.vatClusters, applyColouring);
    if (!s.dendrogramLinkage.isEmpty() && m_analysis->linkage(s.dendrogramLinkage)) {
        const int k = s.dendrogramClusters;
        // A cut colours the views with its own labeling: the stored colouring goes on top of it.
        if (k > 1) {
            m_undoRecorder->expectDendrogramCut(k);
            connect(m_dendrogramPanel, &DendrogramPanel::cutApplied, this, applyColouring, Qt::SingleShotConnection);
        }
        const int minSize = s.dendrogramMinSize;
        connect(
            m_dendrogramPanel, &DendrogramPanel::treeShown, this,
            [this, k, minSize] {
                // Before the cut, so that the cut counts clusters of at least that size.
                if (minSize > 0) m_dendrogramPanel->setMinClusterSize(minSize);
                if (k > 1) m_dendrogramPanel->setClusterCount(k);
            },
            Qt::SingleShotConnection);
        m_dendrogramPanel->showLinkage(s.dendrogramLinkage);
    }
    applyColouring();
    if (!s.scatterWindow) return;
    ViewWindow window;
    const auto& w = *s.scatterWindow;
    window.setBounds(w[0], w[1], w[2], w[3]);
    const auto current = m_session->current();
    // Small data is on the scatter already; large data is still being prepared as a job.
    if (current && current->n <= ScatterController::inlineLimit)
        m_scatter->setViewWindow(window);
    else
        connect(
            m_scatterController, &ScatterController::ready, this, [this, window] { m_scatter->setViewWindow(window); },
            Qt::SingleShotConnection);
}

void MainWindow::showStoredDpc(const QString& name) {
    const auto current = m_session->current();
    const DpcResult* stored = findNamed(m_document->session().dpc, name.toStdString());
    if (!current || !stored) return;
    // A run on a population is shown on its events again, as it ran.
    const ResultScope scope = scopeOf(stored->info);
    const auto events = scopedDataset(current, scope);
    if (stored->rho.size() != events->n) return;
    auto run = std::make_shared<DpcRun>();
    run->scope = scope;
    run->request.dataset = events;
    run->request.columns = featureColumns(*current, stored->info.features);
    run->request.options.kernel = stored->kernel == "cutoff" ? DensityKernel::Cutoff : DensityKernel::Gaussian;
    run->request.options.dc = stored->dc;
    run->result = densityPeaksOf(*stored);
    run->backend = tr("stored in the session");
    // Copies: showing the run records it again, which may replace `stored`.
    const std::vector<std::int64_t> peaks =
        scope.isAll() ? stored->peaks : indicesToPositions(stored->peaks, *scope.members);
    const std::vector<std::uint8_t> halo = stored->halo;
    m_dpcPanel->showRun(std::move(run), peaks, halo);
}

void MainWindow::showStoredVat(const QString& name, int clusters, const std::function<void()>& afterCut) {
    const auto current = m_session->current();
    const VatEntry* stored = findNamed(m_document->session().vat, name.toStdString());
    if (!current || !stored) return;
    const ResultScope scope = scopeOf(stored->info);
    const auto events = scopedDataset(current, scope);
    if (stored->order.empty() || stored->order.size() != events->n) return;
    VatRequest request;
    request.dataset = events;
    request.columns = featureColumns(*current, stored->info.features);
    request.metric = parseMetric(stored->metric);
    auto vat = std::make_shared<VatResult>();
    vat->n = events->n;
    vat->order = scope.isAll() ? stored->order : indicesToPositions(stored->order, *scope.members);
    vat->start = static_cast<std::size_t>(vat->order.front());
    vat->metric = request.metric;
    vat->cut = stored->cut;
    // The render source copies every point in VAT order: a job, as for a computed order.
    m_runner->start<VatRun>(
        this, QStringLiteral("vat-restore"), tr("Show the stored VAT order"),
        [request, vat, scope](JobControl&) {
            VatRun run = storedVatRun(request, vat);
            run.scope = scope;
            return run;
        },
        [this, clusters, afterCut](const JobOutcome<VatRun>& outcome) {
            if (outcome.state != JobState::Finished) return;
            m_vatPanel->showRun(outcome.result);
            if (clusters > 1) {
                m_undoRecorder->expectVatCut(clusters);
                m_vatPanel->setClusterCount(clusters);
            }
            afterCut();
        });
}

}  // namespace clusterlens::gui
