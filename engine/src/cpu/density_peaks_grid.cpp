#include "cpu/density_peaks_grid.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "clusterlens/errors.hpp"
#include "cpu/density_peaks_math.hpp"

namespace clusterlens::dpc {

namespace {

constexpr std::size_t kGridRowsPerTask = 256;

/// Points bucketed into cells of side `side` (counting sort by cell): cell c holds the points
/// members[start[c] .. start[c+1]); coordinates copied in that order for cache-friendly scans.
class Grid {
public:
    Grid(const float* x, std::size_t n, std::size_t d, double minSide) : m_x(x), m_d(d) {
        std::array<double, kGridMaxDimension> lo{}, hi{};
        for (std::size_t k = 0; k < d; ++k) {
            lo[k] = std::numeric_limits<double>::infinity();
            hi[k] = -lo[k];
        }
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < d; ++k) {
                lo[k] = std::min(lo[k], static_cast<double>(x[i * d + k]));
                hi[k] = std::max(hi[k], static_cast<double>(x[i * d + k]));
            }
        // Cells no smaller than minSide, and no more cells than about 2n in all (sparse data would
        // otherwise spend its time on empty cells).
        double side = minSide;
        const double cellBudget = 2.0 * static_cast<double>(n) + 64.0;
        for (;;) {
            double cells = 1.0;
            for (std::size_t k = 0; k < d; ++k) cells *= std::floor((hi[k] - lo[k]) / side) + 1.0;
            if (cells <= cellBudget) break;
            side *= 1.5;
        }
        m_side = side;
        m_cellCount = 1;
        for (std::size_t k = 0; k < d; ++k) {
            m_lo[k] = lo[k];
            m_extent[k] = static_cast<std::int64_t>(std::floor((hi[k] - lo[k]) / side)) + 1;
            m_cellCount *= static_cast<std::size_t>(m_extent[k]);
        }
        m_cellOf.resize(n);
        m_start.assign(m_cellCount + 1, 0);
        for (std::size_t i = 0; i < n; ++i) {
            m_cellOf[i] = cellIndex(coordinates(i));
            ++m_start[m_cellOf[i] + 1];
        }
        for (std::size_t c = 0; c < m_cellCount; ++c) m_start[c + 1] += m_start[c];
        m_members.resize(n);
        std::vector<std::size_t> fill(m_start.begin(), m_start.end() - 1);
        for (std::size_t i = 0; i < n; ++i) m_members[fill[m_cellOf[i]]++] = static_cast<std::uint32_t>(i);
    }

    double side() const { return m_side; }
    std::size_t dimension() const { return m_d; }
    std::int64_t extent(std::size_t k) const { return m_extent[k]; }

    std::array<std::int64_t, kGridMaxDimension> coordinates(std::size_t i) const {
        std::array<std::int64_t, kGridMaxDimension> c{};
        for (std::size_t k = 0; k < m_d; ++k) {
            const double t = std::floor((static_cast<double>(m_x[i * m_d + k]) - m_lo[k]) / m_side);
            c[k] = std::clamp<std::int64_t>(static_cast<std::int64_t>(t), 0, m_extent[k] - 1);
        }
        return c;
    }

    /// Calls visit(j) for every point of the cells whose coordinates differ from `centre` by at most
    /// `radius` in every axis and by exactly `radius` in at least one (the Chebyshev ring; radius 0 is
    /// the cell itself).
    template <class Visit>
    void ring(const std::array<std::int64_t, kGridMaxDimension>& centre, std::int64_t radius, Visit&& visit) const {
        std::array<std::int64_t, kGridMaxDimension> lo{}, hi{};
        for (std::size_t k = 0; k < m_d; ++k) {
            lo[k] = centre[k] - radius;
            hi[k] = centre[k] + radius;
        }
        std::array<std::int64_t, kGridMaxDimension> c = lo;
        for (;;) {
            bool onRing = radius == 0, inside = true;
            for (std::size_t k = 0; k < m_d; ++k) {
                onRing |= c[k] == lo[k] || c[k] == hi[k];
                inside &= c[k] >= 0 && c[k] < m_extent[k];
            }
            if (onRing && inside) {
                const std::size_t cell = cellIndex(c);
                for (std::size_t m = m_start[cell]; m < m_start[cell + 1]; ++m)
                    visit(static_cast<std::size_t>(m_members[m]));
            }
            std::size_t k = 0;
            // Along a row of the ring's interior only its two ends lie on the ring: jump between them.
            if (!onRing && m_d > 0) {
                c[0] = hi[0];
                continue;
            }
            for (; k < m_d; ++k) {
                if (++c[k] <= hi[k]) break;
                c[k] = lo[k];
            }
            if (k == m_d) return;
        }
    }

    /// Largest Chebyshev ring radius that still touches the grid from `centre`.
    std::int64_t maxRadius(const std::array<std::int64_t, kGridMaxDimension>& centre) const {
        std::int64_t r = 0;
        for (std::size_t k = 0; k < m_d; ++k) r = std::max({r, centre[k], m_extent[k] - 1 - centre[k]});
        return r;
    }

private:
    std::size_t cellIndex(const std::array<std::int64_t, kGridMaxDimension>& c) const {
        std::size_t index = 0;
        for (std::size_t k = m_d; k-- > 0;)
            index = index * static_cast<std::size_t>(m_extent[k]) + static_cast<std::size_t>(c[k]);
        return index;
    }

    const float* m_x;
    std::size_t m_d;
    double m_side = 1.0;
    std::array<double, kGridMaxDimension> m_lo{};
    std::array<std::int64_t, kGridMaxDimension> m_extent{};
    std::size_t m_cellCount = 0;
    std::vector<std::size_t> m_cellOf;
    std::vector<std::size_t> m_start;
    std::vector<std::uint32_t> m_members;
};

double squared(const float* x, std::size_t d, std::size_t i, std::size_t j) {
    return exactSquaredDistance([&](int k) { return x[i * d + static_cast<std::size_t>(k)]; },
                                [&](int k) { return x[j * d + static_cast<std::size_t>(k)]; }, static_cast<int>(d));
}

template <class Task>
void runBlocks(cpu::ThreadPool& pool, std::size_t n, JobControl* control, Task&& task) {
    const std::size_t tasks = (n + kGridRowsPerTask - 1) / kGridRowsPerTask;
    pool.run(tasks, [&](std::size_t t) {
        if (control && control->isCancelled()) return;
        for (std::size_t i = t * kGridRowsPerTask; i < std::min(n, (t + 1) * kGridRowsPerTask); ++i) task(i);
    });
    if (control) control->checkCancelled();
}

}  // namespace

std::vector<double> gridCutoffRho(const float* x, std::size_t n, std::size_t d, double dc, cpu::ThreadPool& pool,
                                  JobControl* control) {
    if (d == 0 || d > kGridMaxDimension) throw InvalidInput("--index grid: the grid serves 1 to 3 features");
    // Cells a hair wider than dc: a neighbour closer than dc is then at most one cell away on every
    // axis even where rounding of the cell coordinates moves a point across a cell face.
    const Grid grid(x, n, d, dc * (1.0 + 1e-9));
    const double threshold = cutoffSquaredThreshold(dc);
    std::vector<double> rho(n, 0.0);
    runBlocks(pool, n, control, [&](std::size_t i) {
        const auto centre = grid.coordinates(i);
        double count = 0.0;
        for (std::int64_t r = 0; r <= 1; ++r)
            grid.ring(centre, r, [&](std::size_t j) {
                if (j != i && squared(x, d, i, j) < threshold) count += 1.0;
            });
        rho[i] = count;
    });
    return rho;
}

void gridDelta(const float* x, std::size_t n, std::size_t d, double dc, DensityPeaksResult& result,
               cpu::ThreadPool& pool, JobControl* control) {
    if (d == 0 || d > kGridMaxDimension) throw InvalidInput("--index grid: the grid serves 1 to 3 features");
    const Grid grid(x, n, d, dc);
    const std::vector<double>& rho = result.rho;
    result.delta.assign(n, 0.0);
    result.nearestHigher.assign(n, -1);
    const auto densest = static_cast<std::size_t>(result.densityOrder.at(0));
    // A point in a cell of ring R + 1 or beyond is at least R cell sides away from any point of the
    // centre cell; the factor keeps the bound below the true gap despite the rounding of the cell
    // coordinates, so a search never stops early (ties included: they would be strictly closer).
    const double side = grid.side() * (1.0 - 1e-9);
    runBlocks(pool, n, control, [&](std::size_t i) {
        if (i == densest) {
            double far = 0.0;
            for (std::size_t j = 0; j < n; ++j) far = std::max(far, squared(x, d, i, j));
            result.delta[i] = std::sqrt(far);
            return;
        }
        const auto centre = grid.coordinates(i);
        const std::int64_t last = grid.maxRadius(centre);
        double best = std::numeric_limits<double>::infinity();
        std::int64_t bestJ = -1;
        for (std::int64_t r = 0; r <= last; ++r) {
            grid.ring(centre, r, [&](std::size_t j) {
                if (!higherThan(rho[j], static_cast<std::int64_t>(j), rho[i], static_cast<std::int64_t>(i))) return;
                const double e = squared(x, d, i, j);
                if (candidateBefore(e, static_cast<std::int64_t>(j), best, bestJ)) {
                    best = e;
                    bestJ = static_cast<std::int64_t>(j);
                }
            });
            const double reach = static_cast<double>(r) * side;
            if (bestJ >= 0 && best < reach * reach) break;
        }
        result.delta[i] = std::sqrt(best);
        result.nearestHigher[i] = bestJ;
    });
}

}  // namespace clusterlens::dpc
