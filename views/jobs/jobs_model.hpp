#pragma once
// List model of the jobs of a JobRunner, newest first: name, progress, state and elapsed time.
// Progress of running jobs is polled from their JobControl on the runner's progress tick (workers
// never signal).

#include <QAbstractListModel>
#include <QElapsedTimer>

#include <vector>

#include "jobs/job_runner.hpp"

namespace clusterlens::views {

class JobsModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        NameRole = Qt::UserRole + 1,
        ProgressRole,  ///< double in [0, 1]
        StateRole,     ///< int(JobState)
        ElapsedRole,   ///< qint64 milliseconds
        MessageRole,   ///< error text of a failed job
        IdRole,        ///< JobId
    };

    explicit JobsModel(JobRunner* runner, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Removes every job that is no longer running.
    void clearFinished();
    /// Finished jobs kept for display before the oldest are dropped.
    static constexpr int maxFinishedRows = 50;

private:
    struct Row {
        JobId id = 0;
        QString name;
        JobState state = JobState::Running;
        double progress = 0.0;
        qint64 elapsedMs = 0;
        QString message;
    };

    void onStarted(JobId id, const QString& name);
    void onFinished(JobId id, const QString& name, JobState state, const QString& message, qint64 elapsedMs);
    void poll();
    void trimFinished();
    int rowOf(JobId id) const;
    QString displayText(const Row& row) const;

    JobRunner* m_runner;
    std::vector<Row> m_rows;
};

/// "0.3 s", "12 s", "3 min 05 s".
QString formatElapsed(qint64 ms);

}  // namespace clusterlens::views
