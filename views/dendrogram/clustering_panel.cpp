#include "dendrogram/clustering_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>

#include <algorithm>
#include <string>

#include "analysis_session.hpp"
#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/session/population.hpp"
#include "dendrogram/dendrogram_axes.hpp"
#include "jobs/job_status.hpp"
#include "populations/run_on_choice.hpp"
#include "result_names.hpp"
#include "session/session_results.hpp"

namespace clusterlens::views {

namespace {

enum AprioriChoice { NoApriori, AprioriFile, AprioriKMeans, AprioriLabeling };

struct ClusteringResult {
    std::shared_ptr<const Linkage> linkage;
    QString backend;
    std::shared_ptr<const LabelVector> groups;  ///< a-priori groups as whole-dataset labels; null without
};

/// Where the a-priori groups come from, as the job sees it (read off the GUI thread).
struct AprioriSource {
    AprioriChoice choice = NoApriori;
    std::string path;                             ///< AprioriFile: one group id per event of the whole dataset
    std::shared_ptr<const LabelVector> labeling;  ///< AprioriLabeling: n whole-dataset labels
};

/// mhclust's group ids (0 = no group) of labels 0..K-1 (-1 = unlabelled).
std::vector<std::int32_t> groupsOfLabels(std::vector<std::int32_t> labels) {
    for (std::int32_t& label : labels) label = label < 0 ? 0 : label + 1;
    return labels;
}

/// The a-priori group ids of the analysed events (`scope` of a dataset of n events), or empty.
/// k-means groups are computed here, as clusterHierarchically would with --apriori-kmeans, so that they
/// can be shown.
std::vector<std::int32_t> aprioriGroups(const AprioriSource& source, HcaRequest& request, const Dataset& subset,
                                        const ResultScope& scope, std::size_t n, Backend backend, JobControl& control) {
    const auto ofScope = [&](std::vector<std::int32_t> whole) {
        return scope.isAll() ? whole : gatherLabels(whole, *scope.members);
    };
    switch (source.choice) {
        case AprioriFile:
            return ofScope(readLabels(source.path, n));
        case AprioriLabeling:
            if (!source.labeling || source.labeling->size() != n)
                throw InvalidInput("the a-priori labeling does not label the " + std::to_string(n) + " events");
            return groupsOfLabels(ofScope(*source.labeling));
        case AprioriKMeans: {
            if (request.aprioriKMeans > subset.n)
                throw InvalidInput("--apriori-kmeans: K = " + std::to_string(request.aprioriKMeans) + " exceeds the " +
                                   std::to_string(subset.n) + " points");
            KMeansOptions options;
            options.k = request.aprioriKMeans;
            options.seed = request.seed;
            options.cudaDevices = request.mhca.cudaDevices;
            request.aprioriKMeans = 0;
            return groupsOfLabels(
                kmeans(subset.values.data(), subset.n, subset.d, options, backend, &control).result.labels);
        }
        case NoApriori:
            break;
    }
    return {};
}

/// The rows of `data` restricted to `columns`, in that order (the clustering sees only them).
Dataset selectColumns(const Dataset& data, const std::vector<std::size_t>& columns) {
    Dataset subset;
    subset.n = data.n;
    subset.d = columns.size();
    subset.values.resize(subset.n * subset.d);
    if (!data.exact.empty()) subset.exact.resize(subset.n * subset.d);
    for (std::size_t i = 0; i < data.n; ++i)
        for (std::size_t j = 0; j < columns.size(); ++j) {
            subset.values[i * subset.d + j] = data.values[i * data.d + columns[j]];
            if (!data.exact.empty()) subset.exact[i * subset.d + j] = data.exact[i * data.d + columns[j]];
        }
    for (std::size_t c : columns) subset.features.push_back(data.features[c]);
    subset.provenance = data.provenance;
    return subset;
}

}  // namespace

ClusteringPanel::ClusteringPanel(JobRunner* runner, AnalysisSession* analysis, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_analysis(analysis) {
    buildForm();
    refreshLabelings();
    connect(m_analysis, &AnalysisSession::labelingsChanged, this, &ClusteringPanel::refreshLabelings);
    connect(m_runner, &JobRunner::progressTick, this, &ClusteringPanel::pollProgress);
    updateEnabled();
}

void ClusteringPanel::setDataSource(std::shared_ptr<const Dataset> dataset, const QStringList& activeFeatures) {
    if (dataset != m_dataset) {
        if (isRunning()) cancel();
        m_status->clear();  // "Done: …" described the points before
    }
    m_dataset = std::move(dataset);
    m_features = activeFeatures;
    updateEnabled();
}

void ClusteringPanel::setLinkage(const QString& name) {
    const int index = m_linkage->findData(name);
    if (index >= 0) m_linkage->setCurrentIndex(index);
}

void ClusteringPanel::setBackend(Backend backend) {
    m_backend->setCurrentIndex(m_backend->findData(static_cast<int>(backend)));
}

HcaRequest ClusteringPanel::request() const {
    HcaRequest request;
    const QString linkage = m_linkage->currentData().toString();
    request.mahalanobis = linkage == QLatin1String("mahalanobis");
    if (!request.mahalanobis) request.method = parseLinkageMethod(linkage.toStdString());
    request.mhca.variant = parseMhcaVariant(m_variant->currentData().toString().toStdString());
    request.mhca.threshold = m_threshold->value();
    request.mhca.subthreshold = parseSubthresholdMode(m_subthreshold->currentData().toString().toStdString());
    request.mhca.normalize = m_normalize->isChecked();
    if (request.mahalanobis && m_apriori->currentIndex() == AprioriKMeans) {
        request.aprioriKMeans = static_cast<std::size_t>(m_kmeansK->value());
        request.seed = static_cast<std::uint64_t>(m_kmeansSeed->value());
    }
    return request;
}

QString ClusteringPanel::resultName() const {
    QString base = hcaResultName(request());
    base += scopeSuffix(m_runOn->scope());
    if (!m_analysis->linkage(base)) return base;
    for (int copy = 2;; ++copy) {
        const QString name = QStringLiteral("%1 (%2)").arg(base).arg(copy);
        if (!m_analysis->linkage(name)) return name;
    }
}

QString ClusteringPanel::describe(const HcaRequest& r, const QString& backend) const {
    QStringList parts;
    if (r.mahalanobis) {
        parts << tr("MHCA %1").arg(mhcaVariantDisplayName(r.mhca.variant)) << tr("threshold %1").arg(r.mhca.threshold)
              << tr("sub-threshold %1").arg(QString::fromLatin1(subthresholdModeName(r.mhca.subthreshold)));
        if (r.mhca.normalize) parts << tr("normalized");
        if (r.aprioriKMeans > 0) parts << tr("a-priori k-means K=%1 seed %2").arg(r.aprioriKMeans).arg(r.seed);
        if (m_apriori->currentIndex() == AprioriFile)
            parts << tr("a-priori groups from %1").arg(QFileInfo(m_aprioriFile->text()).fileName());
        if (m_apriori->currentIndex() == AprioriLabeling)
            parts << tr("a-priori groups from the labeling %1").arg(m_aprioriLabeling->currentText());
    } else {
        parts << tr("%1 linkage (Euclidean)").arg(QString::fromStdString(linkageMethodName(r.method)));
    }
    parts << (m_features.size() == 1 ? tr("1 feature: %1") : tr("%1 features: %2").arg(m_features.size()))
                 .arg(m_features.join(QStringLiteral(", ")));
    parts << backend;
    return parts.join(QStringLiteral("; "));
}

void ClusteringPanel::run() {
    if (!m_dataset || m_features.isEmpty() || isRunning()) return;
    std::vector<std::size_t> columns;
    for (const QString& name : m_features) {
        const long column = m_dataset->featureIndex(name.toStdString());
        if (column >= 0) columns.push_back(static_cast<std::size_t>(column));
    }
    const HcaRequest request = this->request();
    AprioriSource apriori;
    if (request.mahalanobis) apriori.choice = static_cast<AprioriChoice>(m_apriori->currentIndex());
    if (apriori.choice == AprioriFile) apriori.path = m_aprioriFile->text().toStdString();
    if (apriori.choice == AprioriLabeling) apriori.labeling = m_analysis->labeling(m_aprioriLabeling->currentText());
    if ((apriori.choice == AprioriFile && apriori.path.empty()) ||
        (apriori.choice == AprioriLabeling && !apriori.labeling)) {
        m_status->setText(apriori.choice == AprioriFile ? tr("Choose the a-priori group file first.")
                                                        : tr("Choose the labeling of the a-priori groups first."));
        return;
    }
    const auto backend = static_cast<Backend>(m_backend->currentData().toInt());
    const QString name = resultName();
    const ResultScope scope = m_runOn->scope();
    const auto dataset = m_dataset;
    auto work = [dataset, scope, columns, request, apriori, backend](JobControl& control) {
        const Dataset subset = selectColumns(*scopedDataset(dataset, scope), columns);
        if (subset.n < 2) throw InvalidInput("clustering needs at least 2 points");
        HcaRequest r = request;
        r.mhca.cudaDevices = everyGpu(backend);  // (the a-priori groups and their k-means spread over them)
        r.mhca.apriori = aprioriGroups(apriori, r, subset, scope, dataset->n, backend, control);
        Computed<Linkage> computed = clusterHierarchically(subset, r, backend, &control);
        auto linkage = std::make_shared<const Linkage>(std::move(computed.result));
        std::shared_ptr<const LabelVector> groups;
        if (!r.mhca.apriori.empty()) {
            LabelVector labels(r.mhca.apriori.begin(), r.mhca.apriori.end());
            for (std::int32_t& label : labels) --label;
            groups = wholeLabels(std::make_shared<const LabelVector>(std::move(labels)), scope, dataset->n);
        }
        return ClusteringResult{std::move(linkage), QString::fromStdString(backendDescription(computed.backend)),
                                std::move(groups)};
    };
    m_status->setText(tr("Clustering %1 points\u2026").arg(scope.isAll() ? m_dataset->n : scope.members->size()));
    m_progress->setValue(0);
    m_job = m_runner->start<ClusteringResult>(
        this, QStringLiteral("hca"), tr("Clustering: %1").arg(name), std::move(work),
        [this, name, request, scope](const JobOutcome<ClusteringResult>& outcome) {
            m_job = 0;
            updateEnabled();
            if (!showJobEnd(outcome.state, outcome.message, m_status, m_progress)) {
                if (outcome.state == JobState::Failed) Q_EMIT failed(outcome.message);
                return;
            }
            if (outcome.result->groups)
                m_analysis->addLabeling(aprioriLabelingName(name), outcome.result->groups, scope);
            m_analysis->addLinkage(name, outcome.result->linkage, describe(request, outcome.result->backend), scope);
            const std::size_t inversions = outcome.result->linkage->inversionCount();
            m_status->setText(inversions > 0 ? tr("Done: %1 (%2).").arg(name, inversionText(inversions))
                                             : tr("Done: %1.").arg(name));
            Q_EMIT linkageAdded(name);
        });
    updateEnabled();
}

QString ClusteringPanel::aprioriLabelingName(const QString& linkageName) {
    return aprioriGroupsName(linkageName);
}

void ClusteringPanel::setAprioriLabeling(const QString& name) {
    refreshLabelings();
    m_apriori->setCurrentIndex(AprioriLabeling);
    m_aprioriLabeling->setCurrentIndex(m_aprioriLabeling->findText(name));
}

void ClusteringPanel::refreshLabelings() {
    const QString chosen = m_aprioriLabeling->currentText();
    const QSignalBlocker block(m_aprioriLabeling);
    m_aprioriLabeling->clear();
    m_aprioriLabeling->addItems(m_analysis->labelingNames());
    m_aprioriLabeling->setCurrentIndex(std::max(0, static_cast<int>(m_aprioriLabeling->findText(chosen))));
}

void ClusteringPanel::cancel() {
    if (m_job != 0) m_runner->cancel(m_job);
}

void ClusteringPanel::pollProgress() {
    showJobProgress(*m_runner, m_job, m_progress, m_status, tr("Clustering\u2026"));
}

void ClusteringPanel::chooseAprioriFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("A-priori groups"), m_aprioriFile->text(),
                                                      tr("Labels (*.csv *.txt);;All files (*)"));
    if (!path.isEmpty()) m_aprioriFile->setText(path);
}

void ClusteringPanel::updateEnabled() {
    const bool mhca = m_linkage->currentData().toString() == QLatin1String("mahalanobis");
    for (QWidget* w : {static_cast<QWidget*>(m_variant), static_cast<QWidget*>(m_threshold),
                       static_cast<QWidget*>(m_subthreshold), static_cast<QWidget*>(m_normalize),
                       static_cast<QWidget*>(m_apriori), static_cast<QWidget*>(m_aprioriOptions)})
        w->setEnabled(mhca);
    m_aprioriOptions->setCurrentIndex(m_apriori->currentIndex());
    const bool ready = m_dataset && !m_features.isEmpty();
    m_runButton->setEnabled(ready && !isRunning());
    m_cancelButton->setEnabled(isRunning());
    if (!m_dataset)
        m_featuresLabel->setText(tr("No dataset loaded."));
    else
        m_featuresLabel->setText(tr("%1 points \u00d7 %2 active features").arg(m_dataset->n).arg(m_features.size()));
}

}  // namespace clusterlens::views
