#include "session/autosave.hpp"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSaveFile>
#include <QStandardPaths>

#include <chrono>

#include "clusterlens/session/session_file.hpp"
#include "jobs/job_runner.hpp"
#include "session/session_document.hpp"

namespace clusterlens::views {

namespace {

const QString kSessionSuffix = QStringLiteral(".clusterlens");
const QString kRestoreSuffix = QStringLiteral(".restore.clusterlens");
const QString kSidecarSuffix = QStringLiteral(".json");
const QString kRestoreSidecarSuffix = QStringLiteral(".restore.json");

}  // namespace

Autosave::Autosave(JobRunner* runner, SessionDocument* document, QObject* parent)
    : QObject(parent), m_runner(runner), m_document(document) {
    connect(&m_timer, &QTimer::timeout, this, &Autosave::saveNow);
}

Autosave::~Autosave() = default;

QString Autosave::defaultFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery");
}

QString Autosave::slotFile(const QString& suffix) const {
    return QDir(m_folder).filePath(QStringLiteral("recovery-%1%2").arg(m_slot).arg(suffix));
}

bool Autosave::start(const QString& folder, int intervalMs) {
    m_folder = folder.isEmpty() ? defaultFolder() : folder;
    if (!QDir().mkpath(m_folder)) return false;
    for (int slot = 0; slot < slotCount && !m_lock; ++slot) {
        auto lock = std::make_unique<QLockFile>(QDir(m_folder).filePath(QStringLiteral("recovery-%1.lock").arg(slot)));
        // Only a dead owner makes a lock stale, however old it is: an instance may run for weeks.
        lock->setStaleLockTime(std::chrono::hours(24 * 365));
        if (!lock->tryLock(0)) continue;
        m_lock = std::move(lock);
        m_slot = slot;
    }
    if (!m_lock) return false;
    // A recovery file in a free slot is a crashed instance's work: keep it apart until the user decides.
    if (QFile::exists(slotFile(kSessionSuffix))) {
        QFile::remove(slotFile(kRestoreSuffix));
        QFile::remove(slotFile(kRestoreSidecarSuffix));
        QFile::rename(slotFile(kSessionSuffix), slotFile(kRestoreSuffix));
        QFile::rename(slotFile(kSidecarSuffix), slotFile(kRestoreSidecarSuffix));
    }
    if (QFile::exists(slotFile(kRestoreSuffix))) m_pending = slotFile(kRestoreSuffix);
    m_timer.start(intervalMs);
    return true;
}

QString Autosave::pendingSessionPath() const {
    QFile sidecar(slotFile(kRestoreSidecarSuffix));
    if (m_pending.isEmpty() || !sidecar.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(sidecar.readAll()).object().value(QStringLiteral("session")).toString();
}

void Autosave::dropPending() {
    if (m_pending.isEmpty()) return;
    QFile::remove(slotFile(kRestoreSuffix));
    QFile::remove(slotFile(kRestoreSidecarSuffix));
    m_pending.clear();
}

QString Autosave::recoveryPath() const {
    return m_lock ? slotFile(kSessionSuffix) : QString();
}

void Autosave::saveSoon() {
    if (!m_lock || m_scheduled) return;
    m_scheduled = true;
    QTimer::singleShot(0, this, [this] {
        m_scheduled = false;
        saveNow();
    });
}

void Autosave::writeSidecar(const QString& sessionPath) const {
    QSaveFile file(slotFile(kSidecarSuffix));
    if (!file.open(QIODevice::WriteOnly)) return;
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("session"), sessionPath}}).toJson());
    file.commit();
}

void Autosave::saveNow() {
    if (!m_lock || !m_document->needsAutosave()) return;
    // Nothing to recover before the data file is known (its hash is computed after loading).
    const DatasetReference& data = m_document->session().data;
    if (data.n == 0 || (data.sha256.empty() && !data.embedded)) return;
    if (m_beforeSave) m_beforeSave();
    auto snapshot = std::make_shared<const Session>(m_document->session());
    m_document->markAutosaved();
    writeSidecar(m_document->path());
    const std::string path = recoveryPath().toStdString();
    m_job = m_runner->start<bool>(
        this, QStringLiteral("autosave"), tr("Autosave"),
        [snapshot, path](JobControl&) {
            writeSession(path, *snapshot);
            return true;
        },
        [this](const JobOutcome<bool>& outcome) {
            if (outcome.state == JobState::Finished) {
                Q_EMIT saved(recoveryPath());
                return;
            }
            if (outcome.state == JobState::Failed) Q_EMIT failed(outcome.message);
        });
}

void Autosave::finish() {
    if (!m_lock) return;
    m_timer.stop();
    // A write still under way would put the file back after it was removed.
    if (m_runner->isRunning(m_job)) m_runner->waitForWorkers();
    QFile::remove(slotFile(kSessionSuffix));
    QFile::remove(slotFile(kSidecarSuffix));
    m_lock->unlock();
    m_lock.reset();
}

}  // namespace clusterlens::views
