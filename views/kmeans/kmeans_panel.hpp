#pragma once
// Dock content that runs k-means as an analysis of its own (`clusterlens-cli kmeans`): K, seed, Lloyd
// iterations and backend, on the dataset's active features, on all events or on one population. The
// result is a labeling ("k-means k=5 seed 1", with " on POPULATION" for a population) that colours
// every view; events outside the population are unlabelled (-1).

#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>

#include "analysis_session.hpp"
#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/dataset.hpp"
#include "jobs/job_runner.hpp"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace clusterlens::views {

class RunOnChoice;

class KMeansPanel : public QWidget {
    Q_OBJECT
public:
    /// How a finished run's labeling reaches the analysis session: by default added and made the
    /// colouring; the application puts it on its undo stack instead (labeling_step.hpp).
    using Publisher =
        std::function<void(const QString& name, std::shared_ptr<const LabelVector> labels, ResultScope scope)>;

    KMeansPanel(JobRunner* runner, AnalysisSession* analysis, QWidget* parent = nullptr);

    /// The dataset (whole, as analysed) and the active features. Another dataset cancels a running job.
    void setDataSource(std::shared_ptr<const Dataset> dataset, const QStringList& activeFeatures);
    void setPublisher(Publisher publisher) { m_publish = std::move(publisher); }

    KMeansOptions options() const;
    void setOptions(const KMeansOptions& options, Backend backend);
    /// The "Run on" choice (all events or a population).
    RunOnChoice* runOn() const { return m_runOn; }
    /// Name the next result gets.
    QString resultName() const;

    /// Starts the k-means job (the Run button); ignored without data or features, or while one runs.
    void run();
    void cancel();
    bool isRunning() const { return m_job != 0; }

Q_SIGNALS:
    /// A run finished and its labeling was published as `name`.
    void labelingAdded(const QString& name);
    void failed(const QString& message);

private:
    void buildForm();
    void updateEnabled();
    void pollProgress();

    JobRunner* m_runner;
    AnalysisSession* m_analysis;
    Publisher m_publish;
    std::shared_ptr<const Dataset> m_dataset;
    QStringList m_features;
    JobId m_job = 0;
    RunOnChoice* m_runOn = nullptr;
    QSpinBox* m_k = nullptr;
    QSpinBox* m_seed = nullptr;
    QSpinBox* m_iterations = nullptr;
    QComboBox* m_backend = nullptr;
    QLabel* m_featuresLabel = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
};

}  // namespace clusterlens::views
