#include "jobs/job_runner.hpp"

#include <memory>

#include <QMetaType>
#include <QThread>

#include <algorithm>
#include <exception>
#include <new>

#include "clusterlens/errors.hpp"

namespace clusterlens::views {

QString jobStateName(JobState state) {
    switch (state) {
        case JobState::Running:
            return QStringLiteral("running");
        case JobState::Finished:
            return QStringLiteral("finished");
        case JobState::Failed:
            return QStringLiteral("failed");
        case JobState::Cancelled:
            return QStringLiteral("cancelled");
    }
    return {};
}

JobRunner::JobRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<clusterlens::views::JobState>();
    qRegisterMetaType<clusterlens::views::JobId>("clusterlens::views::JobId");
    // Engine algorithms parallelise internally; a few workers suffice to keep a slow reader
    // that ignores cancel from blocking the next job.
    m_pool.setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
    m_progressTick.setInterval(kProgressPollMs);
    connect(&m_progressTick, &QTimer::timeout, this, &JobRunner::progressTick);
}

JobRunner::~JobRunner() {
    for (auto& [id, job] : m_jobs) job.control->cancel();
    m_jobs.clear();
    m_pool.waitForDone();
}

JobId JobRunner::launch(QObject* receiver, const QString& slot, const QString& name, ErasedWork work,
                        Delivery deliver) {
    cancelSlot(slot);
    const JobId id = m_nextId++;
    Job job;
    job.slot = slot;
    job.name = name;
    job.receiver = receiver;
    job.hasReceiver = receiver != nullptr;
    job.control = std::make_shared<JobControl>();
    job.timer.start();
    job.deliver = std::move(deliver);
    auto control = job.control;
    m_jobs.emplace(id, std::move(job));
    m_latestInSlot[slot] = id;
    if (!m_progressTick.isActive()) m_progressTick.start();
    Q_EMIT jobStarted(id, name);

    QtConcurrent::run(&m_pool, [control, w = std::move(work)] {
        return runGuarded(w, *control);
    }).then(this, [this, id](RawOutcome outcome) {
        // Qt 6.4 runs the continuation at once when the work finished before then() attached it,
        // i.e. inside start(); queue the delivery so results always arrive from the event loop.
        auto shared = std::make_shared<RawOutcome>(std::move(outcome));
        QMetaObject::invokeMethod(
            this, [this, id, shared] { complete(id, std::move(*shared)); }, Qt::QueuedConnection);
    });
    return id;
}

JobRunner::RawOutcome JobRunner::runGuarded(const ErasedWork& work, JobControl& control) {
    RawOutcome outcome;
    try {
        control.checkCancelled();
        outcome.result = work(control);
        outcome.state = JobState::Finished;
        control.setProgress(1.0);
    } catch (const Cancelled&) {
        outcome.state = JobState::Cancelled;
    } catch (const std::bad_alloc&) {
        outcome.state = JobState::Failed;
        outcome.message = QStringLiteral("Not enough memory for this job.");
    } catch (const std::exception& error) {
        outcome.state = JobState::Failed;
        outcome.message = QString::fromStdString(error.what());
    } catch (...) {
        outcome.state = JobState::Failed;
        outcome.message = QStringLiteral("The job failed with an unknown error.");
    }
    return outcome;
}

void JobRunner::complete(JobId id, RawOutcome outcome) {
    // A job cancelled or superseded earlier was already reported; its late result is dropped.
    if (m_jobs.find(id) == m_jobs.end()) return;
    finish(id, std::move(outcome), true);
}

void JobRunner::finish(JobId id, RawOutcome outcome, bool deliverToOwner) {
    auto it = m_jobs.find(id);
    if (it == m_jobs.end()) return;
    Job job = std::move(it->second);
    m_jobs.erase(it);
    if (m_jobs.empty()) m_progressTick.stop();
    const auto latest = m_latestInSlot.find(job.slot);
    const bool current = latest != m_latestInSlot.end() && latest->second == id;
    if (current) m_latestInSlot.erase(latest);
    const qint64 elapsed = job.timer.elapsed();
    if (deliverToOwner && current && (!job.hasReceiver || job.receiver)) job.deliver(outcome);
    for (const std::string& warning : job.control->warnings())
        Q_EMIT jobWarning(id, job.name, QString::fromStdString(warning));
    Q_EMIT jobFinished(id, job.name, outcome.state, outcome.message, elapsed);
}

void JobRunner::cancel(JobId id) {
    auto it = m_jobs.find(id);
    if (it == m_jobs.end()) return;
    it->second.control->cancel();
    finish(id, RawOutcome{JobState::Cancelled, nullptr, QString()}, true);
}

void JobRunner::cancelSlot(const QString& slot) {
    const auto latest = m_latestInSlot.find(slot);
    if (latest == m_latestInSlot.end()) return;
    const JobId id = latest->second;
    m_latestInSlot.erase(latest);
    auto it = m_jobs.find(id);
    if (it == m_jobs.end()) return;
    // Superseded: the owner is about to start its replacement, so it gets no outcome.
    it->second.control->cancel();
    finish(id, RawOutcome{JobState::Cancelled, nullptr, QStringLiteral("superseded")}, false);
}

void JobRunner::cancelAll() {
    std::vector<JobId> ids;
    ids.reserve(m_jobs.size());
    for (const auto& entry : m_jobs) ids.push_back(entry.first);
    for (JobId id : ids) cancel(id);
}

bool JobRunner::isRunning(JobId id) const {
    return m_jobs.find(id) != m_jobs.end();
}

double JobRunner::progress(JobId id) const {
    auto it = m_jobs.find(id);
    return it == m_jobs.end() ? 0.0 : it->second.control->progress();
}

qint64 JobRunner::elapsedMs(JobId id) const {
    auto it = m_jobs.find(id);
    return it == m_jobs.end() ? 0 : it->second.timer.elapsed();
}

void JobRunner::waitForWorkers() {
    m_pool.waitForDone();
}

}  // namespace clusterlens::views
