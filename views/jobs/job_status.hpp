#pragma once
// How a panel shows the end of a job it started, the same way in every panel.

#include <QString>

#include "jobs/job_runner.hpp"

class QLabel;
class QProgressBar;

namespace clusterlens::views {

/// "Cancelled." (progress back to 0) or "Failed: <message>" on the panel's status line, or a full
/// progress bar when the job finished. Returns true only for Finished: the caller then shows the
/// result (and reports a failure itself when it returns false for Failed).
bool showJobEnd(JobState state, const QString& message, QLabel* status, QProgressBar* progress);

}  // namespace clusterlens::views
