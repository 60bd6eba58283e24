#pragma once
// Runner-up partners of the rows of the nearest-neighbour array (mhca_agglomerate.cpp).
//
// A row keeps, besides its best later partner, up to kRunners next-best partners with their keys and
// an upper bound of the keys of every other live later partner. Pair distances never change (a merge
// makes a new cluster; the old pairs die with it), and a shift rounds every key of a group the same
// monotone way, so when the best partner dies the next best is the best surviving runner-up as long
// as it is strictly better than the bound; only otherwise is the row rescanned over all clusters.
// A slot reused by the merged cluster invalidates the old entries through the birth stamp.
// Memory: slots · (kRunners · 24 + 9) bytes, the runners' pages touched only as rows keep runners.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <vector>

namespace clusterlens::mhca {

/// Runner-up partners kept per row.
constexpr int kRunners = 8;

/// mhca's key order: a is a nearer pair than b; NaN is worse than everything (BLAS idamax).
inline bool betterKey(double a, double b) {
    if (std::isnan(b)) return !std::isnan(a);
    return a > b;
}

/// A partner of a row: its key, slot (positions order as slots) and birth stamp when offered.
struct Runner {
    double key = -std::numeric_limits<double>::infinity();
    std::int32_t slot = -1;
    std::int64_t stamp = 0;
};

/// Candidate order of a row: the larger key, then the earlier position (mhca's first-wins scans).
inline bool runnerBefore(const Runner& x, const Runner& y) {
    if (betterKey(x.key, y.key)) return true;
    if (betterKey(y.key, x.key)) return false;
    return x.slot < y.slot;
}

/// A sorted set of at most kRunners runners and the bound of the partners it dropped.
struct RunnerSet {
    Runner entries[kRunners];
    int count = 0;
    double bound = -std::numeric_limits<double>::infinity();

    /// Keeps r when it is among the kRunners first; whatever is dropped raises the bound.
    void offer(const Runner& r) {
        if (!betterKey(r.key, bound)) return;  // the bound already covers it
        int at = count;
        while (at > 0 && runnerBefore(r, entries[at - 1])) --at;
        if (at == kRunners) {
            bound = r.key;
            return;
        }
        if (count == kRunners) {
            bound = betterKey(entries[kRunners - 1].key, bound) ? entries[kRunners - 1].key : bound;
            --count;
        }
        for (int k = count; k > at; --k) entries[k] = entries[k - 1];
        entries[at] = r;
        ++count;
    }
};

/// The runner sets of all slots.
class RunnerLists {
public:
    /// The entries are left uninitialised (only the first count of a row are ever read): at a million
    /// slots initialising them took a tenth of a second that no cancel could interrupt.
    explicit RunnerLists(std::size_t slots)
        : m_entries(static_cast<Runner*>(std::malloc(std::max<std::size_t>(1, slots * kRunners) * sizeof(Runner)))),
          m_count(slots, 0),
          m_bound(slots, kNone) {
        if (!m_entries) throw std::bad_alloc();
    }

    void reset(std::int32_t row) {
        m_count[static_cast<std::size_t>(row)] = 0;
        m_bound[static_cast<std::size_t>(row)] = kNone;
    }

    RunnerSet get(std::int32_t row) const {
        RunnerSet set;
        const auto r = static_cast<std::size_t>(row);
        set.count = m_count[r];
        set.bound = m_bound[r];
        for (int k = 0; k < set.count; ++k) set.entries[k] = m_entries[r * kRunners + static_cast<std::size_t>(k)];
        return set;
    }

    void put(std::int32_t row, const RunnerSet& set) {
        const auto r = static_cast<std::size_t>(row);
        m_count[r] = static_cast<std::uint8_t>(set.count);
        m_bound[r] = set.bound;
        for (int k = 0; k < set.count; ++k) m_entries[r * kRunners + static_cast<std::size_t>(k)] = set.entries[k];
    }

    /// Offers a partner to a row; the common case, a key the bound covers, touches nothing else.
    void offer(std::int32_t row, const Runner& r) {
        if (!betterKey(r.key, m_bound[static_cast<std::size_t>(row)])) return;
        RunnerSet set = get(row);
        set.offer(r);
        put(row, set);
    }

    /// A shift of every key of the row, rounded as mhca rounds its stored keys.
    void shift(std::int32_t row, double amount) {
        const auto r = static_cast<std::size_t>(row);
        for (int k = 0; k < m_count[r]; ++k) {
            double& key = m_entries[r * kRunners + static_cast<std::size_t>(k)].key;
            key = key - amount;
        }
        if (m_bound[r] != kNone) m_bound[r] = m_bound[r] - amount;
    }

private:
    static constexpr double kNone = -std::numeric_limits<double>::infinity();
    struct Free {
        void operator()(Runner* p) const { std::free(p); }
    };
    std::unique_ptr<Runner[], Free> m_entries;  ///< kRunners per slot; Runner is an implicit-lifetime aggregate
    std::vector<std::uint8_t> m_count;
    std::vector<double> m_bound;
};

}  // namespace clusterlens::mhca
