#pragma once
// A small fixed pool of std::threads for MHCA's independent distance evaluations. The calling thread
// takes part, so a pool of one thread runs everything inline.

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace clusterlens::mhca {

class WorkerPool {
public:
    /// threads: total number of threads including the caller (0 = hardware concurrency).
    explicit WorkerPool(std::size_t threads = 0);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    std::size_t threadCount() const { return m_workers.size() + 1; }

    /// Calls body(begin, end) on disjoint chunks of [0, count) of at most `grain` items, spread over
    /// the pool; returns when all are done. An exception thrown by a chunk is rethrown here.
    void parallelFor(std::size_t count, std::size_t grain, const std::function<void(std::size_t, std::size_t)>& body);

private:
    void workerLoop();
    void runChunks();

    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_done;
    std::size_t m_generation = 0;
    std::size_t m_busy = 0;
    bool m_stop = false;
    const std::function<void(std::size_t, std::size_t)>* m_body = nullptr;
    std::size_t m_count = 0, m_grain = 1, m_next = 0;
    std::exception_ptr m_error;
};

}  // namespace clusterlens::mhca
