#include "vat/vat_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"
#include "colour_strip_chooser.hpp"
#include "jobs/job_status.hpp"
#include "populations/run_on_choice.hpp"
#include "populations/scope_mapping.hpp"
#include "result_names.hpp"
#include "session/result_staleness.hpp"
#include "session/session_results.hpp"
#include "vat/vat_figure.hpp"
#include "vat/vat_frame_renderer.hpp"
#include "vat/vat_order_csv.hpp"
#include "vat/vat_widget.hpp"

namespace clusterlens::views {

namespace {

const QString kVatJobSlot = QStringLiteral("vat");
const QString kCutSlot = QStringLiteral("vat-cut");

struct VatCutResult {
    std::shared_ptr<const LabelVector> labels;
    std::vector<std::size_t> boundaries;
};

VatCutResult cutOrder(const VatResult& vat, int k) {
    const auto clusters = static_cast<std::size_t>(k);
    const std::vector<int> labels = labelsFromLargestCuts(vat, clusters);
    return {std::make_shared<const LabelVector>(labels.begin(), labels.end()), largestCutPositions(vat, clusters)};
}

}  // namespace

VatPanel::VatPanel(JobRunner* runner, AnalysisSession* analysis, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_analysis(analysis), m_widget(new VatWidget(this)) {
    m_widget->setEventSource(m_analysis);
    m_hover = new QLabel(this);
    m_hover->setTextFormat(Qt::PlainText);
    m_hover->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The rows of controls wrap onto more lines in a narrow column, so the image keeps the dock's
    // width and scales to it.
    auto* controls = new QWidget(this);
    controls->setObjectName(QStringLiteral("VatControls"));
    auto* rows = new QVBoxLayout(controls);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->addWidget(buildComputeRow());
    rows->addWidget(buildDisplayRow());
    m_strips = new ColourStripChooser(m_analysis, this);
    rows->addWidget(m_strips);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(controls);
    connect(m_strips, &ColourStripChooser::stripsChanged, this, &VatPanel::showStrips);
    m_stale = new StaleBanner(this);
    layout->addWidget(m_stale);
    layout->addWidget(m_widget, 1);
    layout->addWidget(m_hover);

    connect(m_widget, &VatWidget::hoverChanged, this,
            [this](QString text) { m_hover->setText(text.replace(QLatin1Char('\n'), QStringLiteral("; "))); });
    connect(m_widget, &VatWidget::renderPathChanged, this, &VatPanel::renderPathChanged);
    connect(m_widget, &VatWidget::renderFailed, this,
            [this](const QString& text) { Q_EMIT message(tr("VAT image: %1").arg(text), true); });
    connect(m_widget, &VatWidget::blockSelected, this, &VatPanel::onBlockSelected);
    connect(m_widget, &VatWidget::selectionCleared, this, [this] {
        if (runFitsData()) m_analysis->setSelection(nullptr, m_widget);
    });
    connect(m_analysis, &AnalysisSession::selectionChanged, this, &VatPanel::onSessionSelection);
    connect(m_analysis, &AnalysisSession::colouringChanged, this, &VatPanel::onColouring);
    connect(m_runner, &JobRunner::progressTick, this, &VatPanel::pollProgress);
    updateEnabled();
}

VatPanel::~VatPanel() = default;

void VatPanel::setDataSource(std::shared_ptr<const Dataset> dataset, const QStringList& activeFeatures) {
    if (dataset != m_dataset) {
        m_runner->cancelSlot(kVatJobSlot);
        m_runner->cancelSlot(kCutSlot);
        m_job = 0;
        m_run.reset();
        m_stale->refresh();
        m_cutLabeling.clear();
        m_widget->setRun(nullptr);
        m_status->clear();
        // No order, no cuts: k of other points would be cut into the next order unasked.
        const QSignalBlocker block(m_clusters);
        m_clusters->setRange(1, 1);
        m_clusters->setValue(1);
    }
    m_dataset = std::move(dataset);
    m_features = activeFeatures;
    m_strips->setDataset(m_dataset);
    updateEnabled();
}

void VatPanel::run() {
    if (!m_dataset || m_features.isEmpty() || isRunning()) return;
    VatRequest request;
    request.dataset = m_dataset;
    for (const QString& name : m_features) {
        const long column = m_dataset->featureIndex(name.toStdString());
        if (column >= 0) request.columns.push_back(static_cast<std::size_t>(column));
    }
    request.metric = static_cast<Metric>(m_metric->currentData().toInt());
    request.backend = static_cast<Backend>(m_backend->currentData().toInt());
    const ResultScope scope = m_runOn->scope();
    const std::size_t n = scope.isAll() ? m_dataset->n : scope.members->size();
    const auto sampleSize = static_cast<std::size_t>(m_sampleSize->value());
    if (m_sample->isChecked() && sampleSize < n) return runSampled(request, scope, sampleSize, n);
    const QString points = QLocale().toString(static_cast<qulonglong>(n));
    QString status = tr("Computing the VAT order of %1 points\u2026").arg(points);
    // A large CPU order takes minutes: say up front how long rather than leave the
    // user guessing (the job can still be cancelled at any time).
    bool onCpu = true;
    try {
        onCpu = resolveBackend(request.backend) == Backend::Cpu;
    } catch (const Error&) {
        // resolveBackend fails for an unavailable CUDA request; the job reports that itself.
    }
    const double estimate = cpuVatSecondsEstimate(n, request.columns.size(), request.metric, cpuThreadCount());
    if (onCpu && estimate > 60.0)
        status += QLatin1Char(' ') +
                  tr("On the CPU this takes about %1 min; a CUDA GPU or \u201cSample (sVAT)\u201d is far faster.")
                      .arg(QLocale().toString(estimate / 60.0, 'f', 0));
    m_status->setText(status);
    m_progress->setValue(0);
    const QString name = tr("VAT order: %1 points (%2)%3")
                             .arg(points, QString::fromLatin1(metricName(request.metric)), scopeSuffix(scope));
    m_job = startOnScope<VatRun>(m_runner, this, kVatJobSlot, name, request, scope, computeVatRun,
                                 [this](const JobOutcome<VatRun>& outcome) { onFinished(outcome); });
    updateEnabled();
}

void VatPanel::runSampled(const VatRequest& request, const ResultScope& scope, std::size_t sampleSize,
                          std::size_t events) {
    const QLocale locale;
    const QString of = locale.toString(static_cast<qulonglong>(events));
    const QString size = locale.toString(static_cast<qulonglong>(sampleSize));
    m_status->setText(tr("Computing the sampled VAT (sVAT) of %1 of %2 points\u2026").arg(size, of));
    m_progress->setValue(0);
    const QString name = tr("Sampled VAT order: %1 of %2 points (%3)%4")
                             .arg(size, of, QString::fromLatin1(metricName(request.metric)), scopeSuffix(scope));
    m_job = m_runner->start<VatRun>(
        this, kVatJobSlot, name,
        [request, scope, sampleSize](JobControl& control) {
            return computeSampledVatRun(request, scope, sampleSize, control);
        },
        [this](const JobOutcome<VatRun>& outcome) { onFinished(outcome); });
    updateEnabled();
}

void VatPanel::cancel() {
    if (m_job != 0) m_runner->cancel(m_job);
}

void VatPanel::onFinished(const JobOutcome<VatRun>& outcome) {
    m_job = 0;
    updateEnabled();
    if (!showJobEnd(outcome, m_status, m_progress, [this](const QString& text) { Q_EMIT failed(text); })) return;
    m_run = outcome.result;
    m_stale->refresh();
    m_cutLabeling.clear();
    m_widget->setRun(m_run);
    showStrips();
    {
        const QSignalBlocker block(m_clusters);
        m_clusters->setRange(1, static_cast<int>(std::min<std::size_t>(m_run->n(), 1000)));
        m_clusters->setValue(1);
    }
    onColouring();
    onSessionSelection(nullptr);
    const VatResult& vat = *m_run->vat;
    const QString points = m_run->sampledFrom > 0
                               ? tr("Sampled VAT (sVAT): %1 of %2")
                                     .arg(QLocale().toString(static_cast<qulonglong>(vat.n)),
                                          QLocale().toString(static_cast<qulonglong>(m_run->sampledFrom)))
                               : QLocale().toString(static_cast<qulonglong>(vat.n));
    m_status->setText(tr("%1 points, %2; %3; order %4 s, render data %5 s; starts at point %6.")
                          .arg(points, QString::fromLatin1(metricName(vat.metric)), m_run->backend)
                          .arg(vat.secondsTree + vat.secondsOrder, 0, 'f', 2)
                          .arg(m_run->secondsSource, 0, 'f', 2)
                          .arg(vat.start));
    updateEnabled();
    Q_EMIT resultShown();
}

void VatPanel::showRun(std::shared_ptr<const VatRun> run) {
    if (isRunning()) m_runner->cancel(m_job);
    onFinished({JobState::Finished, std::move(run), {}});
}

void VatPanel::setClusterCount(int k) {
    m_clusters->setValue(k);
}

int VatPanel::clusterCount() const {
    return m_clusters->value();
}

void VatPanel::applyCut(int k) {
    if (!m_run) return;
    m_runner->cancelSlot(kCutSlot);
    if (k <= 1) return showCut(nullptr, {}, 1);
    if (m_run->n() <= inlineLimit) {
        try {
            VatCutResult cut = cutOrder(*m_run->vat, k);
            return showCut(std::move(cut.labels), std::move(cut.boundaries), k);
        } catch (const Error& error) {
            Q_EMIT message(tr("VAT cuts: %1").arg(QString::fromUtf8(error.what())), true);
            return;
        }
    }
    const auto run = m_run;
    m_runner->start<VatCutResult>(
        this, kCutSlot, tr("VAT cuts (k = %1)").arg(k), [run, k](JobControl&) { return cutOrder(*run->vat, k); },
        [this, run, k](const JobOutcome<VatCutResult>& outcome) {
            if (outcome.state == JobState::Finished && run == m_run)
                showCut(outcome.result->labels, outcome.result->boundaries, k);
        });
}

void VatPanel::showCut(std::shared_ptr<const LabelVector> labels, std::vector<std::size_t> boundaries, int k) {
    m_widget->setCutBoundaries(std::move(boundaries));
    m_cutLabeling.clear();
    if (!labels || !runFitsData()) return;
    m_cutLabeling = (m_run->sampledFrom > 0 ? tr("sampled ") : QString()) + vatCutsName(k) + scopeSuffix(m_run->scope);
    // Replacing the labeling that already colours the views recolours them once, not twice.
    const bool colouring = m_analysis->colouring() == m_cutLabeling;
    m_analysis->addLabeling(m_cutLabeling, wholeLabels(std::move(labels), m_run->scope, m_dataset->n), m_run->scope);
    if (!colouring) m_analysis->setColouring(m_cutLabeling);
    Q_EMIT cutApplied(m_cutLabeling);
}

void VatPanel::onBlockSelected(qint64 first, qint64 last) {
    if (!runFitsData()) return;
    IndexVector points =
        indicesAtPositions(*m_run->vat, static_cast<std::size_t>(first), static_cast<std::size_t>(last));
    auto indices = std::make_shared<const IndexVector>(indicesOfPositions(m_run->scope, std::move(points)));
    m_analysis->setSelection(std::move(indices), m_widget);
}

void VatPanel::onSessionSelection(const QObject* origin) {
    if (!runFitsData()) return;
    m_widget->setMarkedPositions(nullptr);
    if (origin == m_widget) return;  // the widget shows its own block
    m_widget->clearSelectedBlock();
    const auto selection = m_analysis->selection();
    if (!selection || selection->empty()) return;
    // Selected events outside the population are not marked.
    const IndexVector points = positionsInScope(m_run->scope, *selection);
    m_widget->setMarkedPositions(
        std::make_shared<const std::vector<std::int64_t>>(positionsOfIndices(m_run->rank, points)));
}

void VatPanel::onColouring() {
    if (!runFitsData()) return;
    m_widget->setLabels(labelsInScope(m_analysis->colouringLabels(), m_run->scope, m_dataset->n));
}

void VatPanel::showStrips() {
    // The strips colour dataset rows; a run on a population shows its members' colours.
    m_widget->setStrips(stripsInScope(m_strips->strips(), m_run ? m_run->scope : ResultScope{}));
}

bool VatPanel::runFitsData() const {
    return m_run && m_dataset && scopeFitsData(m_run->scope, m_run->n(), m_dataset->n);
}

void VatPanel::watchStaleness(const StaleMarker* marker) {
    m_stale->follow(marker, StaleMarker::Kind::Vat, [this] { return m_run ? vatEntryName(*m_run) : QString(); });
}

QString VatPanel::title() const {
    if (!m_run) return {};
    const QLocale locale;
    if (m_run->sampledFrom > 0)
        return tr("%1 of a sample of %2 of %3 points (sVAT; %4, %5 features)")
            .arg(vatKindName(display().kind), locale.toString(static_cast<qulonglong>(m_run->n())),
                 locale.toString(static_cast<qulonglong>(m_run->sampledFrom)),
                 QString::fromLatin1(metricName(m_run->vat->metric)))
            .arg(m_run->request.columns.size());
    return tr("%1 of %2 points (%3, %4 features)")
        .arg(vatKindName(display().kind), locale.toString(static_cast<qulonglong>(m_run->n())),
             QString::fromLatin1(metricName(m_run->vat->metric)))
        .arg(m_run->request.columns.size());
}

std::unique_ptr<VatFigure> VatPanel::figure(bool currentViewOnly) const {
    if (!m_run) throw InvalidInput("Compute the VAT image before exporting it.");
    VatFigureOptions options;
    options.title = title();
    options.display = display();
    if (currentViewOnly)
        options.window = vatWindowAsWritten(m_widget->window());  // as `plot vat --rows --cols` reads it
    else
        options.window.reset(m_run->n());
    options.cuts = m_widget->cutBoundaries();
    options.strips = stripsInScope(m_strips->strips(), m_run->scope);
    options.order = std::shared_ptr<const std::vector<std::int64_t>>(m_run->vat, &m_run->vat->order);
    if (m_holdLevels->isChecked()) options.levels = m_widget->levels();
    return std::make_unique<VatFigure>(m_run->renderer, std::move(options));
}

void VatPanel::exportFigureTo(const QString& path, const FigureExportOptions& options, bool currentViewOnly) {
    std::shared_ptr<const VatFigure> shown;
    try {
        shown = figure(currentViewOnly);
    } catch (const Error& error) {
        Q_EMIT message(QString::fromUtf8(error.what()), true);
        return;
    }
    m_runner->start<bool>(
        this, QStringLiteral("vat-export-figure"), tr("Export %1").arg(path),
        [shown, path, options](JobControl&) {
            views::exportFigure(*shown, path, options);
            return true;
        },
        [this, path](const JobOutcome<bool>& outcome) {
            if (outcome.state != JobState::Finished) return;
            Q_EMIT message(tr("Wrote %1").arg(path), false);
            Q_EMIT exported(path);
        });
}

void VatPanel::exportOrderTo(const QString& path) {
    if (!m_run) {
        Q_EMIT message(tr("Compute the VAT image before exporting ORDER.csv."), true);
        return;
    }
    const auto vat = m_run->vat;
    // A run on a population names its points by whole-dataset index, as `vat --population` does.
    const auto members = m_run->scope.members;
    const std::string file = path.toStdString();
    m_runner->start<bool>(
        this, QStringLiteral("vat-export-order"), tr("Export %1").arg(path),
        [vat, members, file](JobControl& control) {
            writeVatOrderCsv(file, *vat, members.get(), &control);
            return true;
        },
        [this, path](const JobOutcome<bool>& outcome) {
            if (outcome.state != JobState::Finished) return;
            Q_EMIT message(tr("Wrote %1").arg(path), false);
            Q_EMIT exported(path);
        });
}

void VatPanel::pollProgress() {
    showJobProgress(*m_runner, m_job, m_progress, m_status, tr("Computing the VAT order\u2026"));
}

}  // namespace clusterlens::views
