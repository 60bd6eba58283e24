#include "progress.hpp"

#include <cstdio>

namespace clusterlens::cli {
namespace {

constexpr auto kFirstLine = std::chrono::seconds(2);
constexpr auto kEvery = std::chrono::seconds(5);

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

ProgressLine::ProgressLine(const Args& args, std::string stage)
    : m_stage(std::move(stage)), m_quiet(args.flag("--quiet")) {
    if (!m_quiet) m_thread = std::thread([this] { watch(); });
}

ProgressLine::~ProgressLine() {
    {
        const std::lock_guard lock(m_mutex);
        m_done = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
    if (m_printed)
        std::fprintf(stderr, "clusterlens-cli: %s: done in %.1f s\n", m_stage.c_str(), secondsSince(m_start));
}

void ProgressLine::watch() {
    std::unique_lock lock(m_mutex);
    auto next = m_start + kFirstLine;
    while (!m_wake.wait_until(lock, next, [this] { return m_done; })) {
        std::fprintf(stderr, "clusterlens-cli: %s: %.0f %% (%.0f s)\n", m_stage.c_str(), 100.0 * m_control.progress(),
                     secondsSince(m_start));
        std::fflush(stderr);
        m_printed = true;
        next += kEvery;
    }
}

}  // namespace clusterlens::cli
