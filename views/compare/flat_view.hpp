#pragma once
// The flat comparison view: any two labelings of the analysis session (dendrogram cuts, density
// peaks, k-means, the file's ground truth) compared by a contingency heatmap whose rows and
// columns follow the 1-to-1 cluster matching (Hungarian or greedy), the table of matched pairs
// with their F1, and ARI / NMI / F-measure. Clicking a cell (or a table row) selects the points
// the two clusters share in every view. The comparison is computed as a job.

#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <memory>

#include "analysis_session.hpp"
#include "compare/contingency_heatmap.hpp"
#include "compare/flat_comparison.hpp"
#include "figure/figure.hpp"
#include "figure/figure_export_source.hpp"

class QComboBox;
class QLabel;
class QTableView;
class QToolButton;

namespace clusterlens::views {

class JobRunner;
class MatchedPairsModel;

class FlatComparisonView : public QWidget {
    Q_OBJECT
public:
    FlatComparisonView(JobRunner* runner, AnalysisSession* session, QWidget* parent = nullptr);

    /// Chooses the two labelings by their session names (an unknown name leaves that side unchanged).
    void setLabelings(const QString& nameA, const QString& nameB);
    QString labelingA() const;
    QString labelingB() const;
    void setMatchingMethod(MatchingMethod method);
    MatchingMethod matchingMethod() const;

    const std::shared_ptr<const FlatComparison>& comparison() const { return m_comparison; }
    ContingencyHeatmap* heatmap() const { return m_heatmap; }
    MatchedPairsModel* pairsModel() const { return m_model; }
    QTableView* pairsTable() const { return m_table; }
    /// The ARI / NMI / F-measure line.
    QString scoresLine() const;

    /// Selects the points of the clusters at heatmap display position (row, col) in every view.
    void selectCell(HeatmapCell cell);
    /// Writes the heatmap figure (SVG, PDF or PNG by extension) or the pairs table (CSV). Throw
    /// clusterlens::InvalidInput without a comparison or on a write failure.
    void exportHeatmap(const QString& path, const FigureExportOptions& options = {}) const;
    void exportTable(const QString& path) const;
    /// The data file the compared results came from: its SHA-256 goes into exported figures.
    void setDataFile(const QString& path) { m_dataFile = path; }
    /// What the figure export dialog needs: the figure, the `plot` command, the methods
    /// (compare_figures.cpp).
    FigureExportSource figureExportSource() const;

Q_SIGNALS:
    void comparisonReady();
    void failed(const QString& message);

private:
    void refreshChoices();
    void recompute(bool force = false);
    void display(std::shared_ptr<const FlatComparison> comparison);
    void clearComparison(const QString& message);
    void chooseHeatmapExport();
    void chooseTableExport();

    JobRunner* m_runner;
    QTimer m_recomputeSoon;  // coalesces session changes of one event-loop turn
    QStringList m_known;     // the results of the last refresh: a new one may be followed
    AnalysisSession* m_session;
    QComboBox* m_choiceA;
    QComboBox* m_choiceB;
    QComboBox* m_method;
    QLabel* m_scores;
    ContingencyHeatmap* m_heatmap;
    MatchedPairsModel* m_model;
    QTableView* m_table;
    QString m_dataFile;
    QToolButton* m_exportHeatmap;
    QToolButton* m_exportTable;
    std::shared_ptr<const FlatComparison> m_comparison;
    std::shared_ptr<const LabelVector> m_labelsA, m_labelsB;  // what m_comparison (or its job) compares
    std::shared_ptr<const IndexVector> m_cellSelection;       // the points of the outlined cell
    MatchingMethod m_requestedMethod = MatchingMethod::Hungarian;
};

}  // namespace clusterlens::views
