#include "clusterlens/compare/assignment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "clusterlens/errors.hpp"

namespace clusterlens {
namespace {

void checkCost(const std::vector<double>& cost, std::size_t rows, std::size_t cols) {
    if (cost.size() != rows * cols) throw InvalidInput("assignment: cost matrix size differs from rows x cols");
    for (double c : cost)
        if (!std::isfinite(c)) throw NonFiniteInput("assignment: the cost matrix holds NaN or infinite values");
}

/// Square k x k copy with dummy rows/columns valued above the largest real cost.
std::vector<double> padToSquare(const std::vector<double>& cost, std::size_t rows, std::size_t cols, std::size_t k) {
    const double largest = cost.empty() ? 0.0 : *std::max_element(cost.begin(), cost.end());
    std::vector<double> square(k * k, largest + 1.0);
    for (std::size_t i = 0; i < rows; ++i)
        std::copy_n(cost.begin() + static_cast<std::ptrdiff_t>(i * cols), cols,
                    square.begin() + static_cast<std::ptrdiff_t>(i * k));
    return square;
}

std::vector<std::int64_t> dropDummies(const std::vector<std::int64_t>& squareAssignment, std::size_t rows,
                                      std::size_t cols) {
    std::vector<std::int64_t> result(rows, -1);
    for (std::size_t i = 0; i < rows; ++i)
        if (squareAssignment[i] >= 0 && static_cast<std::size_t>(squareAssignment[i]) < cols)
            result[i] = squareAssignment[i];
    return result;
}

}  // namespace

// Hungarian method (Kuhn 1955; Munkres 1957) as successive shortest augmenting paths with row and
// column potentials u, v (reduced costs c - u - v >= 0). Each of the k rows is inserted by a
// Dijkstra-like scan over columns: O(k^2) per row, O(k^3) in all.
std::vector<std::int64_t> hungarianAssignment(const std::vector<double>& cost, std::size_t rows, std::size_t cols) {
    checkCost(cost, rows, cols);
    const std::size_t k = std::max(rows, cols);
    if (k == 0) return {};
    const std::vector<double> c = padToSquare(cost, rows, cols, k);
    const double inf = std::numeric_limits<double>::infinity();
    // Index 0 is a virtual column that holds the row being inserted.
    std::vector<double> u(k + 1, 0.0), v(k + 1, 0.0), minSlack(k + 1);
    std::vector<std::size_t> rowOfCol(k + 1, 0), previousCol(k + 1, 0);
    std::vector<char> visited(k + 1);
    for (std::size_t row = 1; row <= k; ++row) {
        rowOfCol[0] = row;
        std::size_t col0 = 0;
        std::fill(minSlack.begin(), minSlack.end(), inf);
        std::fill(visited.begin(), visited.end(), 0);
        do {
            visited[col0] = 1;
            const std::size_t i0 = rowOfCol[col0];
            const double* costRow = &c[(i0 - 1) * k];
            double delta = inf;
            std::size_t col1 = 0;
            for (std::size_t j = 1; j <= k; ++j) {
                if (visited[j]) continue;
                const double slack = costRow[j - 1] - u[i0] - v[j];
                if (slack < minSlack[j]) {
                    minSlack[j] = slack;
                    previousCol[j] = col0;
                }
                if (minSlack[j] < delta) {
                    delta = minSlack[j];
                    col1 = j;
                }
            }
            for (std::size_t j = 0; j <= k; ++j) {
                if (visited[j]) {
                    u[rowOfCol[j]] += delta;
                    v[j] -= delta;
                } else {
                    minSlack[j] -= delta;
                }
            }
            col0 = col1;
        } while (rowOfCol[col0] != 0);
        do {  // flip the augmenting path
            const std::size_t col1 = previousCol[col0];
            rowOfCol[col0] = rowOfCol[col1];
            col0 = col1;
        } while (col0 != 0);
    }
    std::vector<std::int64_t> square(k, -1);
    for (std::size_t j = 1; j <= k; ++j) square[rowOfCol[j] - 1] = static_cast<std::int64_t>(j - 1);
    return dropDummies(square, rows, cols);
}

std::vector<std::int64_t> greedyAssignment(const std::vector<double>& cost, std::size_t rows, std::size_t cols) {
    checkCost(cost, rows, cols);
    const std::size_t k = std::max(rows, cols);
    if (k == 0) return {};
    const std::vector<double> c = padToSquare(cost, rows, cols, k);
    // Sorting (value, index) pairs directly keeps the sort cache-friendly; ties fall to the smaller
    // index, i.e. to (row, col) order.
    std::vector<std::pair<double, std::uint64_t>> order(k * k);
    for (std::size_t e = 0; e < k * k; ++e) order[e] = {c[e], e};
    std::sort(order.begin(), order.end());
    std::vector<char> rowCovered(k, 0), colCovered(k, 0);
    std::vector<std::int64_t> square(k, -1);
    std::size_t assigned = 0;
    for (const auto& [value, e] : order) {
        const std::size_t i = e / k, j = e % k;
        if (rowCovered[i] || colCovered[j]) continue;
        rowCovered[i] = colCovered[j] = 1;
        square[i] = static_cast<std::int64_t>(j);
        if (++assigned == k) break;
    }
    return dropDummies(square, rows, cols);
}

double assignmentCost(const std::vector<double>& cost, std::size_t cols, const std::vector<std::int64_t>& assignment) {
    double total = 0.0;
    for (std::size_t i = 0; i < assignment.size(); ++i)
        if (assignment[i] >= 0) total += cost[i * cols + static_cast<std::size_t>(assignment[i])];
    return total;
}

}  // namespace clusterlens
