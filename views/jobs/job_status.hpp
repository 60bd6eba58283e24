#pragma once
// How a panel shows the end of a job it started, the same way in every panel.

#include <QString>

#include <functional>

#include "jobs/job_runner.hpp"

class QLabel;
class QProgressBar;

namespace clusterlens::views {

/// "Cancelled." (progress back to 0) or "Failed: <message>" on the panel's status line, or a full
/// progress bar when the job finished. Returns true only for Finished: the caller then shows the
/// result (and reports a failure itself when it returns false for Failed).
bool showJobEnd(JobState state, const QString& message, QLabel* status, QProgressBar* progress);

/// The same for a job's outcome; a failure also goes to `failed` (the panel's own signal).
template <class Result>
bool showJobEnd(const JobOutcome<Result>& outcome, QLabel* status, QProgressBar* progress,
                const std::function<void(const QString&)>& failed) {
    const bool finished = showJobEnd(outcome.state, outcome.message, status, progress);
    if (outcome.state == JobState::Failed) failed(outcome.message);
    return finished;
}

}  // namespace clusterlens::views
