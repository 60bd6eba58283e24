#pragma once
// With CLUSTERLENS_MHCA_PROFILE set, the host wall time of the phases of an MHCA run (or of one of
// its parts), printed when the object goes out of scope. Host code only; costs nothing without the
// variable.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace clusterlens::cuda::mhca {

class PhaseTimes {
public:
    explicit PhaseTimes(const char* run)
        : m_on(std::getenv("CLUSTERLENS_MHCA_PROFILE") != nullptr), m_run(run), m_last(Clock::now()) {}
    ~PhaseTimes() {
        if (m_on) std::fprintf(stderr, "[mhca profile] %s phases (s):%s\n", m_run, m_text.c_str());
    }
    PhaseTimes(const PhaseTimes&) = delete;
    PhaseTimes& operator=(const PhaseTimes&) = delete;

    bool on() const { return m_on; }

    /// Ends the phase that started at the last mark (or at construction).
    void mark(const char* phase) {
        if (!m_on) return;
        const Clock::time_point now = Clock::now();
        char line[96];
        std::snprintf(line, sizeof(line), " %s %.3f;", phase, std::chrono::duration<double>(now - m_last).count());
        m_text += line;
        m_last = now;
    }

private:
    using Clock = std::chrono::steady_clock;
    bool m_on;
    const char* m_run;
    Clock::time_point m_last;
    std::string m_text;
};

}  // namespace clusterlens::cuda::mhca
