#include "mhca_parallel.hpp"

#include <algorithm>

namespace clusterlens::mhca {

WorkerPool::WorkerPool(std::size_t threads) {
    if (threads == 0) threads = std::max<std::size_t>(1, std::thread::hardware_concurrency());
    threads = std::min<std::size_t>(threads, 256);
    for (std::size_t t = 1; t < threads; ++t) m_workers.emplace_back([this] { workerLoop(); });
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& t : m_workers) t.join();
}

void WorkerPool::runChunks() {
    for (;;) {
        std::size_t begin = 0, end = 0;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_next >= m_count || m_error) return;
            begin = m_next;
            end = std::min(m_count, begin + m_grain);
            m_next = end;
        }
        try {
            (*m_body)(begin, end);
        } catch (...) {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (!m_error) m_error = std::current_exception();
        }
    }
}

void WorkerPool::workerLoop() {
    std::size_t seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop) return;
            seen = m_generation;
        }
        runChunks();
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            --m_busy;
        }
        m_done.notify_all();
    }
}

void WorkerPool::parallelFor(std::size_t count, std::size_t grain,
                             const std::function<void(std::size_t, std::size_t)>& body) {
    if (count == 0) return;
    grain = std::max<std::size_t>(1, grain);
    if (m_workers.empty() || count <= grain) {
        body(0, count);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_body = &body;
        m_count = count;
        m_grain = grain;
        m_next = 0;
        m_error = nullptr;
        m_busy = m_workers.size();
        ++m_generation;
    }
    m_wake.notify_all();
    runChunks();
    std::exception_ptr error;
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_done.wait(lock, [&] { return m_busy == 0; });
        m_body = nullptr;
        error = m_error;
        m_error = nullptr;
    }
    if (error) std::rethrow_exception(error);
}

}  // namespace clusterlens::mhca
