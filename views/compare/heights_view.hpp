#pragma once
// The point-height comparison view: heights of every point in hierarchical clustering A (x)
// against B (y), drawn by the OpenGL scatter with density colours and the diagonal y = x, with
// Pearson and Spearman correlations. A and B are any two linkages of the analysis session, or a
// linkage CSV imported here (added to the session). Selecting a rectangle selects those points in
// every view; a selection made elsewhere is highlighted here. Heights, correlations and the
// drawable scatter are computed as one job.

#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <cstddef>
#include <memory>

#include "compare/heights_comparison.hpp"
#include "figure/figure.hpp"
#include "figure/figure_export_source.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QToolButton;

namespace clusterlens::views {

class AnalysisSession;
class JobRunner;
class ScatterWidget;

class HeightsView : public QWidget {
    Q_OBJECT
public:
    HeightsView(JobRunner* runner, AnalysisSession* session, QWidget* parent = nullptr);

    /// Chooses the two linkages by their session names (an unknown name leaves that side unchanged).
    void setLinkages(const QString& nameA, const QString& nameB);
    QString linkageA() const;
    QString linkageB() const;
    /// One range on both axes (heights in the same unit) or each axis its own range (default).
    void setEqualAxes(bool equal);
    bool equalAxes() const { return m_equalAxes; }
    /// Colours the points by density (default) or by how differently the two trees place them.
    void setColour(HeightsColour colour);
    HeightsColour colour() const { return m_colour; }
    /// Points of the current dataset; an imported linkage must cluster exactly this many (0: any).
    void setDatasetSize(std::size_t n) { m_datasetSize = n; }
    /// Reads a linkage CSV as a job and adds it to the session as "imported: <file name>", then
    /// compares it as B. A linkage of another size is reported through failed().
    void importLinkage(const QString& path);

    const std::shared_ptr<const HeightsComparison>& comparison() const { return m_comparison; }
    ScatterWidget* scatter() const { return m_scatter; }
    /// The correlations line shown above the plot.
    QString statsText() const;
    /// Selects, in every view, the `count` points the two trees place most differently (largest
    /// |height rank in A − rank in B|; points placed alike never). Does nothing without a comparison.
    void selectMostDiscordant(std::size_t count);
    /// How many points the "Select most discordant" button selects.
    std::size_t discordantChoice() const;
    /// Writes the figure of the current comparison (as `clusterlens-cli plot heights` draws it).
    /// Throws clusterlens::InvalidInput without a comparison or on a write failure.
    void exportFigure(const QString& path, const FigureExportOptions& options = {}) const;
    /// The data file the compared results came from: its SHA-256 goes into exported figures.
    void setDataFile(const QString& path) { m_dataFile = path; }
    /// What the figure export dialog needs: the figure, the `plot` command, the methods
    /// (compare_figures.cpp).
    FigureExportSource figureExportSource() const;

Q_SIGNALS:
    /// A comparison (or a rescaled plot of it) is shown.
    void comparisonReady();
    /// An imported linkage does not fit the dataset; `message` says why. Failed jobs are not
    /// repeated here: the job runner reports them.
    void failed(const QString& message);

private:
    struct Plot {
        std::shared_ptr<const HeightsComparison> comparison;
        std::shared_ptr<const ScatterData> scatter;
    };

    void refreshChoices();
    /// Starts the job for the chosen linkages unless it runs or ran already (`force`: anyway).
    void recompute(bool force = false);
    /// Redraws the current comparison with other axes (only the scatter is prepared again).
    void replot();
    void display(const Plot& plot);
    void clearPlot(const QString& message);
    void report(const QString& message);
    void onScatterSelection();
    void onSessionSelection(const QObject* origin);
    void applySessionSelection();
    void chooseImport();
    void chooseExport();

    JobRunner* m_runner;
    QTimer m_recomputeSoon;  // coalesces session changes of one event-loop turn
    QStringList m_known;     // the results of the last refresh: a new one may be followed
    AnalysisSession* m_session;
    QComboBox* m_choiceA;
    QComboBox* m_choiceB;
    QToolButton* m_import;
    QCheckBox* m_equal;
    QComboBox* m_colourChoice;
    QToolButton* m_export;
    QSpinBox* m_discordantCount;
    QToolButton* m_selectDiscordant;
    QLabel* m_stats;
    ScatterWidget* m_scatter;
    std::shared_ptr<const HeightsComparison> m_comparison;
    std::shared_ptr<const Linkage> m_linkageA, m_linkageB;  // what m_comparison (or its job) compares
    std::size_t m_datasetSize = 0;
    bool m_equalAxes = false;
    HeightsColour m_colour = HeightsColour::Density;
    QString m_dataFile;
    bool m_pending = false;  // a job for m_linkageA/B runs
    bool m_syncing = false;  // applying the session's selection: not a selection of this view
};

}  // namespace clusterlens::views
