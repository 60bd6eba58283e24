// VAT of a user-supplied dissimilarity matrix (small n): the same farthest pair and Prim as for
// points, read from the matrix instead of computed.

#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/vat/vat.hpp"
#include "cpu/vat_kernels.hpp"

namespace clusterlens {

namespace {

std::string cell(std::size_t i, std::size_t j) {
    return "row " + std::to_string(i + 1) + ", column " + std::to_string(j + 1);
}

// Rejects anything that is not a finite, non-negative, symmetric matrix with a zero diagonal, naming
// the first offending cell (1-based, as a spreadsheet counts).
void checkDissimilarities(const double* m, std::size_t n) {
    if (n < 2) throw InvalidInput("VAT needs at least 2 points, got " + std::to_string(n));
    if (n > std::numeric_limits<std::uint32_t>::max() - 1)
        throw InvalidInput("VAT supports at most 4 294 967 294 points, got " + std::to_string(n));
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            const double v = m[i * n + j];
            if (!std::isfinite(v)) throw NonFiniteInput("dissimilarity matrix: " + cell(i, j) + " is NaN or infinite");
            if (v < 0.0) throw InvalidInput("dissimilarity matrix: " + cell(i, j) + " is negative");
            if (i == j && v != 0.0)
                throw InvalidInput("dissimilarity matrix: the diagonal " + cell(i, j) + " is not 0");
            if (j > i && v != m[j * n + i])
                throw InvalidInput("dissimilarity matrix is not symmetric: " + cell(i, j) + " differs from " +
                                   cell(j, i));
        }
    }
}

}  // namespace

VatResult computeVatFromDistances(const double* distances, std::size_t n, JobControl* control) {
    checkDissimilarities(distances, n);
    VatResult r;
    r.n = n;
    r.backend = backendDescription(Backend::Cpu);
    const auto treeClock = std::chrono::steady_clock::now();
    std::vector<std::uint32_t> all(n);
    std::iota(all.begin(), all.end(), std::uint32_t{0});
    r.start = cpu::farthestPairScan(cpu::MatrixSource(distances, n, all.data(), n), n, control, 0.0, 0.5).i;
    const auto source = [&](const std::uint32_t* fringe, std::size_t count) {
        return cpu::MatrixSource(distances, n, fringe, count);
    };
    r.edges = cpu::primFromStart(source, n, control, r.start, 0.5, 1.0);
    r.secondsTree = std::chrono::duration<double>(std::chrono::steady_clock::now() - treeClock).count();
    const auto orderClock = std::chrono::steady_clock::now();
    r.order.assign(n, 0);
    r.cut.assign(n, 0.0);
    r.order[0] = static_cast<std::int64_t>(r.start);
    for (std::size_t k = 0; k + 1 < n; ++k) {
        r.order[k + 1] = r.edges[k].v;
        r.cut[k + 1] = r.edges[k].w;
    }
    r.secondsOrder = std::chrono::duration<double>(std::chrono::steady_clock::now() - orderClock).count();
    if (control) control->setProgress(1.0);
    return r;
}

}  // namespace clusterlens
