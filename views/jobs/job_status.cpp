#include "jobs/job_status.hpp"

#include <QCoreApplication>
#include <QLabel>
#include <QProgressBar>

namespace clusterlens::views {

void showJobProgress(const JobRunner& runner, JobId job, QProgressBar* progress, QLabel* status, const QString& what) {
    if (job == 0 || !runner.isRunning(job)) return;
    if (!progress->visibleRegion().isEmpty())
        progress->setValue(static_cast<int>(runner.progress(job) * progress->maximum()));
    if (status && !status->visibleRegion().isEmpty())
        status->setText(QStringLiteral("%1 %2 s").arg(what).arg(runner.elapsedMs(job) / 1000));
}

bool showJobEnd(JobState state, const QString& message, QLabel* status, QProgressBar* progress) {
    switch (state) {
        case JobState::Cancelled:
            status->setText(QCoreApplication::translate("JobStatus", "Cancelled."));
            progress->setValue(0);
            return false;
        case JobState::Failed:
            status->setText(QCoreApplication::translate("JobStatus", "Failed: %1").arg(message));
            return false;
        case JobState::Finished:
            progress->setValue(progress->maximum());
            return true;
        case JobState::Running:
            break;
    }
    return false;
}

}  // namespace clusterlens::views
