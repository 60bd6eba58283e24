#pragma once
// Dock content that runs a hierarchical clustering of the current dataset as a job: MHCA with all
// of mhclust's options (variant, threshold, sub-threshold handling, normalisation, a-priori groups
// from a file, from k-means or from any labeling of the session, the populations included) or one of
// the classic linkages, on the dataset's active features, on all events or on one population, with
// the compute backend of choice. Progress and Cancel while it runs; the result is added to the
// AnalysisSession under a name that says what it is, and the a-priori groups used become a labeling
// ("a-priori groups of NAME").

#include <QStringList>
#include <QWidget>

#include <memory>

#include "clusterlens/backend.hpp"
#include "clusterlens/dataset.hpp"
#include "clusterlens/hca/hca.hpp"
#include "jobs/job_runner.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace clusterlens::views {

class AnalysisSession;
class RunOnChoice;

class ClusteringPanel : public QWidget {
    Q_OBJECT
public:
    ClusteringPanel(JobRunner* runner, AnalysisSession* analysis, QWidget* parent = nullptr);

    /// The dataset to cluster and the names of the features to use. A different dataset cancels a
    /// running clustering (its result would describe other points).
    void setDataSource(std::shared_ptr<const Dataset> dataset, const QStringList& activeFeatures);

    /// Chooses the linkage: "mahalanobis" or a classic method name ("average", "ward", ...).
    void setLinkage(const QString& name);
    void setBackend(Backend backend);
    /// The request the form describes (without the a-priori file, which the job reads).
    HcaRequest request() const;
    /// Name the result will get in the AnalysisSession ("MHCA full, threshold 0.5", "average linkage",
    /// with " on POPULATION" for a population).
    QString resultName() const;
    /// Name of the labeling that shows the a-priori groups of the linkage `linkageName`.
    static QString aprioriLabelingName(const QString& linkageName);
    /// A-priori groups from the labeling `name` of the analysis session (MHCA only).
    void setAprioriLabeling(const QString& name);
    /// The "Run on" choice (all events or a population).
    RunOnChoice* runOn() const { return m_runOn; }

    /// Starts the clustering job (the Run button); ignored without data or features.
    void run();
    /// Cancels the running clustering, if any.
    void cancel();
    bool isRunning() const { return m_job != 0; }

Q_SIGNALS:
    /// A clustering finished and was added to the AnalysisSession as `name`.
    void linkageAdded(const QString& name);
    /// A clustering failed (engine message, written for the user).
    void failed(const QString& message);

private:
    void buildForm();
    void updateEnabled();
    void pollProgress();
    void chooseAprioriFile();
    void refreshLabelings();
    QString describe(const HcaRequest& request, const QString& backend) const;

    JobRunner* m_runner;
    AnalysisSession* m_analysis;
    std::shared_ptr<const Dataset> m_dataset;
    QStringList m_features;
    JobId m_job = 0;
    QComboBox* m_linkage = nullptr;
    QComboBox* m_variant = nullptr;
    QDoubleSpinBox* m_threshold = nullptr;
    QComboBox* m_subthreshold = nullptr;
    QCheckBox* m_normalize = nullptr;
    QComboBox* m_apriori = nullptr;
    QStackedWidget* m_aprioriOptions = nullptr;
    QLineEdit* m_aprioriFile = nullptr;
    QComboBox* m_aprioriLabeling = nullptr;
    RunOnChoice* m_runOn = nullptr;
    QSpinBox* m_kmeansK = nullptr;
    QSpinBox* m_kmeansSeed = nullptr;
    QComboBox* m_backend = nullptr;
    QLabel* m_featuresLabel = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
};

}  // namespace clusterlens::views
