// MainWindow: opening files (dialog, drag and drop, recent list, demo), load outcomes, settings.

#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>

#include "app_resources.hpp"
#include "clusterlens/session/session_file.hpp"
#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "jobs/job_runner.hpp"
#include "log_panel.hpp"
#include "focus_mode.hpp"
#include "main_window.hpp"
#include "recent_files.hpp"
#include "session/autosave.hpp"
#include "session/session_document.hpp"
#include "session/session_results.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

namespace {

const QString kLastDirKey = QStringLiteral("files/lastDirectory");

QString fileFilters() {
    return QObject::tr(
        "All supported data (*.csv *.tsv *.txt *.data *.gz *.fcs *.h5 *.hdf5 *.h5ad *.bin);;"
        "Text tables (*.csv *.tsv *.txt *.data *.gz);;"
        "Flow cytometry (*.fcs);;"
        "HDF5, 10x, AnnData (*.h5 *.hdf5 *.h5ad);;"
        "Thesis binary (*.bin);;"
        "All files (*)");
}

}  // namespace

void MainWindow::openFile(const QString& path) {
    if (path.isEmpty()) return;
    if (looksLikeSession(path.toStdString())) {
        openSession(path);
        return;
    }
    // Another data file starts another session.
    afterUnsavedWork([this, path] { m_session->openWithDefaults(path); });
}

void MainWindow::openDemo() {
    QString error;
    const QString path = demoDatasetPath(&error);
    if (path.isEmpty()) {
        m_logPanel->error(error);
        QMessageBox::warning(this, tr("Demo dataset"), error);
        return;
    }
    // 6052 FACSAria events in a table: the demo README recommends arcsinh with cofactor 150.
    afterUnsavedWork(
        [this, path] { m_session->openWithDefaults(path, TransformChoice::fromSpec(QStringLiteral("asinh:150"))); });
}

void MainWindow::chooseAndOpen() {
    QSettings settings;
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open dataset"), settings.value(kLastDirKey).toString(), fileFilters());
    if (path.isEmpty()) return;
    settings.setValue(kLastDirKey, QFileInfo(path).absolutePath());
    openWithDialog(path);
}

void MainWindow::onLoaded(const QString& path) {
    const auto raw = m_session->raw();
    // A data file starts with the channels chosen for it (all when none were named).
    if (m_session->openedFromFile())
        m_datasetPanel->setPreferredActiveFeatures(toQStringList(m_session->choice().spec.columns));
    m_datasetPanel->setDataset(raw);
    m_recent->add(path);
    setWindowTitle(QStringLiteral("%1 \u2014 ClusterLens").arg(QFileInfo(path).fileName()));
    statusBar()->showMessage(tr("Loaded %1").arg(QFileInfo(path).fileName()), 5000);
    m_logPanel->info(tr("Loaded %1: %2 points \u00d7 %3 features (%4)")
                         .arg(QFileInfo(path).fileName())
                         .arg(QLocale().toString(static_cast<qulonglong>(raw->n)))
                         .arg(raw->d)
                         .arg(QString::fromStdString(raw->provenance.format)));
    for (const std::string& warning : raw->warnings) m_logPanel->warning(QString::fromStdString(warning));
    if (raw->nonFinite > 0) m_logPanel->warning(tr("%1 values are NaN or infinite.").arg(raw->nonFinite));
}

void MainWindow::onLoadFailed(const QString& path, const QString& message) {
    const QString name = QFileInfo(path).fileName();
    statusBar()->clearMessage();
    if (!m_errorBox) {
        m_errorBox =
            new QMessageBox(QMessageBox::Warning, tr("Could not open dataset"), QString(), QMessageBox::Ok, this);
        m_errorBox->setObjectName(QStringLiteral("LoadErrorBox"));
    }
    m_errorBox->setText(tr("Could not open \u201c%1\u201d.").arg(name));
    m_errorBox->setInformativeText(
        message + (m_session->current() ? tr("\n\nThe dataset shown before is still loaded.") : QString()));
    // Window-modal and non-blocking: the jobs and the event loop keep running behind it.
    m_errorBox->open();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile()) return;
    if (urls.size() > 1) m_logPanel->warning(tr("%1 files dropped; opening the first one only.").arg(urls.size()));
    openWithDialog(urls.first().toLocalFile());
    event->acceptProposedAction();
}

void MainWindow::restoreSettings() {
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) resizeToScreen();
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_datasetPanel->setPreferredAxes(settings.value(QStringLiteral("scatter/x")).toString(),
                                     settings.value(QStringLiteral("scatter/y")).toString());
    m_datasetPanel->setPreferredActiveFeatures(
        settings.value(QStringLiteral("analysis/activeFeatures")).toStringList());
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), m_focus->dockState());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!m_closeConfirmed && m_document->isModified()) {
        event->ignore();
        afterUnsavedWork([this] {
            m_closeConfirmed = true;
            close();
        });
        return;
    }
    saveSettings();
    m_runner->cancelAll();
    // A clean quit leaves no recovery file behind.
    m_autosave->finish();
    QMainWindow::closeEvent(event);
}

}  // namespace clusterlens::gui
