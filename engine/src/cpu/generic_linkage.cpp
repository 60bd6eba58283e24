// Generic agglomerative clustering with a priority queue of nearest-neighbour candidates, for the
// non-reducible linkages centroid and median.

#include <algorithm>
#include <numeric>

#include "clusterlens/errors.hpp"
#include "cpu/classic_linkage_detail.hpp"

namespace clusterlens::cpu {

namespace {

// Binary min-heap over the keys 0..m-1 with changeable values; children of slot i are 2i+1, 2i+2.
// Elements move only past strictly larger values, which fixes which key surfaces among equal values
// (the same rule as scipy's _structures.pxi Heap, so ties resolve the same way).
class IndexedMinHeap {
public:
    explicit IndexedMinHeap(const std::vector<double>& values)
        : m_values(values), m_keyAt(values.size()), m_slotOf(values.size()), m_size(values.size()) {
        std::iota(m_keyAt.begin(), m_keyAt.end(), std::uint32_t{0});
        std::iota(m_slotOf.begin(), m_slotOf.end(), std::uint32_t{0});
        for (std::size_t i = m_size / 2; i-- > 0;) siftDown(i);
    }
    std::uint32_t minKey() const { return m_keyAt[0]; }
    double minValue() const { return m_values[0]; }
    void removeMin() {
        swapSlots(0, m_size - 1);
        --m_size;
        siftDown(0);
    }
    void changeValue(std::uint32_t key, double value) {
        const std::size_t slot = m_slotOf[key];
        const double old = m_values[slot];
        m_values[slot] = value;
        if (value < old)
            siftUp(slot);
        else
            siftDown(slot);
    }

private:
    void siftUp(std::size_t slot) {
        while (slot > 0) {
            const std::size_t parent = (slot - 1) / 2;
            if (!(m_values[parent] > m_values[slot])) break;
            swapSlots(slot, parent);
            slot = parent;
        }
    }
    void siftDown(std::size_t slot) {
        for (std::size_t child = 2 * slot + 1; child < m_size; child = 2 * slot + 1) {
            if (child + 1 < m_size && m_values[child + 1] < m_values[child]) ++child;
            if (!(m_values[slot] > m_values[child])) break;
            swapSlots(slot, child);
            slot = child;
        }
    }
    void swapSlots(std::size_t a, std::size_t b) {
        std::swap(m_values[a], m_values[b]);
        std::swap(m_keyAt[a], m_keyAt[b]);
        m_slotOf[m_keyAt[a]] = static_cast<std::uint32_t>(a);
        m_slotOf[m_keyAt[b]] = static_cast<std::uint32_t>(b);
    }

    std::vector<double> m_values;
    std::vector<std::uint32_t> m_keyAt;
    std::vector<std::uint32_t> m_slotOf;
    std::size_t m_size;
};

// After x and y merged into slot y: Lance–Williams update of column y over active positions
// [begin, end), neighbour candidates that pointed at x now point at y, and the slots z < y whose
// lower bound the new distance undercuts are appended (ascending) to `improved`.
template <class Update>
void updateRange(CondensedMatrix& distances, const ActiveClusters& active, const std::vector<double>& sizes,
                 std::vector<std::uint32_t>& neighbor, const std::vector<double>& minDist, std::uint32_t x,
                 std::uint32_t y, double dxy, double nx, double ny, std::size_t begin, std::size_t end,
                 std::vector<std::uint32_t>& improved) {
    const std::uint32_t* ids = active.ids();
    for (std::size_t p = begin; p < end; ++p) {
        if (p + kPrefetchAhead < end) {
            distances.prefetch(ids[p + kPrefetchAhead], x);
            distances.prefetch(ids[p + kPrefetchAhead], y);
        }
        const std::uint32_t z = ids[p];
        if (z == y) continue;
        double& dzy = distances.at(z, y);
        dzy = Update::apply(distances.at(z, x), dzy, dxy, nx, ny, sizes[z]);
        if (z < x && neighbor[z] == x) neighbor[z] = y;
        if (z < y && dzy < minDist[z]) improved.push_back(z);
    }
}

// Generic clustering algorithm ("Generic_linkage" of Müllner 2011 "Modern hierarchical,
// agglomerative clustering algorithms", fastcluster's generic_linkage), in the form of scipy's
// fast_linkage:
//   input     the condensed Euclidean distance matrix of n points (overwritten by cluster distances);
//   candidate each slot x < n-1 keeps a neighbour among higher slots and a lower bound of that
//             distance in a min-heap; the heap top is exact when the bound equals the stored distance,
//             otherwise its row is rescanned;
//   merge     the top x with its neighbour y (x < y): slot x dies, slot y holds the union and the new
//             cluster id n+k; column y gets the Lance–Williams update and lowers the bounds it beats.
// Rows are emitted in merge order with final labels (no sorting: centroid and median heights may
// decrease). Time O(N^2 log N) typically, O(N^3) worst case; extra memory O(N).
template <class Update>
Linkage generic(CondensedMatrix& distances, ThreadPool& pool, JobControl* control) {
    const std::size_t n = distances.size();
    std::vector<double> sizes(n, 1.0);
    std::vector<std::int64_t> clusterId(n);
    std::iota(clusterId.begin(), clusterId.end(), std::int64_t{0});
    ActiveClusters active(n);
    std::vector<std::uint32_t> neighbor(n - 1);
    std::vector<double> minDist(n - 1);
    const auto nearestAbove = [&](std::uint32_t slot) {
        const RowMinimum found = rowMinimum(distances, slot, active, active.firstAbove(slot), active.size(), pool);
        if (found.slot == RowMinimum::kNoSlot)
            throw InvalidInput("hierarchical clustering: no finite distance left between clusters");
        return found;
    };
    // Initial candidates: row x scans n-1-x entries, so rows are dealt out round-robin to balance.
    const std::size_t stripes = std::min<std::size_t>(n - 1, pool.size() * 16);
    pool.run(stripes, [&](std::size_t stripe) {
        if (control && control->isCancelled()) return;
        for (std::size_t x = stripe; x + 1 < n; x += stripes) {
            const RowMinimum found =
                rowMinimumSequential(distances, static_cast<std::uint32_t>(x), active.ids(), x + 1, n);
            neighbor[x] = found.slot;
            minDist[x] = found.value;
        }
    });
    if (control) control->checkCancelled();
    IndexedMinHeap heap(minDist);
    Linkage linkage;
    linkage.leafCount = n;
    linkage.merges.reserve(n - 1);
    std::vector<std::vector<std::uint32_t>> improved(pool.size() * 4);
    for (std::size_t k = 0; k + 1 < n; ++k) {
        std::uint32_t x = heap.minKey();
        double dxy = heap.minValue();
        while (dxy != distances.at(x, neighbor[x])) {
            const RowMinimum found = nearestAbove(x);
            neighbor[x] = found.slot;
            minDist[x] = found.value;
            heap.changeValue(x, found.value);
            x = heap.minKey();
            dxy = heap.minValue();
        }
        const std::uint32_t y = neighbor[x];
        heap.removeMin();
        const double nx = sizes[x];
        const double ny = sizes[y];
        linkage.merges.push_back(Merge{std::min(clusterId[x], clusterId[y]), std::max(clusterId[x], clusterId[y]), dxy,
                                       static_cast<std::int64_t>(nx + ny)});
        sizes[x] = 0.0;
        sizes[y] = nx + ny;
        clusterId[y] = static_cast<std::int64_t>(n + k);
        active.remove(x);

        const std::size_t count = active.size();
        const std::size_t chunks =
            count < kParallelScanLength || pool.size() == 1 ? 1 : std::min(improved.size(), pool.size() * 4);
        const std::size_t chunk = (count + chunks - 1) / chunks;
        for (std::size_t c = 0; c < chunks; ++c) improved[c].clear();
        const auto updateChunk = [&](std::size_t c) {
            updateRange<Update>(distances, active, sizes, neighbor, minDist, x, y, dxy, nx, ny, c * chunk,
                                std::min(count, (c + 1) * chunk), improved[c]);
        };
        if (chunks == 1)
            updateChunk(0);
        else
            pool.run(chunks, updateChunk);
        for (std::size_t c = 0; c < chunks; ++c)
            for (const std::uint32_t z : improved[c]) {
                neighbor[z] = y;
                minDist[z] = distances.at(z, y);
                heap.changeValue(z, minDist[z]);
            }
        if (y + 1 < n) {
            const RowMinimum found = nearestAbove(y);
            neighbor[y] = found.slot;
            minDist[y] = found.value;
            heap.changeValue(y, found.value);
        }
        if (control) {
            control->checkCancelled();
            if ((k & 63) == 0) reportQuadraticProgress(control, k, n - 1);
        }
    }
    return linkage;
}

}  // namespace

Linkage genericLinkage(CondensedMatrix& distances, LinkageMethod method, ThreadPool& pool, JobControl* control) {
    switch (method) {
        case LinkageMethod::Centroid:
            return generic<CentroidUpdate>(distances, pool, control);
        case LinkageMethod::Median:
            return generic<MedianUpdate>(distances, pool, control);
        default:
            throw InvalidInput("--linkage " + linkageMethodName(method) + " is not a generic-algorithm method");
    }
}

}  // namespace clusterlens::cpu
