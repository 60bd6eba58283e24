#pragma once
// The main window: wiring only. The scatter is the central widget; docks hold the dataset panel,
// the jobs and the log. Every computation runs as a job of the one JobRunner.

#include <QMainWindow>

#include <functional>

class QLabel;
class QMenu;
class QMessageBox;
class QUndoStack;

namespace clusterlens::views {
class AnalysisSession;
class Autosave;
class ClusteringPanel;
class DatasetPanel;
class DatasetSession;
class DendrogramPanel;
class DpcPanel;
class FlatComparisonView;
class HeightsView;
class JobRunner;
class JobsPanel;
class KMeansPanel;
class LogPanel;
class OpenDialog;
class PopulationsPanel;
class ScatterController;
class ScatterWidget;
class SessionDocument;
class SessionIo;
class SessionRecorder;
class StaleMarker;
class UndoRecorder;
class VatPanel;
struct ViewState;
}  // namespace clusterlens::views

namespace clusterlens::gui {

class FocusMode;
class RecentFiles;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Reads `path` as a job; on failure a message box names the file and the reason, and the
    /// dataset shown before stays.
    void openFile(const QString& path);
    /// Opens the bundled demo dataset (6052 flow-cytometry events).
    void openDemo();

    views::JobRunner* jobRunner() const { return m_runner; }
    views::DatasetSession* session() const { return m_session; }
    /// Results and linked selection of the current dataset.
    views::AnalysisSession* analysis() const { return m_analysis; }
    views::ScatterWidget* scatter() const { return m_scatter; }
    views::DatasetPanel* datasetPanel() const { return m_datasetPanel; }
    views::LogPanel* logPanel() const { return m_logPanel; }
    views::JobsPanel* jobsPanel() const { return m_jobsPanel; }
    /// Point-height comparison of two hierarchical clusterings (main_window_compare.cpp).
    views::HeightsView* heightsView() const { return m_heightsView; }
    /// Comparison of two flat clusterings (main_window_compare.cpp).
    views::FlatComparisonView* flatComparisonView() const { return m_flatView; }
    /// Dendrogram view and the clustering that feeds it (main_window_dendrogram.cpp).
    views::DendrogramPanel* dendrogramPanel() const { return m_dendrogramPanel; }
    views::ClusteringPanel* clusteringPanel() const { return m_clusteringPanel; }
    /// Density peaks: decision graph and peak picking (main_window_dpc.cpp).
    views::DpcPanel* dpcPanel() const { return m_dpcPanel; }
    /// VAT/iVAT image of the current dataset (main_window_vat.cpp).
    views::VatPanel* vatPanel() const { return m_vatPanel; }
    /// k-means as an analysis of its own (main_window_analyses.cpp).
    views::KMeansPanel* kmeansPanel() const { return m_kmeansPanel; }
    /// Focus mode: one view fills the main area (main_window_layout.cpp).
    FocusMode* focusMode() const { return m_focus; }
    /// The message box of the last failed load (null before one failed).
    QMessageBox* lastErrorBox() const { return m_errorBox; }

    /// Opening files (main_window_open.cpp): the Open dialog for `path` (a session file opens as one).
    void openWithDialog(const QString& path);
    /// The Open dialog shown last, while it is open.
    views::OpenDialog* openDialog() const { return m_openDialog; }
    /// Reads labels of every event from `path` into a new labeling; on failure a message box (see
    /// lastLabelsErrorBox()) names the file and the reason, and nothing changes.
    void importLabelsFrom(const QString& path);
    QMessageBox* lastLabelsErrorBox() const { return m_labelsErrorBox; }
    views::StaleMarker* staleMarker() const { return m_stale; }

    /// Sessions (main_window_session.cpp): the document, its file operations, autosave and the one
    /// undo stack of the application.
    views::SessionDocument* document() const { return m_document; }
    views::SessionIo* sessionIo() const { return m_sessionIo; }
    views::Autosave* autosave() const { return m_autosave; }
    QUndoStack* undoStack() const { return m_undo; }
    views::PopulationsPanel* populationsPanel() const { return m_populationsPanel; }
    /// Opens a session file (after asking about unsaved work).
    void openSession(const QString& path);
    /// Saves to `path` as a job; `done(ok)` when written or failed.
    void saveSessionTo(const QString& path, std::function<void(bool)> done = {});
    /// Starts autosaving into `folder` (the default recovery folder when empty) and offers to restore
    /// the work of an instance that did not quit cleanly.
    void startRecovery(const QString& folder = {}, int intervalMs = 120'000);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildDocks();
    void buildCompareDocks();
    void buildDendrogramDock();
    void buildChartsDock();
    void buildDpcDock();
    void buildVatDock();
    void buildVatMenu();
    void buildMenus();
    void buildFocusMenu(QMenu* view);
    void buildDendrogramViewMenu(QMenu* view);
    /// `content` in a frameless scroll area that resizes it: a dock of it is no wider than the screen.
    QWidget* inScrollArea(QWidget* content);
    /// Tabs the forms left, the views right, jobs and log at the bottom; sizes them for the screen.
    void applyDefaultLayout();
    /// A window size that fits the available screen (1366x768 included).
    void resizeToScreen();
    void buildSessionParts();
    void addSessionActions(QMenu* file);
    void buildEditMenu();
    void buildPopulationsDock();
    void buildKMeansDock();
    void connectPopulationScopes();
    void connectDocument();
    void connectOpening();
    void openRecentData(const QString& path);
    void importLabels();
    void showLabelsError(const QString& fileName, const QString& reason);
    void updateStaleness(bool contextChanged);
    void keepFileLabels();
    void connectResultRecording();
    void newSession();
    void chooseAndOpenSession();
    void saveSession(std::function<void(bool)> done = {});
    void saveSessionAs(std::function<void(bool)> done = {});
    /// Runs `next` once unsaved work is saved or discarded; not at all when the user cancels.
    void afterUnsavedWork(std::function<void()> next);
    void offerRecovery();
    void showSessionError(const QString& title, const QString& message);
    void updateTitle();
    views::ViewState captureViewState() const;
    void applyViewStateBeforeData(const views::ViewState& state);
    void applyViewStateAfterData(const views::ViewState& state);
    void showStoredDpc(const QString& name);
    void showStoredVat(const QString& name, int clusters, const std::function<void()>& afterCut);
    void connectSession();
    void connectPanel();
    void connectJobs();
    void connectAnalysis();
    void resetAnalysis(bool newRows);
    void onLoaded(const QString& path);
    void onLoadFailed(const QString& path, const QString& message);
    void onCurrentChanged(bool newRows);
    void updateStatus();
    void chooseAndOpen();
    void restoreSettings();
    void saveSettings() const;
    void showAbout();

    views::JobRunner* m_runner;
    views::DatasetSession* m_session;
    views::AnalysisSession* m_analysis;
    views::ScatterWidget* m_scatter;
    views::ScatterController* m_scatterController;
    views::DatasetPanel* m_datasetPanel = nullptr;
    views::JobsPanel* m_jobsPanel = nullptr;
    views::LogPanel* m_logPanel = nullptr;
    views::HeightsView* m_heightsView = nullptr;
    views::FlatComparisonView* m_flatView = nullptr;
    views::DendrogramPanel* m_dendrogramPanel = nullptr;
    views::ClusteringPanel* m_clusteringPanel = nullptr;
    views::DpcPanel* m_dpcPanel = nullptr;
    views::VatPanel* m_vatPanel = nullptr;
    views::KMeansPanel* m_kmeansPanel = nullptr;
    FocusMode* m_focus = nullptr;
    RecentFiles* m_recent = nullptr;
    RecentFiles* m_recentSessions = nullptr;
    QMessageBox* m_errorBox = nullptr;
    views::OpenDialog* m_openDialog = nullptr;
    QMessageBox* m_labelsErrorBox = nullptr;
    views::StaleMarker* m_stale = nullptr;
    views::SessionDocument* m_document = nullptr;
    views::SessionRecorder* m_recorder = nullptr;
    views::SessionIo* m_sessionIo = nullptr;
    views::Autosave* m_autosave = nullptr;
    QUndoStack* m_undo = nullptr;
    views::UndoRecorder* m_undoRecorder = nullptr;
    views::PopulationsPanel* m_populationsPanel = nullptr;
    QAction* m_embedData = nullptr;
    bool m_closeConfirmed = false;
    // The comparison the view starts by itself on the labelings of a session just opened is shown, not
    // stored: opening a session adds nothing to it.
    bool m_comparisonOfOpen = false;
    QLabel* m_shapeLabel;
    QLabel* m_backendLabel;
    QLabel* m_selectionLabel;
    QString m_backendText;
};

}  // namespace clusterlens::gui
