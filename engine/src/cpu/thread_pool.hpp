#pragma once
// A small persistent thread pool for the CPU algorithms: run(tasks, fn) calls fn(0..tasks-1) on the
// workers and the calling thread and returns when all calls are done. Tasks are claimed dynamically,
// so uneven tasks balance themselves. Dispatch costs a few microseconds, which lets loops with one
// parallel step per merge (Prim, nearest-neighbour chain) use it.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace clusterlens::cpu {

/// Threads the CPU algorithms use by default: std::thread::hardware_concurrency(), at least 1.
std::size_t defaultThreadCount();

class ThreadPool {
public:
    /// `threads` counts the calling thread: ThreadPool(1) starts no worker and runs everything inline.
    explicit ThreadPool(std::size_t threads = defaultThreadCount());
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    /// Threads taking part in run(), the caller included.
    std::size_t size() const { return m_workers.size() + 1; }

    /// Calls task(t) for every t in [0, tasks) and waits. The first exception thrown by a task is
    /// rethrown here; tasks not yet started when it was thrown are skipped.
    void run(std::size_t tasks, const std::function<void(std::size_t)>& task);

private:
    struct Job {
        const std::function<void(std::size_t)>* task = nullptr;
        std::size_t count = 0;
        std::atomic<std::size_t> next{0};
        std::atomic<std::size_t> finished{0};
        std::atomic<bool> failed{false};
        std::exception_ptr error;
        std::mutex errorMutex;
    };

    void workerLoop();
    void work(Job& job);

    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    std::shared_ptr<Job> m_job;
    std::atomic<std::uint64_t> m_generation{0};
    bool m_stop = false;
};

/// Splits [0, count) into contiguous chunks of at least `minChunk` items (about four per thread)
/// and calls body(begin, end) for each chunk on the pool; runs inline when one chunk suffices.
template <class Body>
void parallelFor(ThreadPool& pool, std::size_t count, std::size_t minChunk, Body&& body) {
    if (count == 0) return;
    const std::size_t wanted = pool.size() == 1 ? 1 : pool.size() * 4;
    const std::size_t chunk = std::max<std::size_t>(std::max<std::size_t>(minChunk, 1), (count + wanted - 1) / wanted);
    const std::size_t chunks = (count + chunk - 1) / chunk;
    if (chunks == 1) {
        body(std::size_t{0}, count);
        return;
    }
    pool.run(chunks, [&](std::size_t c) { body(c * chunk, std::min(count, (c + 1) * chunk)); });
}

}  // namespace clusterlens::cpu
