#pragma once
// Internal: the shares of one analysis spread over several GPUs, driven by threads of this process
// (ShardTeam) or by processes (RankGroup over the front end's ProcessGroup). Each share runs the same
// program on its part of the work (SPMD) and meets the others at collective steps, where their
// partial results are combined on the host in share order, so the outcome does not depend on which
// share finished first. In a team of threads a failing share aborts the others: their collectives
// and abort checks then throw TeamAborted, and run() rethrows the first real failure.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "clusterlens/process_group.hpp"

namespace clusterlens::detail {

/// Thrown in a shard whose team was aborted by another shard's failure (never leaves run()).
struct TeamAborted : std::runtime_error {
    TeamAborted() : std::runtime_error("another device's share of the analysis failed") {}
};

/// The shares of one analysis and the collective steps where they meet: one share per thread of this
/// process (ShardTeam) or one per process of a group of processes (RankGroup). The typed steps below
/// all go through exchange(), so every implementation combines in share order.
class ShareGroup {
public:
    virtual ~ShareGroup() = default;

    virtual std::size_t size() const noexcept = 0;
    /// Shares that run in this process (they divide its cores among them).
    virtual std::size_t sharesInThisProcess() const noexcept { return 1; }
    /// Throws TeamAborted once another share failed (a check for long work between collectives).
    virtual void checkAborted() const = 0;

    /// Every shard's `mine` (any length), concatenated in shard order, to every shard. Trivially
    /// copyable elements only. O(total bytes) host memory per shard.
    template <class T>
    std::vector<T> gather(std::size_t shard, const std::vector<T>& mine) {
        return fromBytes<T>(exchange(shard, toBytes(mine), true));
    }

    /// As gather, but only shard 0 receives the concatenation (the others get an empty vector): for
    /// results that shard 0 finishes alone.
    template <class T>
    std::vector<T> gatherToFirst(std::size_t shard, const std::vector<T>& mine) {
        return fromBytes<T>(exchange(shard, toBytes(mine), false));
    }

    /// The element-wise sum of every shard's `mine` (all of one length) to every shard.
    std::vector<std::uint64_t> sum(std::size_t shard, const std::vector<std::uint64_t>& mine) {
        return sumOf(gather(shard, mine), mine.size());
    }

    /// The element-wise sum of every shard's `mine` (all of one length) at shard 0 (the others get an
    /// empty vector); integer sums, so the order of the shards does not matter.
    std::vector<std::uint64_t> sumToFirst(std::size_t shard, const std::vector<std::uint64_t>& mine);

    /// Shard 0's `values` to every shard (the others' argument is ignored).
    template <class T>
    std::vector<T> broadcast(std::size_t shard, const std::vector<T>& values) {
        return gather(shard, shard == 0 ? values : std::vector<T>{});
    }

protected:
    /// Every shard's `bytes` concatenated in shard order, to every shard (or with toAll false to shard
    /// 0 only; the others get nothing). Every shard calls it, in the same sequence of steps.
    virtual std::vector<unsigned char> exchange(std::size_t shard, std::vector<unsigned char> bytes, bool toAll) = 0;

private:
    /// Element-wise sum of the consecutive vectors of `length` in `all`.
    static std::vector<std::uint64_t> sumOf(const std::vector<std::uint64_t>& all, std::size_t length);

    template <class T>
    static std::vector<unsigned char> toBytes(const std::vector<T>& values) {
        std::vector<unsigned char> bytes(values.size() * sizeof(T));
        if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
        return bytes;
    }
    template <class T>
    static std::vector<T> fromBytes(const std::vector<unsigned char>& bytes) {
        std::vector<T> out(bytes.size() / sizeof(T));
        if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
        return out;
    }
};

/// One share per thread of this process, one thread per device.
class ShardTeam final : public ShareGroup {
public:
    explicit ShardTeam(std::size_t shards);

    std::size_t size() const noexcept override { return m_size; }
    std::size_t sharesInThisProcess() const noexcept override { return m_size; }
    void checkAborted() const override;

    /// Runs body(shard) on one thread per shard and waits for all; rethrows the first failure that
    /// is not TeamAborted. Call once per team.
    void run(const std::function<void(std::size_t)>& body);

    /// Wakes every shard waiting in a collective; from now on they throw TeamAborted.
    void abort() noexcept;

protected:
    /// Deposits `bytes`, waits for every shard, returns the deposits concatenated in shard order (to
    /// every shard, or with toAll false to shard 0 only), then waits again so that the slots can be
    /// reused by the next collective.
    std::vector<unsigned char> exchange(std::size_t shard, std::vector<unsigned char> bytes, bool toAll) override;

private:
    /// Waits until every shard arrived; throws TeamAborted when the team is or gets aborted.
    void arriveAndWait();

    std::size_t m_size;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::size_t m_arrived = 0;
    std::uint64_t m_generation = 0;
    bool m_aborted = false;
    std::vector<std::vector<unsigned char>> m_slots;
};

/// One share per process of a ProcessGroup (the shard is the process's rank). A failing process
/// cannot wake the others from here: the front end ends the whole group (MPI_Abort).
class RankGroup final : public ShareGroup {
public:
    explicit RankGroup(ProcessGroup& processes) : m_processes(processes) {}

    std::size_t size() const noexcept override { return static_cast<std::size_t>(m_processes.size()); }
    void checkAborted() const override {}

protected:
    std::vector<unsigned char> exchange(std::size_t, std::vector<unsigned char> bytes, bool toAll) override {
        return m_processes.exchange(std::move(bytes), toAll);
    }

private:
    ProcessGroup& m_processes;
};

}  // namespace clusterlens::detail
