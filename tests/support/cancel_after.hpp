#pragma once
// Cancelling a job from another thread while it runs, as the GUI's Cancel does: the job runs on the
// calling thread with a JobControl that a second thread cancels after a delay.

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "clusterlens/errors.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/synthetic.hpp"

namespace clusterlens::test {

/// Data for jobs long enough to cancel: makeCytometryLike without its labels (a CSV of them would read
/// the label column back as a text column, so that the file would not match the data).
inline Dataset unlabelledCytometryLike(std::size_t n, std::size_t d) {
    SyntheticOptions options;
    options.n = n;
    options.d = d;
    Dataset data = makeCytometryLike(options);
    data.labels.clear();
    return data;
}

/// What happened to a job cancelled after a delay.
struct CancelOutcome {
    bool threwCancelled = false;     ///< the job ended by throwing Cancelled
    bool endedBeforeCancel = false;  ///< it returned or threw before cancel() was called
    double msToStop = 0.0;           ///< from cancel() until the job returned or threw
};

/// Runs job(control) and calls control.cancel() from another thread `delay` after the start. Other
/// exceptions propagate (after the cancelling thread has been joined).
inline CancelOutcome cancelAfter(std::chrono::milliseconds delay, const std::function<void(JobControl&)>& job) {
    using Clock = std::chrono::steady_clock;
    JobControl control;
    std::atomic<bool> ended{false};
    std::atomic<Clock::rep> cancelledAt{0};
    std::thread canceller([&] {
        const Clock::time_point until = Clock::now() + delay;
        while (!ended.load() && Clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (ended.load()) return;
        cancelledAt.store(Clock::now().time_since_epoch().count());
        control.cancel();
    });
    CancelOutcome outcome;
    const auto finish = [&] {
        const Clock::time_point end = Clock::now();
        ended.store(true);
        canceller.join();
        const Clock::rep at = cancelledAt.load();
        outcome.endedBeforeCancel = at == 0;
        if (at != 0)
            outcome.msToStop =
                std::chrono::duration<double, std::milli>(end - Clock::time_point(Clock::duration(at))).count();
    };
    try {
        job(control);
    } catch (const Cancelled&) {
        outcome.threwCancelled = true;
    } catch (...) {
        finish();
        throw;
    }
    finish();
    return outcome;
}

}  // namespace clusterlens::test
