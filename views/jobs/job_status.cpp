#include "jobs/job_status.hpp"

#include <QCoreApplication>
#include <QLabel>
#include <QProgressBar>

namespace clusterlens::views {

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
