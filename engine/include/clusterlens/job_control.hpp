#pragma once
// Progress and cancellation shared between a running job and whoever watches it.

#include <atomic>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "clusterlens/errors.hpp"

namespace clusterlens {

/// Thread-safe: the worker calls setProgress()/checkCancelled(), the GUI calls cancel()/progress().
/// Algorithms call checkCancelled() at least every ~50 ms of work so a cancel lands within ~200 ms.
class JobControl {
public:
    void cancel() noexcept { m_cancelled.store(true, std::memory_order_relaxed); }
    bool isCancelled() const noexcept { return m_cancelled.load(std::memory_order_relaxed); }
    /// Throws Cancelled if cancel() was called.
    void checkCancelled() const {
        if (isCancelled()) throw Cancelled();
    }
    /// Fraction done in [0, 1] (of the current span, see setProgressSpan).
    void setProgress(double fraction) noexcept {
        const double begin = m_spanBegin.load(std::memory_order_relaxed);
        const double end = m_spanEnd.load(std::memory_order_relaxed);
        m_progress.store(begin + fraction * (end - begin), std::memory_order_relaxed);
    }
    /// Maps the following setProgress(f) calls to begin + f·(end − begin): a job made of several runs
    /// (e.g. one density-peaks run per cutoff of a sweep) shows one rising progress while each run
    /// reports its own 0..1. Sets the progress to `begin`.
    void setProgressSpan(double begin, double end) noexcept {
        m_spanBegin.store(begin, std::memory_order_relaxed);
        m_spanEnd.store(end, std::memory_order_relaxed);
        m_progress.store(begin, std::memory_order_relaxed);
    }
    double progress() const noexcept { return m_progress.load(std::memory_order_relaxed); }
    /// A message for the user that does not stop the job (e.g. "GPU out of memory ...: ran on the
    /// CPU"); whoever watches the job shows it when the job ends.
    void addWarning(std::string message) {
        const std::lock_guard<std::mutex> lock(m_warningsMutex);
        m_warnings.push_back(std::move(message));
    }
    std::vector<std::string> warnings() const {
        const std::lock_guard<std::mutex> lock(m_warningsMutex);
        return m_warnings;
    }

private:
    std::atomic<bool> m_cancelled{false};
    std::atomic<double> m_progress{0.0};
    std::atomic<double> m_spanBegin{0.0};
    std::atomic<double> m_spanEnd{1.0};
    mutable std::mutex m_warningsMutex;
    std::vector<std::string> m_warnings;
};

}  // namespace clusterlens
