#pragma once
// How a panel shows the progress and the end of a job it started, the same way in every panel.

#include <QString>

#include <functional>

#include "jobs/job_runner.hpp"

class QLabel;
class QProgressBar;

namespace clusterlens::views {

/// A running job's progress on its panel: the bar, and on `status` (may be null) `what` followed by the
/// whole seconds elapsed ("Clustering… 12 s"), so that the text changes at most once a second. Does
/// nothing unless `job` is running. A bar or label that is not on screen (its dock behind another tab)
/// is left alone: Qt would compose the whole window again for it all the same; the next call after it
/// comes to the front shows the progress.
void showJobProgress(const JobRunner& runner, JobId job, QProgressBar* progress, QLabel* status, const QString& what);

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
