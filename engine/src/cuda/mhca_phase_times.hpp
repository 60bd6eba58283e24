#pragma once
// The host side of MhcaProbe: the wall time of the phases of an MHCA run (or of one of its parts),
// and text lines for its report. Host code only; costs nothing without a timed probe.

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "clusterlens/hca/mhca_probe.hpp"

namespace clusterlens::cuda::mhca {

/// Appends printf-style text to the probe's report.
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
inline void
appendReport(MhcaProbe& probe, const char* format, ...) {
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    const int length = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    if (length > 0) {
        std::string text(static_cast<std::size_t>(length) + 1, '\0');
        std::vsnprintf(text.data(), text.size(), format, args);
        text.pop_back();
        probe.report += text;
    }
    va_end(args);
}

/// Host wall time of the phases of `run`, into the probe (phases and one report line) when the object
/// goes out of scope; on only with a probe whose timeStages is set.
class PhaseTimes {
public:
    PhaseTimes(const char* run, MhcaProbe* probe)
        : m_probe(probe != nullptr && probe->timeStages ? probe : nullptr), m_run(run), m_last(Clock::now()) {}
    ~PhaseTimes() {
        if (m_probe) appendReport(*m_probe, "[mhca profile] %s phases (s):%s\n", m_run, m_text.c_str());
    }
    PhaseTimes(const PhaseTimes&) = delete;
    PhaseTimes& operator=(const PhaseTimes&) = delete;

    bool on() const { return m_probe != nullptr; }

    /// Ends the phase that started at the last mark (or at construction).
    void mark(const char* phase) {
        if (!m_probe) return;
        const Clock::time_point now = Clock::now();
        const double seconds = std::chrono::duration<double>(now - m_last).count();
        m_probe->phases.push_back(MhcaPhaseTime{std::string(m_run) + ": " + phase, seconds});
        char line[96];
        std::snprintf(line, sizeof(line), " %s %.3f;", phase, seconds);
        m_text += line;
        m_last = now;
    }

private:
    using Clock = std::chrono::steady_clock;
    MhcaProbe* m_probe;
    const char* m_run;
    Clock::time_point m_last;
    std::string m_text;
};

}  // namespace clusterlens::cuda::mhca
