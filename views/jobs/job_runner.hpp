#pragma once
// The application's one asynchronous mechanism. A job is a callable run on a worker thread with a
// shared clusterlens::JobControl (progress + cancel); its immutable, shared result (or the error
// text, or "cancelled") comes back on the GUI thread. Jobs live in named slots ("load",
// "transform", "scatter", ...): starting a job in a slot supersedes the one running there, and a
// generation check drops the superseded job's result when it arrives late.

#include <QElapsedTimer>
#include <QFuture>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <map>
#include <memory>
#include <type_traits>
#include <utility>

#include "clusterlens/job_control.hpp"

namespace clusterlens::views {

/// How often the panels and the Jobs list show a running job's progress, in ms. Each visible change makes
/// Qt compose the whole main window again with its OpenGL views; on software OpenGL (Mesa's llvmpipe)
/// that takes tens of milliseconds of CPU from the cores the job runs on, so progress is shown at 2 Hz.
inline constexpr int kProgressPollMs = 500;

enum class JobState { Running, Finished, Failed, Cancelled };

/// "running", "finished", "failed", "cancelled".
QString jobStateName(JobState state);

/// What a job's owner receives on the GUI thread. `result` is set only when state is Finished;
/// `message` is the engine's error text when state is Failed.
template <class Result>
struct JobOutcome {
    JobState state = JobState::Running;
    std::shared_ptr<const Result> result;
    QString message;
};

using JobId = quint64;

class JobRunner : public QObject {
    Q_OBJECT
public:
    explicit JobRunner(QObject* parent = nullptr);
    /// Cancels every job and waits for the worker threads (an engine call that never checks its
    /// JobControl delays this until it returns).
    ~JobRunner() override;

    /// Runs `work(JobControl&) -> Result` on a worker thread. `onDone(const JobOutcome<Result>&)`
    /// runs later on the GUI thread unless `receiver` was destroyed or the job was superseded by a
    /// newer job in the same slot. Exceptions thrown by `work` become Failed outcomes with their
    /// message; clusterlens::Cancelled becomes a Cancelled outcome.
    template <class Result, class Work, class OnDone>
    JobId start(QObject* receiver, const QString& slot, const QString& name, Work work, OnDone onDone) {
        static_assert(std::is_invocable_r_v<Result, Work&, JobControl&>,
                      "work must be callable as Result(JobControl&)");
        ErasedWork erased = [w = std::move(work)](JobControl& control) mutable {
            return std::shared_ptr<const void>(std::make_shared<const Result>(w(control)));
        };
        Delivery deliver = [cb = std::move(onDone)](const RawOutcome& raw) {
            cb(JobOutcome<Result>{raw.state, std::static_pointer_cast<const Result>(raw.result), raw.message});
        };
        return launch(receiver, slot, name, std::move(erased), std::move(deliver));
    }

    /// Cancels a running job: its JobControl is told to stop and its owner receives the Cancelled
    /// outcome now, whatever the worker still does; a result it produces later is dropped.
    void cancel(JobId id);
    /// Cancels the job running in `slot`, if any.
    void cancelSlot(const QString& slot);
    void cancelAll();

    bool isRunning(JobId id) const;
    /// Progress in [0, 1] reported by a running job's JobControl; 0 for unknown ids.
    double progress(JobId id) const;
    qint64 elapsedMs(JobId id) const;
    int runningCount() const { return static_cast<int>(m_jobs.size()); }
    /// Blocks until every worker thread is idle (tests and shutdown only).
    void waitForWorkers();

Q_SIGNALS:
    void jobStarted(clusterlens::views::JobId id, const QString& name);
    /// Emitted once per job, also for superseded and cancelled jobs. `message` is the error text of
    /// a Failed job, "superseded" for a job replaced in its slot, empty otherwise.
    void jobFinished(clusterlens::views::JobId id, const QString& name, clusterlens::views::JobState state,
                     const QString& message, qint64 elapsedMs);
    /// Emitted just before jobFinished, once per warning the job's engine calls left on its JobControl
    /// (e.g. "density peaks: GPU out of memory (needs 3.0 GiB, 1.0 GiB free): ran on the CPU").
    void jobWarning(clusterlens::views::JobId id, const QString& name, const QString& message);
    /// Emitted every kProgressPollMs while any job runs, never while none does. Everything that shows
    /// progress updates on this one tick, so that the changes of one tick reach the screen in one
    /// composition of the window rather than one per panel.
    void progressTick();

private:
    struct RawOutcome {
        JobState state = JobState::Running;
        std::shared_ptr<const void> result;
        QString message;
    };
    using ErasedWork = std::function<std::shared_ptr<const void>(JobControl&)>;
    using Delivery = std::function<void(const RawOutcome&)>;

    struct Job {
        QString slot;
        QString name;
        QPointer<QObject> receiver;
        bool hasReceiver = false;
        std::shared_ptr<JobControl> control;
        QElapsedTimer timer;
        Delivery deliver;
    };

    JobId launch(QObject* receiver, const QString& slot, const QString& name, ErasedWork work, Delivery deliver);
    static RawOutcome runGuarded(const ErasedWork& work, JobControl& control);
    void complete(JobId id, RawOutcome outcome);
    /// Removes a job, emits jobFinished and, when `deliverToOwner`, hands `outcome` to its owner.
    void finish(JobId id, RawOutcome outcome, bool deliverToOwner);

    QThreadPool m_pool;
    QTimer m_progressTick;
    std::map<JobId, Job> m_jobs;
    std::map<QString, JobId> m_latestInSlot;  // the slot's generation: only this job may deliver
    JobId m_nextId = 1;
};

}  // namespace clusterlens::views

Q_DECLARE_METATYPE(clusterlens::views::JobState)
