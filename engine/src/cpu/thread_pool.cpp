#include "cpu/thread_pool.hpp"

namespace clusterlens::cpu {

namespace {
// Yields a worker makes while waiting for the next job before it sleeps on the condition variable.
constexpr int kSpinYields = 256;
}  // namespace

std::size_t defaultThreadCount() {
    const unsigned hardware = std::thread::hardware_concurrency();
    return hardware == 0 ? 1 : hardware;
}

ThreadPool::ThreadPool(std::size_t threads) {
    const std::size_t workers = threads > 1 ? threads - 1 : 0;
    m_workers.reserve(workers);
    for (std::size_t i = 0; i < workers; ++i) m_workers.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& worker : m_workers) worker.join();
}

void ThreadPool::run(std::size_t tasks, const std::function<void(std::size_t)>& task) {
    if (tasks == 0) return;
    if (m_workers.empty() || tasks == 1) {
        for (std::size_t t = 0; t < tasks; ++t) task(t);
        return;
    }
    auto job = std::make_shared<Job>();
    job->task = &task;
    job->count = tasks;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_job = job;
        m_generation.fetch_add(1, std::memory_order_acq_rel);
    }
    m_wake.notify_all();
    work(*job);
    for (int spin = 0; spin < kSpinYields && job->finished.load(std::memory_order_acquire) < tasks; ++spin)
        std::this_thread::yield();
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_done.wait(lock, [&] { return job->finished.load(std::memory_order_acquire) == tasks; });
    }
    if (job->error) std::rethrow_exception(job->error);
}

void ThreadPool::work(Job& job) {
    for (;;) {
        const std::size_t t = job.next.fetch_add(1, std::memory_order_relaxed);
        if (t >= job.count) return;
        if (!job.failed.load(std::memory_order_relaxed)) {
            try {
                (*job.task)(t);
            } catch (...) {
                std::lock_guard<std::mutex> lock(job.errorMutex);
                if (!job.error) job.error = std::current_exception();
                job.failed.store(true, std::memory_order_relaxed);
            }
        }
        if (job.finished.fetch_add(1, std::memory_order_acq_rel) + 1 == job.count) {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_done.notify_all();
        }
    }
}

void ThreadPool::workerLoop() {
    std::uint64_t seen = 0;
    for (;;) {
        for (int spin = 0; spin < kSpinYields && m_generation.load(std::memory_order_acquire) == seen; ++spin)
            std::this_thread::yield();
        std::shared_ptr<Job> job;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation.load(std::memory_order_acquire) != seen; });
            if (m_stop) return;
            seen = m_generation.load(std::memory_order_acquire);
            job = m_job;
        }
        work(*job);
    }
}

}  // namespace clusterlens::cpu
