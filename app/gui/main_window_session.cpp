// MainWindow: the session document — File > New / Open / Save / Save As / recent sessions, the title
// with its modified mark, the question about unsaved work, autosave and the offer to recover the work
// of an instance that did not quit cleanly, and the application's one undo stack (Edit menu).

#include <QAction>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>

#include "analysis_session.hpp"
#include "clusterlens/session/session_file.hpp"
#include "dataset_session.hpp"
#include "dataset_panel.hpp"
#include "dpc/dpc_panel.hpp"
#include "figure/figure_export_source.hpp"
#include "jobs/job_runner.hpp"
#include "log_panel.hpp"
#include "main_window.hpp"
#include "populations/populations_panel.hpp"
#include "recent_files.hpp"
#include "session/autosave.hpp"
#include "session/session_document.hpp"
#include "session/session_io.hpp"
#include "session/session_recorder.hpp"
#include "session/undo_recorder.hpp"
#include "session/view_state.hpp"
#include "vat/vat_panel.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

namespace {

const QString kSessionDirKey = QStringLiteral("sessions/lastDirectory");
const QString kEmbedKey = QStringLiteral("sessions/embedData");

QString sessionFilter() {
    return QObject::tr("ClusterLens sessions (*%1);;All files (*)").arg(QString::fromLatin1(kSessionExtension));
}

}  // namespace

void MainWindow::buildSessionParts() {
    m_document = new SessionDocument(this);
    m_recorder = new SessionRecorder(m_document, m_analysis, this);
    m_sessionIo = new SessionIo(m_runner, m_document, m_session, this);
    m_autosave = new Autosave(m_runner, m_document, this);
    m_undo = new QUndoStack(this);
    m_undoRecorder = new UndoRecorder(m_undo, m_dendrogramPanel, m_vatPanel, m_dpcPanel, this);
    buildPopulationsDock();
    buildKMeansDock();
}

void MainWindow::addSessionActions(QMenu* file) {
    QAction* newSession = file->addAction(tr("&New session"), this, &MainWindow::newSession);
    newSession->setShortcut(QKeySequence::New);
    QAction* open = file->addAction(tr("Open &session\u2026"), this, &MainWindow::chooseAndOpenSession);
    open->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_O);
    QMenu* recentMenu = file->addMenu(tr("Recent sessions"));
    m_recentSessions = new RecentFiles(recentMenu, this, QStringLiteral("sessions/recent"));
    connect(m_recentSessions, &RecentFiles::openRequested, this, &MainWindow::openSession);
    QAction* save = file->addAction(tr("&Save session"), this, [this] { saveSession(); });
    save->setShortcut(QKeySequence::Save);
    QAction* saveAs = file->addAction(tr("Save session &as\u2026"), this, [this] { saveSessionAs(); });
    saveAs->setShortcut(QKeySequence::SaveAs);
    m_embedData = file->addAction(tr("&Embed the data when saving"));
    m_embedData->setCheckable(true);
    m_embedData->setChecked(QSettings().value(kEmbedKey, false).toBool());
    m_embedData->setStatusTip(tr("Store the analysed matrix in the session file, so it opens without the data file."));
    connect(m_embedData, &QAction::toggled, this, [](bool on) { QSettings().setValue(kEmbedKey, on); });
}

void MainWindow::buildEditMenu() {
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_undo->createRedoAction(this, tr("&Redo"));
    // Ctrl+Shift+Z everywhere, with the platform's own redo keys (which may include it already).
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    const QKeySequence ctrlShiftZ(Qt::CTRL | Qt::SHIFT | Qt::Key_Z);
    if (!redoKeys.contains(ctrlShiftZ)) redoKeys.prepend(ctrlShiftZ);
    redo->setShortcuts(redoKeys);
    edit->addAction(undo);
    edit->addAction(redo);
}

void MainWindow::connectDocument() {
    connect(m_document, &SessionDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &SessionDocument::pathChanged, this, &MainWindow::updateTitle);
    // Figures name the saved session as their source only while it holds all the work shown.
    const auto followSessionFile = [this] {
        setFigureSessionFile(m_document->isModified() ? QString() : m_document->path());
    };
    connect(m_document, &SessionDocument::modifiedChanged, this, followSessionFile);
    connect(m_document, &SessionDocument::pathChanged, this, followSessionFile);
    connect(m_session, &DatasetSession::loaded, this, &MainWindow::updateTitle);
    // A session's data arrives with its own transform: the panel shows it.
    connect(m_session, &DatasetSession::loaded, this, [this] { m_datasetPanel->setTransform(m_session->transform()); });
    // Another document makes the history of the one before meaningless.
    connect(m_document, &SessionDocument::documentReset, m_undo, &QUndoStack::clear);
    connect(m_sessionIo, &SessionIo::failed, this, &MainWindow::showSessionError);
    connect(m_sessionIo, &SessionIo::saved, this, [this](const QString& path) {
        m_recentSessions->add(path);
        m_logPanel->info(tr("Saved session %1").arg(path));
        statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 5000);
    });
    connect(m_sessionIo, &SessionIo::aboutToShow, this,
            [this](const Session& session) { applyViewStateBeforeData(viewStateFromJson(session.viewState)); });
    connect(m_sessionIo, &SessionIo::sessionShown, this, [this](const QString& path) {
        m_recorder->restoreResults();
        m_populationsPanel->refreshLabeling();
        // The comparison view compares two of them as soon as there are two.
        m_comparisonOfOpen = m_analysis->labelingNames().size() >= 2;
        applyViewStateAfterData(viewStateFromJson(m_document->session().viewState));
        if (!path.isEmpty() && QFileInfo(path).suffix() == QLatin1String("clusterlens")) m_recentSessions->add(path);
        if (!m_sessionIo->dataCameEmbedded()) return;
        const QSignalBlocker block(m_embedData);
        m_embedData->setChecked(true);
    });
    // While a session opens, the views do not show its view state yet: the document keeps the stored one.
    m_autosave->setBeforeSave([this] {
        if (!m_sessionIo->isOpening()) m_document->setViewState(viewStateToJson(captureViewState()));
    });
    connect(m_autosave, &Autosave::failed, this,
            [this](const QString& message) { m_logPanel->warning(tr("Autosave failed: %1").arg(message)); });
    // Autosave after every finished job (its own job aside): a crash loses at most the work since.
    connect(m_runner, &JobRunner::jobFinished, this, [this](JobId, const QString&, JobState state) {
        if (state == JobState::Finished && m_document->needsAutosave()) m_autosave->saveSoon();
    });
    connectResultRecording();
    updateTitle();
}

void MainWindow::updateTitle() {
    const QString dataName = m_session->path().isEmpty() ? QString() : QFileInfo(m_session->path()).fileName();
    const QString name = m_document->displayName();
    setWindowTitle(dataName.isEmpty() || dataName == name
                       ? QStringLiteral("%1[*] \u2014 ClusterLens").arg(name)
                       : QStringLiteral("%1[*] \u2014 %2 \u2014 ClusterLens").arg(name, dataName));
    setWindowModified(m_document->isModified());
}

void MainWindow::afterUnsavedWork(std::function<void()> next) {
    if (!m_document->isModified()) {
        next();
        return;
    }
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Unsaved work"),
                                tr("The session \u201c%1\u201d has unsaved work.").arg(m_document->displayName()),
                                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("UnsavedWorkBox"));
    box->setInformativeText(tr("Save it before going on?"));
    box->setDefaultButton(QMessageBox::Save);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, next = std::move(next)] {
        const auto answer = box->standardButton(box->clickedButton());
        if (answer == QMessageBox::Discard) {
            next();
        } else if (answer == QMessageBox::Save) {
            saveSession([next](bool ok) {
                if (ok) next();
            });
        }
    });
    // Window-modal and non-blocking: jobs and autosave go on behind it.
    box->open();
}

void MainWindow::newSession() {
    afterUnsavedWork([this] {
        Session fresh;
        fresh.data = m_document->session().data;
        m_document->reset(std::move(fresh), {}, false);
        resetAnalysis(true);
        // The panels drop what they show of the old results; the data stays.
        const auto current = m_session->current();
        const QStringList features = m_datasetPanel->activeFeatures();
        m_dpcPanel->setDataSource(nullptr, {});
        m_dpcPanel->setDataSource(current, features);
        m_vatPanel->setDataSource(nullptr, {});
        m_vatPanel->setDataSource(current, features);
        updateTitle();
    });
}

void MainWindow::openSession(const QString& path) {
    if (path.isEmpty()) return;
    afterUnsavedWork([this, path] {
        m_logPanel->info(tr("Opening session %1").arg(path));
        m_sessionIo->open(path);
    });
}

void MainWindow::chooseAndOpenSession() {
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"),
                                                      settings.value(kSessionDirKey).toString(), sessionFilter());
    if (path.isEmpty()) return;
    settings.setValue(kSessionDirKey, QFileInfo(path).absolutePath());
    openSession(path);
}

void MainWindow::saveSessionTo(const QString& path, std::function<void(bool)> done) {
    const DatasetReference& reference = m_document->session().data;
    if (reference.sha256.empty() && !reference.embedded) {
        // The fingerprint of a file just opened is a job of its own; a session needs it.
        showSessionError(tr("Not saved yet"), tr("The data file is still being read; save again in a moment."));
        if (done) done(false);
        return;
    }
    m_document->setViewState(viewStateToJson(captureViewState()));
    m_sessionIo->save(path, m_embedData->isChecked(), m_session->current(), std::move(done));
}

void MainWindow::saveSession(std::function<void(bool)> done) {
    // A recovered session keeps its file; one never saved asks for a name.
    if (m_document->path().isEmpty())
        saveSessionAs(std::move(done));
    else
        saveSessionTo(m_document->path(), std::move(done));
}

void MainWindow::saveSessionAs(std::function<void(bool)> done) {
    if (m_document->session().data.n == 0) {
        showSessionError(tr("Nothing to save"), tr("Open a dataset first: a session belongs to one data file."));
        if (done) done(false);
        return;
    }
    QSettings settings;
    QString suggested = m_document->path();
    if (suggested.isEmpty()) {
        const QFileInfo dataFile(QString::fromStdString(m_document->session().data.path));
        suggested = QFileInfo(settings.value(kSessionDirKey, dataFile.absolutePath()).toString(),
                              dataFile.completeBaseName() + QString::fromLatin1(kSessionExtension))
                        .absoluteFilePath();
    }
    QString path = QFileDialog::getSaveFileName(this, tr("Save session as"), suggested, sessionFilter());
    if (path.isEmpty()) {
        if (done) done(false);
        return;
    }
    if (QFileInfo(path).suffix().isEmpty()) path += QString::fromLatin1(kSessionExtension);
    settings.setValue(kSessionDirKey, QFileInfo(path).absolutePath());
    saveSessionTo(path, std::move(done));
}

void MainWindow::startRecovery(const QString& folder, int intervalMs) {
    if (!m_autosave->start(folder, intervalMs)) {
        m_logPanel->warning(
            tr("Autosave is off: no recovery slot in %1").arg(folder.isEmpty() ? Autosave::defaultFolder() : folder));
        return;
    }
    if (!m_autosave->pendingRecovery().isEmpty()) offerRecovery();
}

void MainWindow::offerRecovery() {
    const QString file = m_autosave->pendingRecovery();
    const QString original = m_autosave->pendingSessionPath();
    auto* box = new QMessageBox(QMessageBox::Question, tr("Recover unsaved work"),
                                tr("ClusterLens did not quit normally last time."), QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("RecoveryBox"));
    box->setInformativeText(
        tr("Work autosaved at %1%2 can be restored.")
            .arg(QLocale().toString(QFileInfo(file).lastModified(), QLocale::ShortFormat),
                 original.isEmpty() ? QString() : tr(" (session \u201c%1\u201d)").arg(QFileInfo(original).fileName())));
    QPushButton* restore = box->addButton(tr("Restore"), QMessageBox::AcceptRole);
    box->addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box->setDefaultButton(restore);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, restore, file, original] {
        if (box->clickedButton() != restore) {
            m_autosave->dropPending();
            return;
        }
        // The recovery file is dropped once its work is on screen; until then a failure keeps it.
        connect(m_sessionIo, &SessionIo::sessionShown, m_autosave, &Autosave::dropPending, Qt::SingleShotConnection);
        m_sessionIo->open(file, true, original);
    });
    box->open();
}

void MainWindow::showSessionError(const QString& title, const QString& message) {
    m_logPanel->error(QStringLiteral("%1: %2").arg(title, message));
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("SessionErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace clusterlens::gui
