#include "clusterlens/compare/agreement.hpp"

#include <algorithm>
#include <cmath>

#include "clusterlens/compare/assignment.hpp"
#include "clusterlens/errors.hpp"

namespace clusterlens {
namespace {

std::vector<std::int32_t> distinctSorted(std::vector<std::int32_t> labels) {
    std::sort(labels.begin(), labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
    return labels;
}

std::size_t indexOf(const std::vector<std::int32_t>& sorted, std::int32_t label) {
    return static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), label) - sorted.begin());
}

double choose2(double x) {
    return x * (x - 1.0) / 2.0;
}

double entropy(const std::vector<std::int64_t>& sums, double n) {
    double h = 0.0;
    for (std::int64_t s : sums)
        if (s > 0) h -= (static_cast<double>(s) / n) * std::log(static_cast<double>(s) / n);
    return h;
}

}  // namespace

ContingencyTable contingencyTable(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b) {
    if (a.size() != b.size())
        throw InvalidInput("the two labelings have different lengths (" + std::to_string(a.size()) + " and " +
                           std::to_string(b.size()) + " points)");
    if (a.empty()) throw InvalidInput("the labelings are empty");
    ContingencyTable t;
    t.labelsA = distinctSorted(a);
    t.labelsB = distinctSorted(b);
    t.counts.assign(t.labelsA.size() * t.labelsB.size(), 0);
    t.rowSums.assign(t.labelsA.size(), 0);
    t.colSums.assign(t.labelsB.size(), 0);
    for (std::size_t p = 0; p < a.size(); ++p) {
        const std::size_t i = indexOf(t.labelsA, a[p]), j = indexOf(t.labelsB, b[p]);
        ++t.counts[i * t.labelsB.size() + j];
        ++t.rowSums[i];
        ++t.colSums[j];
    }
    t.n = static_cast<std::int64_t>(a.size());
    return t;
}

double adjustedRandIndex(const ContingencyTable& t) {
    double sumCells = 0.0, sumRows = 0.0, sumCols = 0.0;
    for (std::int64_t c : t.counts) sumCells += choose2(static_cast<double>(c));
    for (std::int64_t r : t.rowSums) sumRows += choose2(static_cast<double>(r));
    for (std::int64_t c : t.colSums) sumCols += choose2(static_cast<double>(c));
    const double total = choose2(static_cast<double>(t.n));
    const double expected = total > 0 ? sumRows * sumCols / total : 0.0;
    const double maximum = 0.5 * (sumRows + sumCols);
    if (maximum == expected) return 1.0;  // both trivial (all singletons or one cluster)
    return (sumCells - expected) / (maximum - expected);
}

double normalizedMutualInformation(const ContingencyTable& t) {
    const double n = static_cast<double>(t.n);
    const double ha = entropy(t.rowSums, n), hb = entropy(t.colSums, n);
    if (t.labelsA.size() == t.labelsB.size() && (t.labelsA.size() == 1 || (ha == 0.0 && hb == 0.0))) return 1.0;
    double mi = 0.0;
    for (std::size_t i = 0; i < t.labelsA.size(); ++i) {
        for (std::size_t j = 0; j < t.labelsB.size(); ++j) {
            const double nij = static_cast<double>(t.at(i, j));
            if (nij == 0) continue;
            mi +=
                (nij / n) * std::log(n * nij / (static_cast<double>(t.rowSums[i]) * static_cast<double>(t.colSums[j])));
        }
    }
    const double mean = 0.5 * (ha + hb);
    if (mean <= 0.0) return 0.0;
    return std::clamp(mi / mean, 0.0, 1.0);
}

MatchingMethod parseMatchingMethod(const std::string& text) {
    if (text == "hungarian") return MatchingMethod::Hungarian;
    if (text == "greedy") return MatchingMethod::Greedy;
    throw InvalidInput("--matching: unknown method '" + text + "' (expected hungarian or greedy)");
}

ClusterMatching matchClusters(const ContingencyTable& t, MatchingMethod method) {
    const std::size_t ka = t.labelsA.size(), kb = t.labelsB.size();
    std::vector<double> f1(ka * kb), cost(ka * kb);
    for (std::size_t i = 0; i < ka; ++i)
        for (std::size_t j = 0; j < kb; ++j) {
            f1[i * kb + j] = 2.0 * static_cast<double>(t.at(i, j)) / static_cast<double>(t.rowSums[i] + t.colSums[j]);
            cost[i * kb + j] = 1.0 - f1[i * kb + j];
        }
    const auto assignment =
        method == MatchingMethod::Hungarian ? hungarianAssignment(cost, ka, kb) : greedyAssignment(cost, ka, kb);
    ClusterMatching result;
    for (std::size_t i = 0; i < ka; ++i) {
        if (assignment[i] < 0) continue;
        const auto j = static_cast<std::size_t>(assignment[i]);
        const double value = f1[i * kb + j];
        result.pairs.push_back({t.labelsA[i], t.labelsB[j], value});
        result.totalF1 += value;
        result.fMeasure += static_cast<double>(t.rowSums[i]) / static_cast<double>(t.n) * value;
    }
    return result;
}

}  // namespace clusterlens
