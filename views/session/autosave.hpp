#pragma once
// Autosave to a recovery file, so that a crash (or kill -9) loses at most the work of the last
// interval. Each running instance owns one slot of the recovery folder, held by a lock file:
// recovery-N.clusterlens (the session, written atomically as a job) and recovery-N.json (which session
// file it was, if any). A clean quit removes the slot's files; a slot whose lock was left by a process
// that no longer runs, and whose recovery file still exists, holds the work of a crashed instance.

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>

class QLockFile;

namespace clusterlens::views {

class JobRunner;
class SessionDocument;

class Autosave : public QObject {
    Q_OBJECT
public:
    static constexpr int defaultIntervalMs = 120'000;
    static constexpr int slotCount = 16;

    Autosave(JobRunner* runner, SessionDocument* document, QObject* parent = nullptr);
    ~Autosave() override;

    /// The default recovery folder: QStandardPaths::AppDataLocation + "/recovery".
    static QString defaultFolder();

    /// Takes the first free slot of `folder` (made when missing; defaultFolder() when empty) and
    /// saves every `intervalMs` from now on. False (and no autosave) when the folder is unusable or
    /// every slot is held by a running instance.
    bool start(const QString& folder = {}, int intervalMs = defaultIntervalMs);
    bool isActive() const { return m_lock != nullptr; }

    /// The recovery file a crashed instance left in this slot (empty when none). Valid after start().
    const QString& pendingRecovery() const { return m_pending; }
    /// The session file the pending recovery belonged to (empty for an untitled session).
    QString pendingSessionPath() const;
    /// Forgets the pending recovery file (restored, or declined: it is removed).
    void dropPending();

    /// Called before each autosave takes its copy of the document (to store the view state).
    void setBeforeSave(std::function<void()> hook) { m_beforeSave = std::move(hook); }

    /// Writes the document to the recovery file as a job, when it changed since the last autosave and
    /// has data. The next event-loop turn, so results delivered in this turn are included.
    void saveSoon();
    /// The recovery file of this slot (empty before start()).
    QString recoveryPath() const;
    /// Removes this slot's recovery files (a clean quit) and releases the slot.
    void finish();

Q_SIGNALS:
    void saved(const QString& path);
    void failed(const QString& message);

private:
    QString slotFile(const QString& suffix) const;
    void saveNow();
    void writeSidecar(const QString& sessionPath) const;

    JobRunner* m_runner;
    SessionDocument* m_document;
    QTimer m_timer;
    QString m_folder;
    int m_slot = -1;
    std::unique_ptr<QLockFile> m_lock;
    QString m_pending;
    std::function<void()> m_beforeSave;
    quint64 m_job = 0;
    bool m_scheduled = false;
};

}  // namespace clusterlens::views
