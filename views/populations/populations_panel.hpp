#pragma once
// The Populations dock: the session's populations as a tree (each inside its parent) with count,
// % of parent and % of all; a details table with the median of each active marker of the current
// population; actions to make populations — gate the linked selection of any view (scatter rectangle
// or lasso, dendrogram subtree, decision-graph points, VAT block, contingency cell) within the current
// population, take chosen clusters of a labeling, AND / OR / AND NOT / NOT — and to rename, recolour,
// show/hide and delete them, each an undoable command of the application's undo stack; exports of the
// statistics table (CSV) and of a population's events (FCS/CSV, as jobs). Visible populations colour
// the views as the "Populations" labeling.

#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "figure/figure_export_source.hpp"
#include "populations/population_ops.hpp"

class QLabel;
class QTableWidget;
class QToolButton;
class QTreeView;
class QUndoStack;

namespace clusterlens::views {

class AnalysisSession;
class JobRunner;
class PopulationModel;
class SessionDocument;

class PopulationsPanel : public QWidget {
    Q_OBJECT
public:
    PopulationsPanel(SessionDocument* document, AnalysisSession* analysis, QUndoStack* undo, JobRunner* runner,
                     QWidget* parent = nullptr);

    /// The data as read (medians), the data as analysed (exports of data embedded in a session) and the
    /// markers whose medians the details table shows.
    void setDataSource(std::shared_ptr<const Dataset> raw, std::shared_ptr<const Dataset> analysed,
                       const QStringList& markers);

    /// Each of these pushes one command on the undo stack and returns the new population's name; an
    /// empty name (and message()) when there is nothing to make. `name` empty: a generated name.
    QString gateSelection(const QString& name = {});
    QString fromClusters(const QString& labeling, const std::vector<std::int32_t>& clusters, const QString& name = {});
    QString combine(PopulationOp op, const QStringList& names, const QString& name = {});
    /// False (and message()) when `to` is empty or taken.
    bool rename(const QString& from, const QString& to);
    void recolour(const QString& name, const QColor& colour);
    void setPopulationVisible(const QString& name, bool visible);
    void remove(const QString& name);

    /// Colours every view by the visible populations; keeps the "Populations" labeling up to date.
    void colourByPopulations();
    void refreshLabeling();

    /// As jobs; exported() or message(error) tells the outcome.
    void exportStatisticsTo(const QString& path);
    void exportEventsTo(const QString& population, const QString& path);

    /// Computes the statistics of every population as a job, then calls `use` on the GUI thread with
    /// their figure (what the figure dialog and the figure composer draw); at once with an invalid
    /// source when there are no populations, and with one when the job fails. A job cancelled (in the
    /// Jobs panel, or replaced by a newer request) ends without a call.
    void withStatisticsSource(std::function<void(const FigureExportSource&)> use);

    QString currentPopulation() const;
    void setCurrentPopulation(const QString& name);
    QStringList selectedPopulations() const;
    /// Asks every analysis to run on the current population (the "Analyse" button, the context menu).
    void analyseCurrent();
    PopulationModel* model() const { return m_model; }
    QTreeView* tree() const { return m_tree; }
    QTableWidget* details() const { return m_details; }

Q_SIGNALS:
    void message(const QString& text, bool error);
    void exported(const QString& path);
    /// The details table shows the medians of `population`.
    void detailsShown(const QString& population);
    /// "Analyse this population": every analysis form should run on `population` next.
    void analyseRequested(const QString& population);

private:
    QWidget* buildToolbar();
    QToolButton* addButton(QWidget* bar, const QString& text, const QString& tip, std::function<void()> action);
    QString push(Population population);
    void updateDetails();
    void updateEnabled();
    void chooseClusters();
    void chooseColour();
    void removeSelected();
    void combineSelected(PopulationOp op);
    void chooseStatisticsExport();
    void chooseStatisticsFigure();
    void chooseEventsExport();

    SessionDocument* m_document;
    AnalysisSession* m_analysis;
    QUndoStack* m_undo;
    JobRunner* m_runner;
    std::shared_ptr<const Dataset> m_raw;
    std::shared_ptr<const Dataset> m_analysed;
    QStringList m_markers;
    PopulationModel* m_model;
    QTreeView* m_tree;
    QTableWidget* m_details;
    QLabel* m_detailsTitle;
    QToolButton* m_gate = nullptr;
    QToolButton* m_and = nullptr;
    QToolButton* m_or = nullptr;
    QToolButton* m_andNot = nullptr;
    QToolButton* m_not = nullptr;
    QToolButton* m_colour = nullptr;
    QToolButton* m_delete = nullptr;
    QToolButton* m_events = nullptr;
    QToolButton* m_analyse = nullptr;
};

}  // namespace clusterlens::views
