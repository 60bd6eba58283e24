#include "jobs/jobs_model.hpp"

#include "jobs/job_status.hpp"

namespace clusterlens::views {

QString formatElapsed(qint64 ms) {
    if (ms < 10'000) return QStringLiteral("%1 s").arg(static_cast<double>(ms) / 1000.0, 0, 'f', 1);
    const qint64 seconds = ms / 1000;
    if (seconds < 60) return QStringLiteral("%1 s").arg(seconds);
    return QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

JobsModel::JobsModel(JobRunner* runner, QObject* parent) : QAbstractListModel(parent), m_runner(runner) {
    connect(runner, &JobRunner::progressTick, this, &JobsModel::poll);
    connect(runner, &JobRunner::jobStarted, this, &JobsModel::onStarted);
    connect(runner, &JobRunner::jobFinished, this, &JobsModel::onFinished);
}

int JobsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

QVariant JobsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return displayText(row);
        case Qt::ToolTipRole:
            return row.message.isEmpty() ? displayText(row) : row.message;
        case NameRole:
            return row.name;
        case ProgressRole:
            return row.progress;
        case StateRole:
            return static_cast<int>(row.state);
        case ElapsedRole:
            return row.elapsedMs;
        case MessageRole:
            return row.message;
        case IdRole:
            return row.id;
        default:
            return {};
    }
}

QHash<int, QByteArray> JobsModel::roleNames() const {
    auto names = QAbstractListModel::roleNames();
    names.insert(NameRole, "name");
    names.insert(ProgressRole, "progress");
    names.insert(StateRole, "state");
    names.insert(ElapsedRole, "elapsed");
    names.insert(MessageRole, "message");
    names.insert(IdRole, "jobId");
    return names;
}

QString JobsModel::displayText(const Row& row) const {
    if (row.state == JobState::Running)
        return QStringLiteral("%1 — %2 %, %3")
            .arg(row.name)
            .arg(qRound(row.progress * 100.0))
            .arg(formatElapsed(row.elapsedMs / 1000 * 1000));  // whole seconds: one change a second
    return QStringLiteral("%1 — %2 after %3").arg(row.name, jobStateName(row.state), formatElapsed(row.elapsedMs));
}

int JobsModel::rowOf(JobId id) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].id == id) return static_cast<int>(i);
    return -1;
}

void JobsModel::onStarted(JobId id, const QString& name) {
    beginInsertRows(QModelIndex(), 0, 0);
    Row row;
    row.id = id;
    row.name = name;
    m_rows.insert(m_rows.begin(), row);
    endInsertRows();
}

void JobsModel::onFinished(JobId id, const QString&, JobState state, const QString& message, qint64 elapsedMs) {
    const int r = rowOf(id);
    if (r < 0) return;
    Row& row = m_rows[static_cast<std::size_t>(r)];
    row.state = state;
    row.message = message;
    row.elapsedMs = elapsedMs;
    if (state == JobState::Finished) row.progress = 1.0;
    const QModelIndex changed = index(r);
    Q_EMIT dataChanged(changed, changed);
    trimFinished();
}

void JobsModel::poll() {
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        Row& row = m_rows[i];
        if (row.state != JobState::Running) continue;
        row.progress = m_runner->progress(row.id);
        row.elapsedMs = m_runner->elapsedMs(row.id);
        const QModelIndex changed = index(static_cast<int>(i));
        Q_EMIT dataChanged(changed, changed, {Qt::DisplayRole, Qt::ToolTipRole, ProgressRole, ElapsedRole});
    }
}

void JobsModel::trimFinished() {
    int finished = 0;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].state == JobState::Running || ++finished <= maxFinishedRows) continue;
        const int r = static_cast<int>(i);
        beginRemoveRows(QModelIndex(), r, r);
        m_rows.erase(m_rows.begin() + r);
        endRemoveRows();
        --i;
    }
}

void JobsModel::clearFinished() {
    for (int r = static_cast<int>(m_rows.size()) - 1; r >= 0; --r) {
        if (m_rows[static_cast<std::size_t>(r)].state == JobState::Running) continue;
        beginRemoveRows(QModelIndex(), r, r);
        m_rows.erase(m_rows.begin() + r);
        endRemoveRows();
    }
}

}  // namespace clusterlens::views
