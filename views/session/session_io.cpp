#include "session/session_io.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QWidget>

#include <optional>

#include "clusterlens/errors.hpp"
#include "clusterlens/session/session_data.hpp"
#include "clusterlens/session/session_file.hpp"
#include "dataset_session.hpp"
#include "jobs/job_runner.hpp"
#include "session/session_data_source.hpp"
#include "session/session_document.hpp"

namespace clusterlens::views {

struct SessionIo::Opened {
    Session session;
    std::optional<SessionData> data;
    QString dataError;  ///< why the recorded data could not be used
};

namespace {

const QString kOpenSlot = QStringLiteral("session-open");

}  // namespace

SessionIo::SessionIo(JobRunner* runner, SessionDocument* document, DatasetSession* data, QObject* parent)
    : QObject(parent), m_runner(runner), m_document(document), m_data(data) {
    m_chooser = [this](const DatasetReference& reference, const QString& reason) {
        return defaultChooser(reference, reason);
    };
    connect(m_data, &DatasetSession::loaded, this, &SessionIo::onDataLoaded);
    connect(m_data, &DatasetSession::currentChanged, this, &SessionIo::onCurrentChanged);
    const auto abandon = [this] {
        if (!m_pending) return;
        m_pending.reset();
        m_opening = false;
    };
    connect(m_data, &DatasetSession::loadFailed, this, abandon);
    connect(m_data, &DatasetSession::loadCancelled, this, abandon);
}

SessionIo::~SessionIo() = default;

void SessionIo::open(const QString& path, bool recovered, const QString& originalPath) {
    m_opening = true;
    const std::string file = path.toStdString();
    m_runner->start<Opened>(
        this, kOpenSlot, tr("Open session %1").arg(QFileInfo(path).fileName()),
        [file](JobControl& control) {
            Opened opened;
            opened.session = readSession(file, &control);
            try {
                opened.data = loadSessionData(opened.session.data, {}, &control);
            } catch (const InvalidInput& error) {
                opened.dataError = QString::fromUtf8(error.what());
            }
            return opened;
        },
        [this, path, recovered, originalPath](const JobOutcome<Opened>& outcome) {
            if (outcome.state != JobState::Finished) {
                m_opening = false;
                if (outcome.state == JobState::Failed)
                    Q_EMIT failed(tr("Could not open session"),
                                  tr("\u201c%1\u201d was not opened; what you were working on is unchanged.\n\n%2")
                                      .arg(QFileInfo(path).fileName(), outcome.message));
                return;
            }
            onRead(path, outcome.result, recovered, originalPath);
        });
}

void SessionIo::onRead(const QString& path, const std::shared_ptr<const Opened>& opened, bool recovered,
                       const QString& originalPath) {
    Pending pending{opened->session, recovered ? originalPath : path, recovered};
    if (opened->data) {
        show(std::move(pending), *opened->data, QString::fromStdString(opened->session.data.path));
        return;
    }
    askForData(std::make_shared<Pending>(std::move(pending)), opened->dataError);
}

void SessionIo::askForData(std::shared_ptr<Pending> pending, const QString& reason) {
    const QString chosen = m_chooser(pending->session.data, reason);
    if (chosen.isEmpty()) {
        m_opening = false;
        Q_EMIT failed(tr("Session not opened"),
                      tr("The session was not opened: it needs its data file.\n\n%1").arg(reason));
        return;
    }
    const std::string file = QFileInfo(chosen).absoluteFilePath().toStdString();
    const DatasetReference reference = pending->session.data;
    m_runner->start<SessionData>(
        this, kOpenSlot, tr("Check data file %1").arg(QFileInfo(chosen).fileName()),
        [reference, file](JobControl& control) { return loadSessionData(reference, file, &control); },
        [this, pending, file](const JobOutcome<SessionData>& outcome) {
            if (outcome.state == JobState::Cancelled) {
                m_opening = false;
                return;
            }
            if (outcome.state == JobState::Failed) {
                askForData(pending, outcome.message);
                return;
            }
            // The session now refers to the file the user pointed at; saving it records the new place.
            pending->session.data.path = file;
            pending->modified = true;
            show(std::move(*pending), *outcome.result, QString::fromStdString(file));
        });
}

void SessionIo::show(Pending pending, const SessionData& data, const QString& dataPath) {
    const bool embedded = pending.session.data.embedded.has_value();
    const ReadOptions options = readOptionsOf(pending.session.data.read);
    const QString shownPath = embedded ? pending.path : dataPath;
    m_pending = std::make_unique<Pending>(std::move(pending));
    m_pendingEmbedded = embedded;
    Q_EMIT aboutToShow(m_pending->session);
    auto raw = std::make_shared<Dataset>(data.raw);
    m_data->openWith(
        shownPath, [raw](JobControl&) { return std::move(*raw); }, options, data.transform);
}

void SessionIo::onDataLoaded(const QString& path) {
    if (m_pending) {
        // Everything was read: only now does the session replace the user's document.
        m_embeddedSource = m_pendingEmbedded;
        m_document->reset(std::move(m_pending->session), m_pending->path, m_pending->modified);
        m_shownModified = m_pending->modified;
        m_shownPath = m_pending->path;
        m_pending.reset();
        m_showing = true;
        return;
    }
    // A data file opened on its own starts a new, untitled session on it.
    m_embeddedSource = false;
    const auto raw = m_data->raw();
    DatasetReference reference;
    reference.path = QFileInfo(path).absoluteFilePath().toStdString();
    reference.n = raw->n;
    reference.d = raw->d;
    reference.features = raw->features;
    reference.read = m_data->choice().spec;
    reference.read.columns.clear();
    Session fresh;
    fresh.data = std::move(reference);
    m_document->reset(std::move(fresh), {}, false);
    describeNewData(path);
}

void SessionIo::describeNewData(const QString& path) {
    const auto raw = m_data->raw();
    const std::string file = path.toStdString();
    const DatasetReadSpec read = m_data->choice().spec;
    m_runner->start<DatasetReference>(
        this, QStringLiteral("session-describe"), tr("Fingerprint %1").arg(QFileInfo(path).fileName()),
        [file, read, raw](JobControl& control) { return describeGuiData(file, read, *raw, &control); },
        [this, raw](const JobOutcome<DatasetReference>& outcome) {
            // A later file or session replaced this data meanwhile: its reference is not ours to set.
            if (outcome.state != JobState::Finished || m_data->raw() != raw) return;
            DatasetReference reference = *outcome.result;
            reference.read.transform = m_data->transform().spec().toStdString();
            reference.read.cofactors = m_data->transform().cofactors;
            m_document->setDataReference(std::move(reference));
        });
}

void SessionIo::onCurrentChanged(bool newRows) {
    if (newRows && m_showing) {
        m_showing = false;
        // After every other view took the new rows (and dropped the old results).
        QTimer::singleShot(0, this, [this] {
            m_opening = false;
            Q_EMIT sessionShown(m_shownPath);
            // Restoring results re-records them; what was read is not a change.
            m_document->setModified(m_shownModified);
        });
        return;
    }
    if (newRows || m_embeddedSource || m_document->session().data.n == 0) return;
    // The transform of the same rows changed: the session reads its data this way from now on.
    DatasetReference reference = m_document->session().data;
    reference.read.transform = m_data->transform().spec().toStdString();
    reference.read.cofactors = m_data->transform().cofactors;
    m_document->setDataReference(std::move(reference));
}

void SessionIo::save(const QString& path, bool embed, std::shared_ptr<const Dataset> current,
                     std::function<void(bool)> done) {
    auto snapshot = std::make_shared<Session>(m_document->session());
    if (!embed && !m_embeddedSource) snapshot->data.embedded.reset();
    const bool addData = embed && !snapshot->data.embedded;
    if (addData && !current) {
        Q_EMIT failed(tr("Could not save session"), tr("There is no data to embed."));
        if (done) done(false);
        return;
    }
    const quint64 revision = m_document->revision();
    const std::string file = path.toStdString();
    m_runner->start<bool>(
        this, QStringLiteral("session-save"), tr("Save session %1").arg(QFileInfo(path).fileName()),
        [snapshot, current, addData, file](JobControl&) {
            if (addData) embedData(snapshot->data, *current);
            writeSession(file, *snapshot);
            return true;
        },
        [this, path, revision, done](const JobOutcome<bool>& outcome) {
            const bool ok = outcome.state == JobState::Finished;
            if (ok) {
                // Work done while the file was written is still unsaved.
                if (m_document->revision() == revision) m_document->markSaved(path);
                Q_EMIT saved(path);
            } else if (outcome.state == JobState::Failed) {
                Q_EMIT failed(tr("Could not save session"), outcome.message);
            }
            if (done) done(ok);
        });
}

QString SessionIo::defaultChooser(const DatasetReference& reference, const QString& reason) const {
    auto* parentWidget = qobject_cast<QWidget*>(parent());
    const QString name = QFileInfo(QString::fromStdString(reference.path)).fileName();
    QMessageBox box(QMessageBox::Question, tr("Locate the data file"),
                    tr("The data file of this session, \u201c%1\u201d, cannot be used.").arg(name), QMessageBox::Cancel,
                    parentWidget);
    box.setInformativeText(reason +
                           tr("\n\nChoose the file: its contents must be the same (SHA-256 %1).")
                               .arg(QString::fromStdString(reference.sha256).left(16) + QStringLiteral("\u2026")));
    QPushButton* locate = box.addButton(tr("Locate\u2026"), QMessageBox::AcceptRole);
    box.setDefaultButton(locate);
    box.exec();
    if (box.clickedButton() != locate) return {};
    return QFileDialog::getOpenFileName(parentWidget, tr("Locate %1").arg(name),
                                        QFileInfo(QString::fromStdString(reference.path)).absolutePath());
}

}  // namespace clusterlens::views
