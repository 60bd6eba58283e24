#include "kmeans/kmeans_panel.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "clusterlens/errors.hpp"
#include "dpc/dpc_run.hpp"
#include "jobs/job_status.hpp"
#include "jobs/run_controls.hpp"
#include "populations/run_on_choice.hpp"
#include "session/session_results.hpp"

namespace clusterlens::views {

namespace {

struct KMeansRun {
    std::shared_ptr<const LabelVector> labels;  ///< one per analysed event
    double inertia = 0.0;
    std::size_t iterations = 0;
    bool converged = false;
    QString backend;
};

}  // namespace

KMeansPanel::KMeansPanel(JobRunner* runner, AnalysisSession* analysis, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_analysis(analysis) {
    m_publish = [this](const QString& name, std::shared_ptr<const LabelVector> labels, ResultScope scope) {
        m_analysis->addLabeling(name, std::move(labels), std::move(scope));
        m_analysis->setColouring(name);
    };
    buildForm();
    connect(m_runner, &JobRunner::progressTick, this, &KMeansPanel::pollProgress);
    updateEnabled();
}

void KMeansPanel::buildForm() {
    m_runOn = new RunOnChoice(m_analysis, this);
    m_k = new QSpinBox(this);
    m_k->setRange(1, 100000);
    m_k->setValue(8);
    m_k->setToolTip(tr("-k: number of clusters"));
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 2'000'000'000);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("--seed of the k-means++ draws: the same seed gives the same clusters"));
    m_iterations = new QSpinBox(this);
    m_iterations->setRange(1, 100000);
    m_iterations->setValue(300);
    m_iterations->setToolTip(tr("--max-iterations: Lloyd update steps at most"));
    m_backend = newBackendChoice(this);
    m_featuresLabel = new QLabel(this);
    m_featuresLabel->setWordWrap(true);
    const RunControls controls = newRunControls(tr("Run k-means"), this);
    m_runButton = controls.run;
    m_cancelButton = controls.cancel;
    m_progress = controls.progress;
    m_status = controls.status;
    connect(m_runButton, &QPushButton::clicked, this, &KMeansPanel::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &KMeansPanel::cancel);

    auto* form = new QFormLayout;
    // In a narrow column a field too wide beside its label goes under it.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(tr("Run on"), m_runOn);
    form->addRow(tr("Clusters (K)"), m_k);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(tr("Iterations"), m_iterations);
    form->addRow(tr("Backend"), m_backend);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_featuresLabel);
    layout->addLayout(form);
    addRunControls(layout, controls);
    layout->addStretch(1);
}

void KMeansPanel::setDataSource(std::shared_ptr<const Dataset> dataset, const QStringList& activeFeatures) {
    if (dataset != m_dataset && isRunning()) cancel();
    m_dataset = std::move(dataset);
    m_features = activeFeatures;
    updateEnabled();
}

KMeansOptions KMeansPanel::options() const {
    KMeansOptions o;
    o.k = static_cast<std::size_t>(m_k->value());
    o.seed = static_cast<std::uint64_t>(m_seed->value());
    o.maxIterations = static_cast<std::size_t>(m_iterations->value());
    return o;
}

void KMeansPanel::setOptions(const KMeansOptions& o, Backend backend) {
    m_k->setValue(static_cast<int>(o.k));
    m_seed->setValue(static_cast<int>(o.seed));
    m_iterations->setValue(static_cast<int>(o.maxIterations));
    m_backend->setCurrentIndex(m_backend->findData(static_cast<int>(backend)));
}

QString KMeansPanel::resultName() const {
    // The CLI's name (cmd_kmeans.cpp), so the GUI and `kmeans --session` agree.
    return QStringLiteral("k-means k=%1 seed %2").arg(m_k->value()).arg(m_seed->value()) +
           scopeSuffix(m_runOn->scope());
}

void KMeansPanel::run() {
    if (!m_dataset || m_features.isEmpty() || isRunning()) return;
    std::vector<std::size_t> columns;
    for (const QString& name : m_features)
        if (const long column = m_dataset->featureIndex(name.toStdString()); column >= 0)
            columns.push_back(static_cast<std::size_t>(column));
    const ResultScope scope = m_runOn->scope();
    const auto backend = static_cast<Backend>(m_backend->currentData().toInt());
    KMeansOptions options = this->options();
    options.cudaDevices = everyGpu(backend);  // (the points spread over them; the same labels as one)
    const QString name = resultName();
    const auto dataset = m_dataset;
    auto work = [dataset, scope, columns, options, backend](JobControl& control) {
        const auto analysed = scopedDataset(dataset, scope);
        if (options.k > analysed->n)
            throw InvalidInput("-k " + std::to_string(options.k) + " exceeds the " + std::to_string(analysed->n) +
                               " points");
        const std::vector<float> x = featureMatrix(*analysed, columns);
        Computed<KMeansResult> computed = kmeans(x.data(), analysed->n, columns.size(), options, backend, &control);
        const KMeansResult& result = computed.result;
        auto labels = std::make_shared<const LabelVector>(result.labels);
        return KMeansRun{wholeLabels(std::move(labels), scope, dataset->n), result.inertia, result.iterations,
                         result.converged, QString::fromStdString(backendDescription(computed.backend))};
    };
    const std::size_t points = scope.isAll() ? m_dataset->n : scope.members->size();
    m_status->setText(tr("k-means of %1 points\u2026").arg(points));
    m_progress->setValue(0);
    m_job = m_runner->start<KMeansRun>(
        this, QStringLiteral("kmeans"), tr("k-means: %1").arg(name), std::move(work),
        [this, name, scope](const JobOutcome<KMeansRun>& outcome) {
            m_job = 0;
            updateEnabled();
            if (!showJobEnd(outcome.state, outcome.message, m_status, m_progress)) {
                if (outcome.state == JobState::Failed) Q_EMIT failed(outcome.message);
                return;
            }
            const KMeansRun& r = *outcome.result;
            m_status->setText(tr("Done: %1; inertia %2 after %3 iterations%4; %5.")
                                  .arg(name, QString::number(r.inertia, 'g', 6))
                                  .arg(r.iterations)
                                  .arg(r.converged ? tr(" (converged)") : tr(" (not converged)"), r.backend));
            m_publish(name, r.labels, scope);
            Q_EMIT labelingAdded(name);
        });
    updateEnabled();
}

void KMeansPanel::cancel() {
    if (m_job != 0) m_runner->cancel(m_job);
}

void KMeansPanel::pollProgress() {
    showJobProgress(*m_runner, m_job, m_progress, nullptr, QString());
}

void KMeansPanel::updateEnabled() {
    m_runButton->setEnabled(m_dataset && !m_features.isEmpty() && !isRunning());
    m_cancelButton->setEnabled(isRunning());
    m_featuresLabel->setText(m_dataset
                                 ? tr("%1 points \u00d7 %2 active features").arg(m_dataset->n).arg(m_features.size())
                                 : tr("No dataset loaded."));
}

}  // namespace clusterlens::views
