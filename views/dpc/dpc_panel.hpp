#pragma once
// The density-peaks page: runs DPC on the current dataset's active features as a job (kernel, dc
// as a value or a percentile of the pairwise distances, exact or sampled, backend; progress and
// Cancel), shows the decision graph and the gamma-by-rank plot, and lets the user pick peaks by
// rectangle, by threshold lines or as the top K by gamma. Each choice re-labels all points at
// once and becomes the "DPC (k=K)" labeling that colours every view; choices can be undone. The
// optional halo (an all-pairs pass) runs as a job and marks border points as noise.

#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>

#include "analysis_session.hpp"
#include "clusterlens/dataset.hpp"
#include "dpc/dpc_run.hpp"
#include "figure/figure.hpp"
#include "figure/figure_export_source.hpp"
#include "jobs/job_runner.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace clusterlens::views {

class DecisionFigure;
class DecisionGraph;
class GammaPlot;
class PeakChoice;
class PeakTableModel;
class RunOnChoice;
class StaleBanner;
class StaleMarker;

class DpcPanel : public QWidget {
    Q_OBJECT
public:
    DpcPanel(JobRunner* runner, AnalysisSession* analysis, QWidget* parent = nullptr);
    ~DpcPanel() override;

    /// The dataset to cluster and its active features. Another dataset cancels a running job and
    /// clears the graph (its results no longer match the points).
    void setDataSource(std::shared_ptr<const Dataset> dataset, const QStringList& activeFeatures);

    /// The options of the form, as the next run will use them.
    DensityPeaksOptions options() const;
    void setOptions(const DensityPeaksOptions& options, Backend backend);

    /// Starts the DPC job (the Run button); ignored without data or while one runs.
    void run();
    void cancel();
    bool isRunning() const { return m_job != 0; }

    /// Peaks from the threshold lines (rho > rhoMin, delta > deltaMin); shows the lines.
    void applyThresholds(double rhoMin, double deltaMin);
    /// Peaks = the k points of largest gamma.
    void applyTopK(std::size_t k);
    void setLogAxes(bool logRho, bool logDelta);
    /// Marks border points as noise (a job) for this and every later choice of peaks.
    void setHaloEnabled(bool enabled);
    /// The dc sweep of the current peaks (a job): rho and delta at kSweepSteps cutoffs from
    /// kSweepLowPercent to kSweepHighPercent of the pairwise distances on the run's backend; each peak's
    /// persistence fills the table's "Stable across dc" column. Ignored without a run or peaks.
    void checkStability();
    static constexpr double kSweepLowPercent = 0.5, kSweepHighPercent = 4.0;
    static constexpr int kSweepSteps = 8;

    /// The last finished run (null before one).
    std::shared_ptr<const DpcRun> lastRun() const { return m_run; }
    /// Shows a run made elsewhere (a session's stored result) as if it had just finished, with the peaks
    /// chosen then (positions in the run, label order; none: no peaks), which start the history of
    /// choices, and the halo stored with them (one flag per point of the run; empty: none).
    void showRun(std::shared_ptr<const DpcRun> run, const std::vector<std::int64_t>& peaks,
                 const std::vector<std::uint8_t>& halo = {});
    /// The "Run on" choice (all events or a population).
    RunOnChoice* runOn() const { return m_runOn; }
    /// Labels shown now, one per point of the run (with the halo when it is on and done), null without
    /// peaks. The labeling published to the analysis session is their whole-dataset form.
    std::shared_ptr<const LabelVector> currentLabels() const { return m_shownLabels; }
    /// Name of the labeling the panel last put into the analysis session.
    const QString& labelingName() const { return m_labelingName; }

    std::unique_ptr<DecisionFigure> figure() const;
    /// Writes the decision graph (.svg .pdf .png), the labels (index,label) or DPC.csv. Throw
    /// clusterlens::InvalidInput naming the file on failure or when there is nothing to write.
    void exportFigure(const QString& path, const FigureExportOptions& options = {}) const;
    /// What the figure export dialog needs for the decision graph and for the γ-rank plot: the
    /// figure, the `dpc` and `plot` commands that redraw it, the methods (dpc_figures.cpp).
    FigureExportSource decisionExportSource() const;
    FigureExportSource gammaExportSource() const;
    void exportLabels(const QString& path) const;
    void exportTable(const QString& path) const;

    /// Says in the panel, after each update of `marker`, whether the run shown is stale (computed on
    /// other channels or another transform than the current ones).
    void watchStaleness(const StaleMarker* marker);
    StaleBanner* staleBanner() const { return m_stale; }

    DecisionGraph* graph() const { return m_graph; }
    GammaPlot* gammaPlot() const { return m_gamma; }
    PeakChoice* peakChoice() const { return m_choice; }
    PeakTableModel* tableModel() const { return m_table; }

Q_SIGNALS:
    /// A finished run is on the decision graph.
    void resultShown();
    /// The labels of the current peaks are in the analysis session as `name` (also after the halo).
    void labelsApplied(const QString& name);
    void failed(const QString& message);
    void message(const QString& text, bool error);

private:
    void buildForm();
    void resetDataFields();
    QWidget* buildRunBox();
    QWidget* buildPickBox();
    QWidget* buildExportRow();
    void connectForm();
    void connectLinking();
    void showLinkedSelection();
    void onFinished(const JobOutcome<DpcRun>& outcome);
    void onPeaksChanged();
    void startHalo();
    void publish(std::shared_ptr<const LabelVector> labels, const QString& name);
    void showGraph();
    void placeDefaultThresholds();
    void pollProgress();
    void updateEnabled();
    void chooseExport(int kind);
    QString runDescription() const;

    JobRunner* m_runner;
    AnalysisSession* m_analysis;
    std::shared_ptr<const Dataset> m_dataset;
    QStringList m_features;
    std::shared_ptr<const DpcRun> m_run;
    std::shared_ptr<const LabelVector> m_shownLabels;
    QString m_labelingName;
    JobId m_job = 0;

    PeakChoice* m_choice;
    PeakTableModel* m_table;
    DecisionGraph* m_graph = nullptr;
    GammaPlot* m_gamma = nullptr;
    QTableView* m_tableView = nullptr;
    QComboBox* m_kernel = nullptr;
    QComboBox* m_dcMode = nullptr;
    QDoubleSpinBox* m_dcPercent = nullptr;
    QDoubleSpinBox* m_dcValue = nullptr;
    QComboBox* m_dcMethod = nullptr;
    QComboBox* m_backend = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_featuresLabel = nullptr;
    QCheckBox* m_useThresholds = nullptr;
    QDoubleSpinBox* m_rhoMin = nullptr;
    QDoubleSpinBox* m_deltaMin = nullptr;
    QSpinBox* m_topK = nullptr;
    QPushButton* m_topKButton = nullptr;
    QPushButton* m_kneeButton = nullptr;
    QPushButton* m_stabilityButton = nullptr;
    QCheckBox* m_logRho = nullptr;
    QCheckBox* m_logDelta = nullptr;
    QCheckBox* m_halo = nullptr;
    QLabel* m_pickStatus = nullptr;
    QWidget* m_exportRow = nullptr;
    RunOnChoice* m_runOn = nullptr;
    StaleBanner* m_stale = nullptr;
    std::vector<std::uint8_t> m_storedHalo;  // the halo of a stored run being shown (showRun)
};

}  // namespace clusterlens::views
