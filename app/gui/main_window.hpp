#pragma once
// The main window: wiring only. The scatter is the central widget; docks hold the dataset panel,
// the jobs and the log. Every computation runs as a job of the one JobRunner.

#include <QMainWindow>

class QLabel;
class QMessageBox;

namespace clusterlens::views {
class AnalysisSession;
class DatasetPanel;
class DatasetSession;
class JobRunner;
class JobsPanel;
class LogPanel;
class ScatterController;
class ScatterWidget;
}  // namespace clusterlens::views

namespace clusterlens::gui {

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
    /// The message box of the last failed load (null before one failed).
    QMessageBox* lastErrorBox() const { return m_errorBox; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildDocks();
    void buildMenus();
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
    RecentFiles* m_recent = nullptr;
    QMessageBox* m_errorBox = nullptr;
    QLabel* m_shapeLabel;
    QLabel* m_backendLabel;
    QLabel* m_selectionLabel;
    QString m_backendText;
};

}  // namespace clusterlens::gui
