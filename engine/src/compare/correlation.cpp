#include "clusterlens/compare/correlation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "clusterlens/errors.hpp"

namespace clusterlens {
namespace {

void checkPair(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size())
        throw InvalidInput("correlation: the vectors have different lengths (" + std::to_string(x.size()) + " and " +
                           std::to_string(y.size()) + ")");
    if (x.size() < 2) throw InvalidInput("correlation: at least 2 values are needed");
}

}  // namespace

double pearsonCorrelation(const std::vector<double>& x, const std::vector<double>& y) {
    checkPair(x, y);
    const double n = static_cast<double>(x.size());
    const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n, my = std::accumulate(y.begin(), y.end(), 0.0) / n;
    double sxy = 0.0, sxx = 0.0, syy = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (sxx == 0.0 || syy == 0.0) return std::numeric_limits<double>::quiet_NaN();
    return std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
}

std::vector<double> averageRanks(const std::vector<double>& values) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> ranks(values.size());
    for (std::size_t start = 0; start < order.size();) {
        std::size_t end = start + 1;
        while (end < order.size() && values[order[end]] == values[order[start]]) ++end;
        const double rank = 0.5 * static_cast<double>(start + 1 + end);  // mean of ranks start+1 .. end
        for (std::size_t k = start; k < end; ++k) ranks[order[k]] = rank;
        start = end;
    }
    return ranks;
}

double spearmanCorrelation(const std::vector<double>& x, const std::vector<double>& y) {
    checkPair(x, y);
    return pearsonCorrelation(averageRanks(x), averageRanks(y));
}

}  // namespace clusterlens
