#include "dpc/dpc_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "dpc/decision_figure.hpp"
#include "dpc/decision_graph.hpp"
#include "clusterlens/io/dpc_csv.hpp"
#include "dpc/gamma_plot.hpp"
#include "dpc/peak_choice.hpp"
#include "dpc/peak_table_model.hpp"
#include "figure/figure_export_dialog.hpp"
#include "jobs/job_status.hpp"
#include "populations/run_on_choice.hpp"
#include "result_names.hpp"
#include "session/result_staleness.hpp"
#include "session/session_results.hpp"

namespace clusterlens::views {

namespace {

const QString kDpcJobSlot = QStringLiteral("dpc");
/// Events from which the Gaussian kernel without a GPU takes minutes: the run says so.
constexpr std::size_t kSlowGaussianEvents = 50'000;
const QString kHaloSlot = QStringLiteral("dpc-halo");

/// "DPC (k=3)", "DPC (k=3, halo)", with " on POPULATION" for a run on a population.
QString labelingNameOf(std::size_t k, bool halo, const ResultScope& scope) {
    return dpcLabelingName(k, halo) + scopeSuffix(scope);
}

}  // namespace

DpcPanel::DpcPanel(JobRunner* runner, AnalysisSession* analysis, QWidget* parent)
    : QWidget(parent),
      m_runner(runner),
      m_analysis(analysis),
      m_choice(new PeakChoice(this)),
      m_table(new PeakTableModel(this)) {
    buildForm();
    connectForm();
    connect(m_runner, &JobRunner::progressTick, this, &DpcPanel::pollProgress);
    updateEnabled();
}

DpcPanel::~DpcPanel() = default;

void DpcPanel::setDataSource(std::shared_ptr<const Dataset> dataset, const QStringList& activeFeatures) {
    if (dataset != m_dataset) {
        m_runner->cancelSlot(kDpcJobSlot);
        m_runner->cancelSlot(kHaloSlot);
        m_job = 0;
        m_run.reset();
        m_stale->refresh();
        m_shownLabels.reset();
        m_labelingName.clear();
        m_choice->setResult(nullptr);
        m_gamma->setResult(nullptr);
        m_status->clear();
        resetDataFields();
    }
    m_dataset = std::move(dataset);
    m_features = activeFeatures;
    updateEnabled();
}

void DpcPanel::resetDataFields() {
    // A cutoff value and threshold lines are distances and densities of other points: back to the
    // form's defaults (the quantile and K are choices that carry over).
    const QSignalBlocker blockRho(m_rhoMin), blockDelta(m_deltaMin), blockLines(m_useThresholds);
    m_dcMode->setCurrentIndex(0);
    m_dcValue->setValue(1.0);
    m_rhoMin->setValue(0.0);
    m_deltaMin->setValue(0.0);
    m_useThresholds->setChecked(false);
    m_graph->setThresholds(std::nullopt);
    m_pickStatus->clear();
}

DensityPeaksOptions DpcPanel::options() const {
    DensityPeaksOptions o;
    o.kernel = static_cast<DensityKernel>(m_kernel->currentData().toInt());
    if (m_dcMode->currentIndex() == 1) o.dc = m_dcValue->value();
    o.dcPercent = m_dcPercent->value();
    o.exactPercentile = m_dcMethod->currentData().toBool();
    return o;
}

void DpcPanel::setOptions(const DensityPeaksOptions& o, Backend backend) {
    m_kernel->setCurrentIndex(m_kernel->findData(static_cast<int>(o.kernel)));
    m_dcMode->setCurrentIndex(o.dc ? 1 : 0);
    if (o.dc) m_dcValue->setValue(*o.dc);
    m_dcPercent->setValue(o.dcPercent);
    m_dcMethod->setCurrentIndex(m_dcMethod->findData(o.exactPercentile));
    m_backend->setCurrentIndex(m_backend->findData(static_cast<int>(backend)));
}

void DpcPanel::run() {
    if (!m_dataset || m_features.isEmpty() || isRunning()) return;
    DpcRequest request;
    request.dataset = m_dataset;
    for (const QString& name : m_features) {
        const long column = m_dataset->featureIndex(name.toStdString());
        if (column >= 0) request.columns.push_back(static_cast<std::size_t>(column));
    }
    request.options = options();
    request.backend = static_cast<Backend>(m_backend->currentData().toInt());
    const ResultScope scope = m_runOn->scope();
    const std::size_t points = scope.isAll() ? m_dataset->n : scope.members->size();
    QString text = tr("Computing \u03c1 and \u03b4 for %1 points\u2026").arg(points);
    const bool onCpu = request.backend == Backend::Cpu || (request.backend == Backend::Auto && !cudaAvailable());
    if (onCpu && request.options.kernel == DensityKernel::Gaussian && points >= kSlowGaussianEvents)
        text += QLatin1Char(' ') + tr("Without a GPU the Gaussian kernel sums over all %L1 pairs of events, which "
                                      "takes many minutes at this size; the cutoff kernel finds neighbours with "
                                      "a kd-tree and takes seconds to a minute.")
                                       .arg(static_cast<qulonglong>(points) * (points - 1) / 2);
    m_status->setText(text);
    m_progress->setValue(0);
    m_job = startOnScope<DpcRun>(m_runner, this, kDpcJobSlot,
                                 tr("Density peaks: %1 points%2").arg(points).arg(scopeSuffix(scope)), request, scope,
                                 computeDpcRun, [this](const JobOutcome<DpcRun>& outcome) { onFinished(outcome); });
    updateEnabled();
}

void DpcPanel::cancel() {
    if (m_job != 0) m_runner->cancel(m_job);
}

void DpcPanel::onFinished(const JobOutcome<DpcRun>& outcome) {
    m_job = 0;
    updateEnabled();
    if (!showJobEnd(outcome, m_status, m_progress, [this](const QString& text) { Q_EMIT failed(text); })) return;
    m_run = outcome.result;
    m_stale->refresh();
    m_shownLabels.reset();
    m_status->setText(runDescription());
    m_gamma->setResult(m_run->result);
    m_topK->setMaximum(static_cast<int>(std::min<std::size_t>(m_run->result->rho.size(), 1'000'000)));
    placeDefaultThresholds();
    m_choice->setResult(m_run->result);
    updateEnabled();
    Q_EMIT resultShown();
}

void DpcPanel::showRun(std::shared_ptr<const DpcRun> run, const std::vector<std::int64_t>& peaks,
                       const std::vector<std::uint8_t>& halo) {
    if (isRunning()) cancel();
    onFinished({JobState::Finished, std::move(run), {}});
    // The stored halo is shown as it was saved (onPeaksChanged), not computed again.
    m_storedHalo = halo;
    if (!halo.empty()) {
        const QSignalBlocker block(m_halo);
        m_halo->setChecked(true);
    }
    if (!peaks.empty()) m_choice->apply(peaks);
    m_storedHalo.clear();
}

QString DpcPanel::runDescription() const {
    if (!m_run) return {};
    const DensityPeaksResult& r = *m_run->result;
    return tr("%1, %2 kernel; %3; %4 s (dc %5 s, \u03c1 %6 s, \u03b4 %7 s)")
        .arg(describeDc(r.dc), r.kernel == DensityKernel::Gaussian ? tr("Gaussian") : tr("cutoff"), m_run->backend)
        .arg(r.secondsDc + r.secondsRho + r.secondsDelta, 0, 'f', 2)
        .arg(r.secondsDc, 0, 'f', 2)
        .arg(r.secondsRho, 0, 'f', 2)
        .arg(r.secondsDelta, 0, 'f', 2);
}

void DpcPanel::placeDefaultThresholds() {
    // Lines just inside the knee's peaks, so turning them on picks the suggested peaks.
    const DensityPeaksResult& r = *m_run->result;
    const std::vector<std::int64_t> top = peaksTopK(r, std::max<std::size_t>(1, m_gamma->suggestedCount()));
    double rho = r.rho[static_cast<std::size_t>(top.front())], delta = r.delta[static_cast<std::size_t>(top.front())];
    for (std::int64_t p : top) {
        rho = std::min(rho, r.rho[static_cast<std::size_t>(p)]);
        delta = std::min(delta, r.delta[static_cast<std::size_t>(p)]);
    }
    const QSignalBlocker blockRho(m_rhoMin), blockDelta(m_deltaMin);
    m_rhoMin->setValue(0.9 * rho);
    m_deltaMin->setValue(0.9 * delta);
}

void DpcPanel::applyThresholds(double rhoMin, double deltaMin) {
    if (!m_run) return;
    {
        const QSignalBlocker blockCheck(m_useThresholds), blockRho(m_rhoMin), blockDelta(m_deltaMin);
        m_useThresholds->setChecked(true);
        m_rhoMin->setValue(rhoMin);
        m_deltaMin->setValue(deltaMin);
    }
    m_graph->setThresholds(QPointF(rhoMin, deltaMin));
    m_choice->chooseByThresholds(rhoMin, deltaMin);
}

void DpcPanel::applyTopK(std::size_t k) {
    if (!m_run) return;
    m_useThresholds->setChecked(false);
    m_topK->setValue(static_cast<int>(k));
    m_choice->chooseTopK(k);
}

void DpcPanel::setLogAxes(bool logRho, bool logDelta) {
    const QSignalBlocker blockRho(m_logRho), blockDelta(m_logDelta);
    m_logRho->setChecked(logRho);
    m_logDelta->setChecked(logDelta);
    showGraph();
}

void DpcPanel::setHaloEnabled(bool enabled) {
    m_halo->setChecked(enabled);
}

void DpcPanel::showGraph() {
    if (!m_run) {
        m_graph->showResult(nullptr, {}, nullptr, {}, false);
        return;
    }
    const DecisionScale scale = DecisionScale::of(*m_run->result, m_logRho->isChecked(), m_logDelta->isChecked());
    m_graph->showResult(m_run->result, scale, m_shownLabels, m_choice->peaks(), true);
    showLinkedSelection();
}

void DpcPanel::onPeaksChanged() {
    m_runner->cancelSlot(kHaloSlot);
    const auto labels = m_choice->labels();
    const std::size_t k = m_choice->peaks().size();
    m_gamma->setCurrentCount(k);
    updateEnabled();
    if (!labels) {
        m_shownLabels.reset();
        m_table->setPeaks(*m_choice, nullptr);
        m_pickStatus->setText(m_run ? tr("No peaks chosen.") : QString());
        showGraph();
        return;
    }
    m_pickStatus->setText(tr("%1 clusters; re-assigned in %2 ms.").arg(k).arg(m_choice->lastAssignMs(), 0, 'f', 2));
    if (!m_storedHalo.empty() && m_storedHalo.size() == labels->size()) {
        auto marked = std::make_shared<LabelVector>(*labels);
        for (std::size_t i = 0; i < m_storedHalo.size(); ++i)
            if (m_storedHalo[i] != 0) (*marked)[i] = -1;
        publish(std::move(marked), labelingNameOf(k, true, m_run->scope));
        return;
    }
    publish(labels, labelingNameOf(k, false, m_run->scope));
    if (m_halo->isChecked()) startHalo();
}

void DpcPanel::startHalo() {
    const auto run = m_run;
    const auto labels = m_choice->labels();
    const QString name = labelingNameOf(m_choice->peaks().size(), true, run->scope);
    m_pickStatus->setText(m_pickStatus->text() + QLatin1Char(' ') + tr("Computing the halo\u2026"));
    m_runner->start<LabelVector>(
        this, kHaloSlot, tr("Density peaks halo: %1 points").arg(labels->size()),
        [run, labels](JobControl& control) { return runHalo(*run, *labels, control); },
        [this, name](const JobOutcome<LabelVector>& outcome) {
            if (outcome.state == JobState::Failed) Q_EMIT message(tr("Halo failed: %1").arg(outcome.message), true);
            if (outcome.state != JobState::Finished) return;
            const auto noise = std::count(outcome.result->begin(), outcome.result->end(), -1);
            m_pickStatus->setText(
                tr("%1 clusters; %2 border points marked as noise.").arg(m_choice->peaks().size()).arg(noise));
            publish(outcome.result, name);
        });
}

void DpcPanel::publish(std::shared_ptr<const LabelVector> labels, const QString& name) {
    m_shownLabels = labels;
    m_labelingName = name;
    m_table->setPeaks(*m_choice, labels, m_run->scope.members.get());
    showGraph();
    // Replacing the labeling that already colours the views recolours them once, not twice.
    const bool colouring = m_analysis->colouring() == name;
    m_analysis->addLabeling(name, wholeLabels(std::move(labels), m_run->scope, m_dataset ? m_dataset->n : 0),
                            m_run->scope);
    if (!colouring) m_analysis->setColouring(name);
    Q_EMIT labelsApplied(name);
}

std::unique_ptr<DecisionFigure> DpcPanel::figure() const {
    if (!m_run) throw InvalidInput("Run density peaks before exporting the decision graph.");
    DecisionFigureOptions o;
    o.subtitle = describeDc(m_run->result->dc);
    o.labels = m_shownLabels;
    o.peaks = m_choice->peaks();
    if (m_useThresholds->isChecked()) o.thresholds = QPointF(m_rhoMin->value(), m_deltaMin->value());
    o.logRho = m_logRho->isChecked();
    o.logDelta = m_logDelta->isChecked();
    return std::make_unique<DecisionFigure>(m_run->result, std::move(o));
}

void DpcPanel::exportFigure(const QString& path, const FigureExportOptions& options) const {
    views::exportFigure(*figure(), path, options);
}

void DpcPanel::exportLabels(const QString& path) const {
    if (!m_shownLabels) throw InvalidInput(path.toStdString() + ": choose peaks before exporting labels");
    writeLabelsCsv(path.toStdString(), *wholeLabels(m_shownLabels, m_run->scope, m_dataset ? m_dataset->n : 0));
}

void DpcPanel::exportTable(const QString& path) const {
    if (!m_run) throw InvalidInput(path.toStdString() + ": run density peaks before exporting DPC.csv");
    // The stored form names the points of a run on a population by whole-dataset index, as `dpc
    // --population` and `session get --dpc` write them.
    writeDpcCsv(path.toStdString(), dpcResult(dpcResultName(*m_run), *m_run, {}, nullptr, QString()));
}

void DpcPanel::watchStaleness(const StaleMarker* marker) {
    m_stale->follow(marker, StaleMarker::Kind::Dpc, [this] { return m_run ? dpcResultName(*m_run) : QString(); });
}

void DpcPanel::chooseExport(int kind) {
    static const QString filters[] = {QString(), tr("Labels (*.csv)"), tr("DPC table (*.csv)")};
    static const QString names[] = {QString(), QStringLiteral("labels.csv"), QStringLiteral("DPC.csv")};
    if (kind == 0 || kind == 3) {
        const FigureExportSource source = kind == 0 ? decisionExportSource() : gammaExportSource();
        if (!source.isValid()) {
            Q_EMIT message(tr("Run density peaks before exporting a figure."), true);
            return;
        }
        const QString written = runFigureExportDialog(source, this);
        if (!written.isEmpty()) Q_EMIT message(tr("Wrote %1").arg(written), false);
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), names[kind], filters[kind]);
    if (path.isEmpty()) return;
    try {
        if (kind == 1)
            exportLabels(path);
        else
            exportTable(path);
        Q_EMIT message(tr("Wrote %1").arg(path), false);
    } catch (const Error& e) {
        Q_EMIT message(QString::fromStdString(e.what()), true);
    }
}

void DpcPanel::pollProgress() {
    showJobProgress(*m_runner, m_job, m_progress, m_status, tr("Computing \u03c1 and \u03b4\u2026"));
}

void DpcPanel::updateEnabled() {
    const bool ready = m_dataset && !m_features.isEmpty();
    m_runButton->setEnabled(ready && !isRunning());
    m_cancelButton->setEnabled(isRunning());
    m_dcValue->setEnabled(m_dcMode->currentIndex() == 1);
    m_dcPercent->setEnabled(m_dcMode->currentIndex() == 0);
    m_dcMethod->setEnabled(m_dcMode->currentIndex() == 0);
    const bool haveRun = m_run != nullptr;
    for (QWidget* w : {static_cast<QWidget*>(m_useThresholds), static_cast<QWidget*>(m_rhoMin),
                       static_cast<QWidget*>(m_deltaMin), static_cast<QWidget*>(m_topK),
                       static_cast<QWidget*>(m_topKButton), static_cast<QWidget*>(m_kneeButton), m_exportRow})
        w->setEnabled(haveRun);
    m_stabilityButton->setEnabled(haveRun && !m_choice->peaks().empty());
    if (!m_dataset)
        m_featuresLabel->setText(tr("No dataset loaded."));
    else
        m_featuresLabel->setText(tr("%1 points \u00d7 %2 active features").arg(m_dataset->n).arg(m_features.size()));
}

}  // namespace clusterlens::views
