#pragma once
// Progress of long CLI work on stderr: a silent command looks hung to someone who waited 10 minutes.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "args.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens::cli {

/// While alive, prints "clusterlens-cli: STAGE: 42 % (15 s)" to stderr every 5 s once the work has run
/// for 2 s (short work prints nothing), and a last line with the total time when it ends. Silent with
/// --quiet. Pass control() to the engine call, which reports its fraction done through it.
class ProgressLine {
public:
    ProgressLine(const Args& args, std::string stage);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    JobControl* control() { return &m_control; }

private:
    void watch();

    JobControl m_control;
    std::string m_stage;
    bool m_quiet;
    bool m_printed = false;
    bool m_done = false;
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::thread m_thread;
};

}  // namespace clusterlens::cli
