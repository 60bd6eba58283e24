// Classic linkages: input checks, the distance matrix, scipy's labelling step and the dispatch to
// the three algorithms (minimum spanning tree, nearest-neighbour chain, generic).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>
#include <numeric>

#include <sys/mman.h>
#include <unistd.h>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "cpu/classic_linkage_detail.hpp"

namespace clusterlens {

namespace {

struct MethodName {
    LinkageMethod method;
    const char* name;
};

constexpr MethodName kMethodNames[] = {
    {LinkageMethod::Single, "single"},     {LinkageMethod::Complete, "complete"}, {LinkageMethod::Average, "average"},
    {LinkageMethod::Weighted, "weighted"}, {LinkageMethod::Centroid, "centroid"}, {LinkageMethod::Median, "median"},
    {LinkageMethod::Ward, "ward"},
};

std::string gibibytes(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / 1073741824.0);
    return text;
}

double physicalMemoryBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? static_cast<double>(pages) * static_cast<double>(pageSize) : 0.0;
}

template <class T>
Linkage classicLinkageImpl(const T* x, std::size_t n, std::size_t d, LinkageMethod method, JobControl* control) {
    cpu::checkPoints(x, n, d, 2, "hierarchical clustering");
    if (method == LinkageMethod::Single) {
        Linkage linkage = singleLinkageFromMst(minimumSpanningTreeCpu(x, n, d, control), n);
        if (control) control->setProgress(1.0);
        return linkage;
    }
    cpu::ThreadPool pool;
    cpu::CondensedMatrix distances = cpu::euclideanDistanceMatrix(x, n, d, method, pool, control);
    Linkage linkage = method == LinkageMethod::Centroid || method == LinkageMethod::Median
                          ? cpu::genericLinkage(distances, method, pool, control)
                          : cpu::nnChainLinkage(distances, method, pool, control);
    if (control) control->setProgress(1.0);
    return linkage;
}

}  // namespace

LinkageMethod parseLinkageMethod(const std::string& name) {
    for (const MethodName& entry : kMethodNames)
        if (name == entry.name) return entry.method;
    throw InvalidInput("--linkage: unknown method '" + name +
                       "' (expected single, complete, average, weighted, centroid, median or ward)");
}

std::string linkageMethodName(LinkageMethod method) {
    for (const MethodName& entry : kMethodNames)
        if (method == entry.method) return entry.name;
    return "unknown";
}

Linkage classicLinkageCpu(const float* x, std::size_t n, std::size_t d, LinkageMethod method, JobControl* control) {
    return classicLinkageImpl(x, n, d, method, control);
}

Linkage classicLinkageCpu(const double* x, std::size_t n, std::size_t d, LinkageMethod method, JobControl* control) {
    return classicLinkageImpl(x, n, d, method, control);
}

namespace cpu {

template <class T>
void checkPoints(const T* x, std::size_t n, std::size_t d, std::size_t minPoints, const char* what) {
    if (n < minPoints)
        throw InvalidInput(std::string(what) + " needs at least " + std::to_string(minPoints) + " points, got " +
                           std::to_string(n));
    if (d == 0) throw InvalidInput(std::string(what) + " needs at least one feature (column), got none");
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < d; ++j)
            if (!std::isfinite(x[i * d + j]))
                throw NonFiniteInput(std::string(what) + ": point " + std::to_string(i + 1) + ", feature " +
                                     std::to_string(j + 1) +
                                     " is NaN or infinite; remove or replace such values first");
}

template void checkPoints<float>(const float*, std::size_t, std::size_t, std::size_t, const char*);
template void checkPoints<double>(const double*, std::size_t, std::size_t, std::size_t, const char*);

template <class T>
CondensedMatrix euclideanDistanceMatrix(const T* x, std::size_t n, std::size_t d, LinkageMethod method,
                                        ThreadPool& pool, JobControl* control) {
    const double pairs = static_cast<double>(n) * static_cast<double>(n - 1) / 2.0;
    const double bytes = pairs * sizeof(double);
    const std::string what = "--linkage " + linkageMethodName(method) + " on " + std::to_string(n) +
                             " points needs a distance matrix of " + gibibytes(bytes) + " (N(N-1)/2 doubles)";
    if (bytes > static_cast<double>(kMaxDistanceMatrixBytes))
        throw InvalidInput(what + ", above the " + gibibytes(static_cast<double>(kMaxDistanceMatrixBytes)) +
                           " limit of the CPU implementation; subsample the data or use --linkage single");
    const double physical = physicalMemoryBytes();
    if (physical > 0.0 && bytes > physical)
        throw InvalidInput(what + " but this computer has " + gibibytes(physical) + "; subsample the data");
    std::unique_ptr<CondensedMatrix> matrix;
    try {
        matrix = std::make_unique<CondensedMatrix>(n);
    } catch (const std::bad_alloc&) {
        throw InvalidInput(what + " and that much memory is not available; subsample the data");
    }
    double* out = matrix->data();
    const std::size_t rowsPerTask = std::max<std::size_t>(1, n / (pool.size() * 64));
    const std::size_t tasks = (n - 1 + rowsPerTask - 1) / rowsPerTask;
    pool.run(tasks, [&](std::size_t task) {
        if (control && control->isCancelled()) return;
        const std::size_t end = std::min(n - 1, (task + 1) * rowsPerTask);
        for (std::size_t i = task * rowsPerTask; i < end; ++i) {
            double* row = out + matrix->rowStart(i);
            const T* xi = x + i * d;
            std::size_t j = i + 1;
            for (; j + 4 <= n; j += 4) {
                double sq[4];
                const T* xj = x + j * d;
                squaredEuclidean4(xi, xj, xj + d, xj + 2 * d, xj + 3 * d, d, sq);
                for (std::size_t k = 0; k < 4; ++k) row[j + k - i - 1] = std::sqrt(sq[k]);
            }
            for (; j < n; ++j) row[j - i - 1] = std::sqrt(squaredEuclidean(xi, x + j * d, d));
        }
    });
    if (control) control->checkCancelled();
    return std::move(*matrix);
}

template CondensedMatrix euclideanDistanceMatrix<float>(const float*, std::size_t, std::size_t, LinkageMethod,
                                                        ThreadPool&, JobControl*);
template CondensedMatrix euclideanDistanceMatrix<double>(const double*, std::size_t, std::size_t, LinkageMethod,
                                                         ThreadPool&, JobControl*);

CondensedMatrix::CondensedMatrix(std::size_t n) : m_n(n), m_bytes(n * (n - 1) / 2 * sizeof(double)) {
    if (m_bytes == 0) return;
    void* memory = ::mmap(nullptr, m_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    ::madvise(memory, m_bytes, MADV_HUGEPAGE);
#endif
    m_values = static_cast<double*>(memory);
}

CondensedMatrix::~CondensedMatrix() {
    if (m_values) ::munmap(m_values, m_bytes);
}

CondensedMatrix::CondensedMatrix(CondensedMatrix&& other) noexcept
    : m_n(other.m_n), m_bytes(other.m_bytes), m_values(other.m_values) {
    other.m_values = nullptr;
    other.m_bytes = 0;
}

ActiveClusters::ActiveClusters(std::size_t n) : m_ids(n) {
    std::iota(m_ids.begin(), m_ids.end(), std::uint32_t{0});
}

std::size_t ActiveClusters::firstAbove(std::uint32_t slot) const {
    return static_cast<std::size_t>(std::upper_bound(m_ids.begin(), m_ids.end(), slot) - m_ids.begin());
}

void ActiveClusters::remove(std::uint32_t slot) {
    const auto it = std::lower_bound(m_ids.begin(), m_ids.end(), slot);
    if (it != m_ids.end() && *it == slot) m_ids.erase(it);
}

// Slots below x are read down column x of the condensed matrix, slots above x along row x.
RowMinimum rowMinimumSequential(const CondensedMatrix& distances, std::uint32_t x, const std::uint32_t* ids,
                                std::size_t begin, std::size_t end) {
    RowMinimum found;
    const std::size_t split = static_cast<std::size_t>(std::lower_bound(ids + begin, ids + end, x) - ids);
    for (std::size_t p = begin; p < split; ++p) {
        if (p + kPrefetchAhead < split) distances.prefetch(ids[p + kPrefetchAhead], x);
        const double dist = distances.at(ids[p], x);
        if (dist < found.value) {
            found.value = dist;
            found.slot = ids[p];
        }
    }
    const std::size_t start = split < end && ids[split] == x ? split + 1 : split;
    // Entry (x, j), j > x, is at rowStart(x) + j - x - 1; `base` may wrap below zero for x = 0, and
    // base + j wraps back (unsigned arithmetic).
    const double* values = distances.data();
    const std::size_t base = distances.rowStart(x) - x - 1;
    for (std::size_t p = start; p < end; ++p) {
        const double dist = values[base + ids[p]];
        if (dist < found.value) {
            found.value = dist;
            found.slot = ids[p];
        }
    }
    return found;
}

RowMinimum rowMinimum(const CondensedMatrix& distances, std::uint32_t x, const ActiveClusters& active,
                      std::size_t begin, std::size_t end, ThreadPool& pool) {
    const std::size_t length = end > begin ? end - begin : 0;
    if (length < kParallelScanLength || pool.size() == 1)
        return rowMinimumSequential(distances, x, active.ids(), begin, end);
    const std::size_t chunks = pool.size();
    const std::size_t chunk = (length + chunks - 1) / chunks;
    std::vector<RowMinimum> partial(chunks);
    pool.run(chunks, [&](std::size_t c) {
        const std::size_t from = begin + c * chunk;
        if (from >= end) return;
        partial[c] = rowMinimumSequential(distances, x, active.ids(), from, std::min(end, from + chunk));
    });
    RowMinimum found;
    for (const RowMinimum& p : partial)
        if (p.value < found.value) found = p;
    return found;
}

// scipy's `label` step of _hierarchy.pyx: merges sorted by height with a stable sort, then a
// union-find whose roots are renamed n, n+1, ... in the order of the sorted merges.
Linkage labelMergesSortedByHeight(std::vector<RawMerge> merges, std::size_t n) {
    std::stable_sort(merges.begin(), merges.end(),
                     [](const RawMerge& l, const RawMerge& r) { return l.height < r.height; });
    std::vector<std::int64_t> parent(2 * n - 1);
    std::iota(parent.begin(), parent.end(), std::int64_t{0});
    std::vector<std::int64_t> size(2 * n - 1, 1);
    const auto find = [&parent](std::int64_t v) {
        std::int64_t root = v;
        while (parent[root] != root) root = parent[root];
        while (parent[v] != root) {
            const std::int64_t next = parent[v];
            parent[v] = root;
            v = next;
        }
        return root;
    };
    Linkage linkage;
    linkage.leafCount = n;
    linkage.merges.reserve(merges.size());
    std::int64_t next = static_cast<std::int64_t>(n);
    for (const RawMerge& m : merges) {
        const std::int64_t a = find(m.x);
        const std::int64_t b = find(m.y);
        if (a == b) throw InvalidInput("the merges do not form a tree: a merge joins a cluster with itself");
        parent[a] = parent[b] = next;
        size[next] = size[a] + size[b];
        linkage.merges.push_back(Merge{std::min(a, b), std::max(a, b), m.height, size[next]});
        ++next;
    }
    return linkage;
}

}  // namespace cpu

}  // namespace clusterlens
