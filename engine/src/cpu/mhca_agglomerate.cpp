#include "mhca_agglomerate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <utility>

#include "mhca_linalg.hpp"
#include "cpu/mhca_rules.hpp"
#include "mhca_runners.hpp"

namespace clusterlens::mhca {
namespace {

constexpr std::size_t kNoRow = std::numeric_limits<std::size_t>::max();
/// Rows of a full nearest-neighbour pass between two cancellation checks: at most kRowBatch, at
/// least kRowBatchMin, else about kPairsPerBatch pairs' worth. At a million clusters a row is a
/// million pairs (~25 ms), so the smallest batch is one row per thread of a two-core machine.
constexpr std::size_t kRowBatch = 256;
constexpr std::size_t kRowBatchMin = 2;
constexpr std::size_t kPairsPerBatch = std::size_t{1} << 20;
/// Most distances evaluated into the flat buffer at once (bounds its memory).
constexpr std::size_t kFlatCap = std::size_t{1} << 22;
constexpr double kNoKey = -std::numeric_limits<double>::infinity();

/// A run of pairs from one cluster to the live clusters at positions [from, to), leaving out `skip`.
struct SegmentTask {
    std::int32_t slot = -1;
    std::size_t from = 0, to = 0, skip = kNoRow, offset = 0;
    std::size_t length() const { return to - from - (skip != kNoRow && skip >= from && skip < to ? 1 : 0); }
    std::size_t position(std::size_t k) const {
        const std::size_t pos = from + k;
        return skip != kNoRow && pos >= skip ? pos + 1 : pos;
    }
};

/// mhclust.c's main loop. mhca keeps, for every pair, key = maxDistX - d (rounded), merges the pair
/// with the largest key (idamax: the first in packed order, i.e. by position of the first cluster,
/// then of the second), reports maxDistX - key as the height, and when a new distance exceeds
/// maxDistX subtracts the (negative) smallest new key from every key and from maxDistX. Rounding of
/// these keys decides near-ties (grid data have many), so they are reproduced: a pair's key is
/// replayed from its distance, the maxDistX when it was computed (the younger cluster's stamp) and the
/// shifts since. Each row (cluster) keeps its best partner among later positions (nearest-neighbour
/// array) and an upper bound of the keys of the partners before that one: a shift rounds keys and can
/// make one of those equal to the best (it would then win the tie), which is exactly when the shifted
/// bound equals the shifted best; only such rows are rescanned.
class Agglomerator {
public:
    Agglomerator(ClusterSet& clusters, std::vector<std::int32_t> live, const AgglomerationParams& params,
                 WorkerPool& pool, ProgressTracker& progress)
        : m_clusters(clusters),
          m_live(std::move(live)),
          m_params(params),
          m_pool(pool),
          m_progress(progress),
          m_nn(clusters.slotCount(), -1),
          m_nnKey(clusters.slotCount(), kNoKey),
          m_nnBefore(clusters.slotCount(), kNoKey),
          m_runners(clusters.slotCount()),
          m_alive(clusters.slotCount(), 0) {
        for (std::int32_t slot : m_live) m_alive[static_cast<std::size_t>(slot)] = 1;
        const std::size_t d = clusters.dim();
        m_cov.resize(d * d);
        m_means.resize(d);
        m_invcov.resize(d * d);
        m_work.resize(d * d);
        for (std::int32_t slot : m_live)
            if (reachesThreshold(clusters.size(slot), static_cast<long long>(params.nFull), params.threshold))
                ++m_fullCount;
        m_switched = m_fullCount == static_cast<std::int64_t>(m_live.size());
    }

    void run(std::vector<Merge>& merges) {
        m_max = allPairs(Extreme::LargestDistance);
        fullNearest();
        for (std::int64_t step = 0; m_live.size() > 1; ++step) {
            m_progress.checkCancelled();
            mergeStep(step, merges);
            m_progress.advance();
        }
    }

private:
    enum class Extreme { LargestDistance, SmallestKey };

    double distance(std::int32_t a, std::int32_t b) const {
        const auto sa = static_cast<std::size_t>(a), sb = static_cast<std::size_t>(b);
        return clusterDistance(m_clusters, m_params.variant, sa, sb, pairMode(m_clusters, sa, sb));
    }

    /// mhca's stored value for a distance d computed at step t.
    double keyOf(double d, std::int64_t t) const {
        std::size_t k = static_cast<std::size_t>(std::lower_bound(m_shiftTimes.begin(), m_shiftTimes.end(), t) -
                                                 m_shiftTimes.begin());
        double key = (k < m_shiftTimes.size() ? m_maxBefore[k] : m_max) - d;
        for (; k < m_shiftTimes.size(); ++k) key = key - m_shiftAmounts[k];
        return key;
    }

    double key(std::int32_t a, std::int32_t b) const {
        const auto sa = static_cast<std::size_t>(a), sb = static_cast<std::size_t>(b);
        return keyOf(distance(a, b), std::max(m_clusters.stamp(sa), m_clusters.stamp(sb)));
    }

    void recordShift(std::int64_t step, double amount) {
        m_shiftTimes.push_back(step);
        m_shiftAmounts.push_back(amount);
        m_maxBefore.push_back(m_max);
        m_max = m_max - amount;
    }

    std::size_t positionOf(std::int32_t slot) const {
        return static_cast<std::size_t>(std::lower_bound(m_live.begin(), m_live.end(), slot) - m_live.begin());
    }

    /// Pairs per parallel chunk, aiming at ~20k flops each.
    std::size_t grainFor(std::int32_t slot) const {
        const double d = static_cast<double>(m_clusters.dim());
        double cost = d * d + d;
        if (m_params.variant == MhcaVariant::Full)
            cost *= static_cast<double>(m_clusters.size(slot)) +
                    static_cast<double>(m_params.nFull) / static_cast<double>(std::max<std::size_t>(1, m_live.size()));
        return static_cast<std::size_t>(std::clamp(20000.0 / cost, 1.0, 4096.0));
    }

    /// Runs body(position) for every live position, in batches with a cancellation check between.
    template <typename Body>
    void forEachRow(Body body) {
        const std::size_t k = m_live.size();
        // A row costs up to k pairs: batches of about kPairsPerBatch pairs keep a cancel within tens
        // of milliseconds at 1M points; chunks of a quarter of a batch per thread keep every thread
        // busy however small the batch.
        const std::size_t batch =
            std::clamp<std::size_t>(kPairsPerBatch / std::max<std::size_t>(k, 1), kRowBatchMin, kRowBatch);
        const std::size_t grain = std::clamp<std::size_t>(batch / (4 * m_pool.threadCount()), 1, 4);
        for (std::size_t start = 0; start < k; start += batch) {
            m_progress.checkCancelled();
            const std::size_t end = std::min(k, start + batch);
            m_pool.parallelFor(end - start, grain, [&](std::size_t b, std::size_t e) {
                for (std::size_t r = b; r < e; ++r) body(start + r);
            });
        }
    }

    /// Over all live pairs: the largest distance (mhca's initial maxDistX), or the smallest key
    /// maxDistX - d computed with the current maxDistX (0 when none is negative).
    double allPairs(Extreme what) {
        std::vector<double> perRow(m_live.size(), 0.0);
        forEachRow([&](std::size_t pos) {
            double extreme = 0.0;
            for (std::size_t j = pos + 1; j < m_live.size(); ++j) {
                const double d = distance(m_live[pos], m_live[j]);
                if (what == Extreme::LargestDistance) {
                    if (d > extreme) extreme = d;
                } else if (m_max - d < extreme) {
                    extreme = m_max - d;
                }
            }
            perRow[pos] = extreme;
        });
        double result = 0.0;
        for (double v : perRow) result = what == Extreme::LargestDistance ? std::max(result, v) : std::min(result, v);
        return result;
    }

    /// Scans a row's keys in position order: the best (first on ties), the largest key before it (the
    /// previous running best) and the runners-up.
    struct RowBest {
        std::int32_t slot = -1;
        double key = kNoKey;
        double before = kNoKey;
        std::int64_t stamp = 0;
        RunnerSet others;
        void offer(std::int32_t other, double value, std::int64_t otherStamp) {
            if (slot < 0 || betterKey(value, key)) {
                before = slot < 0 ? kNoKey : key;
                if (slot >= 0) others.offer(Runner{key, slot, stamp});
                slot = other;
                key = value;
                stamp = otherStamp;
            } else {
                others.offer(Runner{value, other, otherStamp});
            }
        }
    };

    void store(std::int32_t row, const RowBest& best) {
        m_nn[row] = best.slot;
        m_nnKey[row] = best.key;
        m_nnBefore[row] = best.before;
        m_runners.put(row, best.others);
    }

    std::int64_t stampOf(std::int32_t slot) const { return m_clusters.stamp(static_cast<std::size_t>(slot)); }

    /// The runner-up still stands for the partner it was offered for.
    bool current(const Runner& r) const {
        return m_alive[static_cast<std::size_t>(r.slot)] && stampOf(r.slot) == r.stamp;
    }

    /// A row whose best partner died or may lose a tie: its best among the surviving runners-up, the
    /// still valid best (`keep`) and the merged cluster (`fresh`, slot < 0 for none) when that is
    /// strictly better than the bound of all other partners. False: the row needs a rescan.
    bool resolve(std::int32_t row, const Runner& keep, const Runner& fresh) {
        RunnerSet set = m_runners.get(row);
        Runner pool[kRunners + 2];
        int count = 0;
        for (int k = 0; k < set.count; ++k)
            if (current(set.entries[k])) pool[count++] = set.entries[k];
        if (keep.slot >= 0) pool[count++] = keep;
        if (fresh.slot >= 0) pool[count++] = fresh;
        if (count == 0) return false;
        int best = 0;
        for (int k = 1; k < count; ++k)
            if (runnerBefore(pool[k], pool[best])) best = k;
        if (!betterKey(pool[best].key, set.bound)) return false;
        RunnerSet rest;
        rest.bound = set.bound;
        double before = set.bound;
        for (int k = 0; k < count; ++k) {
            if (k == best) continue;
            rest.offer(pool[k]);
            if (betterKey(pool[k].key, before)) before = pool[k].key;
        }
        m_nn[row] = pool[best].slot;
        m_nnKey[row] = pool[best].key;
        m_nnBefore[row] = before;  // an upper bound of the keys before the best, as the shift check needs
        m_runners.put(row, rest);
        ++m_resolved;
        return true;
    }

    /// The best later partner of the row at `position`, on the fly.
    void nearestOfRow(std::size_t position) {
        const std::int32_t slot = m_live[position];
        RowBest best;
        for (std::size_t j = position + 1; j < m_live.size(); ++j)
            best.offer(m_live[j], key(slot, m_live[j]), stampOf(m_live[j]));
        store(slot, best);
    }

    void fullNearest() {
        forEachRow([&](std::size_t pos) { nearestOfRow(pos); });
    }

    /// Evaluates the tasks' distances into m_flat (task.offset is set here).
    void evaluate(std::vector<SegmentTask>& tasks) {
        std::size_t total = 0;
        for (SegmentTask& t : tasks) {
            t.offset = total;
            total += t.length();
        }
        m_flat.resize(total);
        if (total == 0) return;
        m_pool.parallelFor(total, grainFor(tasks.front().slot), [&](std::size_t b, std::size_t e) {
            // Up to kFlatCap full-variant distances of large clusters take seconds: a chunk is ~20k
            // flops, so checking here bounds a cancel by microseconds (the pool rethrows Cancelled).
            m_progress.checkCancelled();
            std::size_t t = static_cast<std::size_t>(
                std::upper_bound(tasks.begin(), tasks.end(), b,
                                 [](std::size_t value, const SegmentTask& task) { return value < task.offset; }) -
                tasks.begin() - 1);
            for (std::size_t idx = b; idx < e; ++idx) {
                while (t + 1 < tasks.size() && idx >= tasks[t + 1].offset) ++t;
                const SegmentTask& task = tasks[t];
                m_flat[idx] = distance(task.slot, m_live[task.position(idx - task.offset)]);
            }
        });
    }

    /// Recomputes the best partner of the rows at the given positions.
    void rescan(const std::vector<std::size_t>& positions) {
        std::vector<SegmentTask> tasks;
        std::size_t pending = 0;
        auto flush = [&] {
            evaluate(tasks);
            for (const SegmentTask& task : tasks) {
                RowBest best;
                for (std::size_t k = 0; k < task.length(); ++k) {
                    const std::int32_t other = m_live[task.position(k)];
                    best.offer(other, keyOf(m_flat[task.offset + k], std::max(stampOf(task.slot), stampOf(other))),
                               stampOf(other));
                }
                store(task.slot, best);
            }
            tasks.clear();
            pending = 0;
        };
        for (std::size_t pos : positions) {
            SegmentTask task;
            task.slot = m_live[pos];
            task.from = pos + 1;
            task.to = m_live.size();
            if (pending > 0 && pending + task.length() > kFlatCap) flush();
            pending += task.length();
            tasks.push_back(task);
        }
        if (!tasks.empty()) flush();
    }

    /// Applies the shift just recorded to every stored key (except the row of `fresh`); returns the
    /// positions whose best could now lose a tie to an earlier partner.
    std::vector<char> shiftStoredKeys(std::int32_t fresh) {
        const double amount = m_shiftAmounts.back();
        std::vector<char> stale(m_live.size(), 0);
        for (std::size_t pos = 0; pos < m_live.size(); ++pos) {
            const std::int32_t s = m_live[pos];
            if (s == fresh || m_nn[s] < 0) continue;
            m_nnKey[s] = m_nnKey[s] - amount;
            if (m_nnBefore[s] != kNoKey) m_nnBefore[s] = m_nnBefore[s] - amount;
            m_runners.shift(s, amount);
            if (m_nnBefore[s] == m_nnKey[s]) stale[pos] = 1;
        }
        return stale;
    }

    /// Row s (before c1) learns its key to the new cluster c1; c2 is gone. Returns false when the row
    /// must be rescanned.
    bool offerNewCluster(std::int32_t s, std::int32_t c1, std::int32_t c2, double value) {
        if (m_nn[s] == c1 || m_nn[s] == c2) {
            // Every other partner's key is at most the old best, and partners tying with it lie
            // beyond c2 (or are flagged by the shift check), so the new cluster wins unless lower.
            if (betterKey(m_nnKey[s], value)) return false;
            m_nn[s] = c1;
            m_nnKey[s] = value;
        } else if (betterKey(value, m_nnKey[s]) || (value == m_nnKey[s] && c1 < m_nn[s])) {
            if (m_nn[s] < c1) m_nnBefore[s] = m_nnKey[s];
            if (m_nn[s] >= 0) m_runners.offer(s, Runner{m_nnKey[s], m_nn[s], stampOf(m_nn[s])});
            m_nn[s] = c1;
            m_nnKey[s] = value;
        } else {
            if (c1 < m_nn[s] && betterKey(value, m_nnBefore[s])) m_nnBefore[s] = value;
            m_runners.offer(s, Runner{value, c1, stampOf(c1)});
        }
        return true;
    }

    /// The merged cluster (slot c1, born at `step`) gets new distances to every other cluster; c2 is
    /// gone. Rows whose best partner was c1 or c2 and that cannot take the new cluster are rescanned.
    void updateAfterMerge(std::int32_t c1, std::int32_t c2, std::int64_t step) {
        const std::size_t k = m_live.size();
        const std::size_t p1 = positionOf(c1);
        std::vector<SegmentTask> row(1);
        row[0].slot = c1;
        row[0].to = k;
        row[0].skip = p1;
        evaluate(row);
        double smallest = 0.0;
        for (double d : m_flat)
            if (m_max - d < smallest) smallest = m_max - d;
        std::vector<char> stale(k, 0);
        if (smallest < 0.0) {
            recordShift(step, smallest);
            stale = shiftStoredKeys(c1);
        }
        auto newKey = [&](std::size_t pos) { return keyOf(m_flat[pos < p1 ? pos : pos - 1], step); };

        RowBest best;
        for (std::size_t pos = p1 + 1; pos < k; ++pos) best.offer(m_live[pos], newKey(pos), stampOf(m_live[pos]));
        store(c1, best);
        for (std::size_t pos = 0; pos < p1; ++pos)
            if (!stale[pos] && !offerNewCluster(m_live[pos], c1, c2, newKey(pos))) stale[pos] = 1;
        for (std::size_t pos = p1 + 1; pos < k; ++pos)
            if (m_nn[m_live[pos]] == c2) stale[pos] = 1;
        std::vector<std::size_t> positions;
        for (std::size_t pos = 0; pos < k; ++pos) {
            if (!stale[pos]) continue;
            const std::int32_t s = m_live[pos];
            const std::int32_t nn = m_nn[s];
            const Runner keep = nn >= 0 && nn != c1 && nn != c2 ? Runner{m_nnKey[s], nn, stampOf(nn)} : Runner{};
            const Runner fresh = pos < p1 ? Runner{newKey(pos), c1, step} : Runner{};
            if (!resolve(s, keep, fresh)) positions.push_back(pos);
        }
        m_rescanned += positions.size();
        rescan(positions);
    }

    std::int32_t bestRow() const {
        std::int32_t best = -1;
        for (std::int32_t slot : m_live) {
            if (m_nn[slot] < 0) continue;
            if (best < 0 || betterKey(m_nnKey[slot], m_nnKey[best])) best = slot;
        }
        return best;
    }

    /// The merged cluster's Σ'^-1 into m_invcov; returns nmf. Updates the count of clusters at the
    /// threshold as mhclust.c does (a cluster of two points gets weight 0 and the identity covariance).
    double shapeOfUnion(std::int32_t c1, std::int32_t c2, double& weight) {
        const std::size_t d = m_clusters.dim();
        const std::int64_t size = m_clusters.size(c1) + m_clusters.size(c2);
        weight = clusterWeight(size, static_cast<long long>(m_params.nFull), m_params.threshold);
        if (size == 2) {
            setIdentity(m_cov.data(), d);
        } else {
            m_rows.resize(static_cast<std::size_t>(size) * d);
            m_clusters.gatherRows(c1, m_rows.data());
            m_clusters.gatherRows(c2, m_rows.data() + static_cast<std::size_t>(m_clusters.size(c1)) * d);
            sampleCovariance(m_rows.data(), static_cast<std::size_t>(size), d, m_cov.data(), m_means.data());
        }
        if (weight == 1.0) {
            const double w1 = m_clusters.weight(c1), w2 = m_clusters.weight(c2);
            if (w1 + w2 == 2.0) {
                --m_fullCount;
            } else if (w1 < 1.0 && w2 < 1.0) {
                ++m_fullCount;
            }
        }
        return clusterShape(m_cov.data(), d, weight, m_params.subthreshold, DeterminantRule::Cholesky, m_invcov.data(),
                            m_work.data());
    }

    void mergeStep(std::int64_t step, std::vector<Merge>& merges) {
        const std::int32_t c1 = bestRow();
        const std::int32_t c2 = m_nn[c1];
        const auto count = static_cast<std::int64_t>(m_live.size());
        Merge merge;
        merge.a = std::min(m_clusters.id(c1), m_clusters.id(c2));
        merge.b = std::max(m_clusters.id(c1), m_clusters.id(c2));
        merge.height = m_max - m_nnKey[c1];
        merge.size = m_clusters.size(c1) + m_clusters.size(c2);
        merges.push_back(merge);

        double weight = 0.0;
        const double nmf = shapeOfUnion(c1, c2, weight);
        m_clusters.mergeInto(c1, c2, m_params.firstNewId + step, m_invcov.data(), nmf, weight);
        // mhclust.c normalises (and, for euclid, uses I) while fewer than count-1 clusters reached
        // the threshold, count being the number of clusters before this merge.
        const bool subthreshold = m_fullCount < count - 1;
        m_clusters.setStamp(c1, step, distanceModeFor(m_params.normalize, subthreshold, m_params.subthreshold));
        m_live.erase(m_live.begin() + static_cast<std::ptrdiff_t>(positionOf(c2)));
        m_nn[c2] = -1;
        m_alive[static_cast<std::size_t>(c2)] = 0;
        m_runners.reset(c2);

        if (m_fullCount == static_cast<std::int64_t>(m_live.size()) && !m_switched) {
            // Every cluster reached the threshold: mhclust.c recomputes all distances, normalised
            // only with `normalize`, and never replaces Σ'^-1 by I again.
            m_switched = true;
            for (std::int32_t slot : m_live) m_clusters.setStamp(slot, step, {m_params.normalize, false});
            const double smallest = allPairs(Extreme::SmallestKey);
            if (smallest < 0.0) recordShift(step, smallest);
            fullNearest();
        } else {
            updateAfterMerge(c1, c2, step);
        }
    }

    ClusterSet& m_clusters;
    std::vector<std::int32_t> m_live;
    AgglomerationParams m_params;
    WorkerPool& m_pool;
    ProgressTracker& m_progress;
    std::vector<std::int32_t> m_nn;
    std::vector<double> m_nnKey;
    std::vector<double> m_nnBefore;  ///< bound of the keys of partners before the best one
    RunnerLists m_runners;
    std::vector<char> m_alive;
    std::size_t m_resolved = 0;   ///< stale rows answered by their runners-up
    std::size_t m_rescanned = 0;  ///< stale rows rescanned
    std::vector<double> m_flat;
    double m_max = 0.0;  ///< mhca's maxDistX
    std::vector<std::int64_t> m_shiftTimes;
    std::vector<double> m_shiftAmounts;  ///< the (negative) smallest new key of each shift
    std::vector<double> m_maxBefore;     ///< maxDistX before each shift
    std::int64_t m_fullCount = 0;
    bool m_switched = false;
    std::vector<double> m_rows, m_cov, m_means, m_invcov, m_work;
};

}  // namespace

void agglomerate(ClusterSet& clusters, std::vector<std::int32_t> liveSlots, const AgglomerationParams& params,
                 WorkerPool& pool, ProgressTracker& progress, std::vector<Merge>& merges) {
    Agglomerator(clusters, std::move(liveSlots), params, pool, progress).run(merges);
}

}  // namespace clusterlens::mhca
