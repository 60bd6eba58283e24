#pragma once

#include <chrono>

namespace clusterlens::cli {

/// Wall-clock seconds since construction (for the per-stage `seconds` of --json).
class Stopwatch {
public:
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count(); }

private:
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

}  // namespace clusterlens::cli
