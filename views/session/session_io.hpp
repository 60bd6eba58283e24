#pragma once
// Opening and saving session files for the GUI, as jobs. Opening reads the session, then its data —
// the embedded matrix, or the recorded data file checked against its SHA-256; when the file moved or
// changed the user is asked for it (a chooser the tests replace) and a file with other content is
// refused — and hands the data to the DatasetSession; the document is replaced only once everything
// was read, so a damaged, foreign or newer file, or a missing data file, leaves the user's work as it
// was. A data file opened directly starts a new session on it; its reference (with its hash) is
// computed as a job.

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

#include "clusterlens/dataset.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens::views {

class DatasetSession;
class JobRunner;
class SessionDocument;
struct SessionData;

class SessionIo : public QObject {
    Q_OBJECT
public:
    /// Asks for the data file of `reference`; `reason` says why (moved, or the last choice was refused).
    /// Returns the chosen path, empty to give up.
    using DataFileChooser = std::function<QString(const DatasetReference& reference, const QString& reason)>;

    SessionIo(JobRunner* runner, SessionDocument* document, DatasetSession* data, QObject* parent = nullptr);
    ~SessionIo() override;

    /// Replaces the dialog that asks for a moved data file (the default shows a message and a file dialog).
    void setDataFileChooser(DataFileChooser chooser) { m_chooser = std::move(chooser); }

    /// Opens the session file `path`. For a recovery file, `recovered` is set and `originalPath` names the
    /// session file the work belonged to (empty: untitled); the document is then marked modified.
    void open(const QString& path, bool recovered = false, const QString& originalPath = {});
    /// True from open() until the session's data is shown (or opening failed).
    bool isOpening() const { return m_opening; }

    /// Writes the document (with `viewState` already stored in it) to `path` as a job. With `embed`,
    /// the analysed matrix `current` goes into the file; data that came embedded always stays embedded.
    /// `done(true)` after a successful write, `done(false)` after a failure (also reported by failed()).
    void save(const QString& path, bool embed, std::shared_ptr<const Dataset> current,
              std::function<void(bool)> done = {});
    /// True when the open document's data came embedded (it cannot be saved without it).
    bool dataCameEmbedded() const { return m_embeddedSource; }

Q_SIGNALS:
    /// A session was read and its data is about to replace the current data: views can take the
    /// choices that apply while the data loads (axes, active features).
    void aboutToShow(const clusterlens::Session& session);
    /// A session's data is current and its document in place: views can take its results and view state.
    void sessionShown(const QString& path);
    void saved(const QString& path);
    /// Something the user must read: what failed and why; nothing they had was changed.
    void failed(const QString& title, const QString& message);

private:
    struct Opened;
    /// A session read and waiting for its data to be shown.
    struct Pending {
        Session session;
        QString path;   ///< the document's file once shown (the original file of a recovery)
        bool modified;  ///< a recovery, or a session whose data file was relocated
    };
    void onRead(const QString& path, const std::shared_ptr<const Opened>& opened, bool recovered,
                const QString& originalPath);
    void askForData(std::shared_ptr<Pending> pending, const QString& reason);
    void show(Pending pending, const SessionData& data, const QString& dataPath);
    void onDataLoaded(const QString& path);
    void onCurrentChanged(bool newRows);
    void describeNewData(const QString& path);
    QString defaultChooser(const DatasetReference& reference, const QString& reason) const;

    JobRunner* m_runner;
    SessionDocument* m_document;
    DatasetSession* m_data;
    DataFileChooser m_chooser;
    std::unique_ptr<Pending> m_pending;  // handed to the DatasetSession, not yet shown
    bool m_pendingEmbedded = false;
    bool m_opening = false;
    bool m_showing = false;  // the document is in place; its rows are being prepared
    bool m_shownModified = false;
    QString m_shownPath;
    bool m_embeddedSource = false;
};

}  // namespace clusterlens::views
