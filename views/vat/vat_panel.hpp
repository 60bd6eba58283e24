#pragma once
// The VAT/iVAT page: computes the VAT order of the current dataset's active features as a job
// (metric, backend; progress and Cancel), shows the image in the VatWidget with its display options
// (VAT or iVAT, pixel mode, colormap, gamma, contrast percentiles), and keeps it linked with the rest
// of the application through the AnalysisSession: the k largest cuts become the "VAT cuts (k=K)"
// labeling that colours every view, a diagonal block dragged on the image becomes the selection, a
// selection made elsewhere is marked along the axes and the colouring labels run along them. Exports:
// the figure (PNG at any size, PDF, SVG) and ORDER.csv, as jobs.

#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>

#include "analysis_session.hpp"
#include "clusterlens/dataset.hpp"
#include "figure/figure.hpp"
#include "figure/figure_export_source.hpp"
#include "jobs/job_runner.hpp"
#include "vat/vat_image.hpp"
#include "vat/vat_run.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace clusterlens::views {

class RunOnChoice;
class StaleBanner;
class StaleMarker;

class ColourStripChooser;
class VatFigure;
class VatWidget;

class VatPanel : public QWidget {
    Q_OBJECT
public:
    /// Runs up to this many points get their cut labels on the GUI thread (milliseconds).
    static constexpr std::size_t inlineLimit = 200'000;

    VatPanel(JobRunner* runner, AnalysisSession* analysis, QWidget* parent = nullptr);
    ~VatPanel() override;

    /// The dataset and its active features. Another dataset cancels a running job and clears the
    /// image (its order describes other points).
    void setDataSource(std::shared_ptr<const Dataset> dataset, const QStringList& activeFeatures);

    void setMetric(Metric metric);
    void setBackend(Backend backend);
    /// Starts the VAT job (the Compute button); ignored without data or while one runs.
    void run();
    void cancel();
    bool isRunning() const { return m_job != 0; }
    /// The last finished run (null before one).
    const std::shared_ptr<const VatRun>& lastRun() const { return m_run; }
    /// Shows a run made elsewhere (a session's stored order, see storedVatRun) as if it had just finished.
    void showRun(std::shared_ptr<const VatRun> run);
    /// The "Run on" choice (all events or a population).
    RunOnChoice* runOn() const { return m_runOn; }

    /// Shows VAT or iVAT.
    void setImageKind(VatImageKind kind);
    void setDisplay(const VatDisplay& display);
    VatDisplay display() const;
    /// Cuts the order at its k-1 largest cuts (1: none): boxes on the image, a labeling in the session.
    void setClusterCount(int k);
    int clusterCount() const;
    /// The labeling the current cuts were stored as (empty when none).
    const QString& cutLabeling() const { return m_cutLabeling; }

    /// The figure of what is shown: the whole matrix, or only the part in view.
    std::unique_ptr<VatFigure> figure(bool currentViewOnly) const;
    /// Exports as jobs; `exported` or a Failed job reports the outcome (also in the log).
    void exportFigureTo(const QString& path, const FigureExportOptions& options, bool currentViewOnly);
    /// What the figure export dialog needs: the figure, the `plot vat` command, the methods.
    FigureExportSource figureExportSource() const;
    void exportOrderTo(const QString& path);

    /// Says in the panel, after each update of `marker`, whether the order shown is stale (computed on
    /// other channels or another transform than the current ones).
    void watchStaleness(const StaleMarker* marker);
    StaleBanner* staleBanner() const { return m_stale; }

    VatWidget* widget() const { return m_widget; }
    /// The colour strips along the image's edges (labelings, populations or markers).
    ColourStripChooser* stripChooser() const { return m_strips; }

Q_SIGNALS:
    /// A finished run is on screen.
    void resultShown();
    /// Cut labels of k clusters are in the session as `name` and colour the views.
    void cutApplied(const QString& name);
    /// An export was written.
    void exported(const QString& path);
    void renderPathChanged(const QString& text);
    void failed(const QString& message);
    void message(const QString& text, bool error);

private:
    QWidget* buildComputeRow();
    QWidget* buildDisplayRow();
    QToolButton* buildExportButton();
    void onFinished(const JobOutcome<VatRun>& outcome);
    void applyCut(int k);
    void showCut(std::shared_ptr<const LabelVector> labels, std::vector<std::size_t> boundaries, int k);
    void onDisplayChanged();
    void onBlockSelected(qint64 first, qint64 last);
    void onSessionSelection(const QObject* origin);
    void onColouring();
    void showStrips();
    bool runFitsData() const;
    void pollProgress();
    void updateEnabled();
    /// run() for a sampled VAT (the Sample box) of `sampleSize` of the scope's `events` points.
    void runSampled(const VatRequest& request, const ResultScope& scope, std::size_t sampleSize, std::size_t events);
    void chooseFigureExport();
    void chooseOrderExport();
    QString title() const;

    JobRunner* m_runner;
    AnalysisSession* m_analysis;
    VatWidget* m_widget;
    ColourStripChooser* m_strips = nullptr;
    StaleBanner* m_stale = nullptr;
    std::shared_ptr<const Dataset> m_dataset;
    QStringList m_features;
    std::shared_ptr<const VatRun> m_run;
    QString m_cutLabeling;
    JobId m_job = 0;
    bool m_updating = false;

    QComboBox* m_metric = nullptr;
    QComboBox* m_backend = nullptr;
    QCheckBox* m_sample = nullptr;
    QSpinBox* m_sampleSize = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QComboBox* m_kind = nullptr;
    QComboBox* m_mode = nullptr;
    QComboBox* m_colormap = nullptr;
    QCheckBox* m_reversed = nullptr;
    QDoubleSpinBox* m_gamma = nullptr;
    QDoubleSpinBox* m_lowPercent = nullptr;
    QDoubleSpinBox* m_highPercent = nullptr;
    QCheckBox* m_holdLevels = nullptr;
    QSpinBox* m_clusters = nullptr;
    RunOnChoice* m_runOn = nullptr;
    QToolButton* m_export = nullptr;
    QLabel* m_hover = nullptr;
};

}  // namespace clusterlens::views
