#include "share_group.hpp"

#include <algorithm>
#include <thread>

namespace clusterlens::detail {

ShardTeam::ShardTeam(std::size_t shards) : m_size(std::max<std::size_t>(shards, 1)), m_slots(m_size) {}

void ShardTeam::run(const std::function<void(std::size_t)>& body) {
    std::vector<std::exception_ptr> failures(m_size);
    {
        std::vector<std::jthread> threads;
        threads.reserve(m_size);
        for (std::size_t s = 0; s < m_size; ++s)
            threads.emplace_back([&, s] {
                try {
                    body(s);
                } catch (const TeamAborted&) {
                    // Another shard failed first: its exception is the one to report.
                } catch (...) {
                    failures[s] = std::current_exception();
                    abort();
                }
            });
    }
    for (const std::exception_ptr& failure : failures)
        if (failure) std::rethrow_exception(failure);
}

void ShardTeam::abort() noexcept {
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_aborted = true;
    }
    m_changed.notify_all();
}

void ShardTeam::checkAborted() const {
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (m_aborted) throw TeamAborted();
}

void ShardTeam::arriveAndWait() {
    std::unique_lock<std::mutex> lock(m_mutex);
    if (m_aborted) throw TeamAborted();
    const std::uint64_t generation = m_generation;
    if (++m_arrived == m_size) {
        m_arrived = 0;
        ++m_generation;
        lock.unlock();
        m_changed.notify_all();
        return;
    }
    m_changed.wait(lock, [&] { return m_aborted || m_generation != generation; });
    if (m_generation == generation) throw TeamAborted();
}

std::vector<unsigned char> ShardTeam::exchange(std::size_t shard, std::vector<unsigned char> bytes, bool toAll) {
    if (m_size == 1) return bytes;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_slots[shard] = std::move(bytes);
    }
    arriveAndWait();
    std::vector<unsigned char> all;
    if (toAll || shard == 0) {
        // The slots stay unchanged until the second barrier; the lock orders these reads after the
        // other shards' deposits.
        const std::lock_guard<std::mutex> lock(m_mutex);
        std::size_t total = 0;
        for (const auto& slot : m_slots) total += slot.size();
        all.reserve(total);
        for (const auto& slot : m_slots) all.insert(all.end(), slot.begin(), slot.end());
    }
    arriveAndWait();  // every shard has read the slots before any deposits again
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        std::vector<unsigned char>().swap(m_slots[shard]);
    }
    return all;
}

std::vector<std::uint64_t> ShareGroup::sumOf(const std::vector<std::uint64_t>& all, std::size_t length) {
    std::vector<std::uint64_t> out(length, 0);
    if (length == 0) return out;
    for (std::size_t at = 0; at + length <= all.size(); at += length)
        for (std::size_t i = 0; i < length; ++i) out[i] += all[at + i];
    return out;
}

std::vector<std::uint64_t> ShareGroup::sumToFirst(std::size_t shard, const std::vector<std::uint64_t>& mine) {
    const std::vector<std::uint64_t> all = gatherToFirst(shard, mine);
    if (shard != 0) return {};
    return sumOf(all, mine.size());
}

}  // namespace clusterlens::detail
