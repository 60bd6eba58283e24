#include "compare/flat_comparison.hpp"

#include <QCoreApplication>

#include <algorithm>
#include <string>

#include "clusterlens/errors.hpp"

namespace clusterlens::views {

namespace {

QString trFlatComparison(const char* text) {
    return QCoreApplication::translate("FlatComparison", text);
}

std::size_t indexOf(const std::vector<std::int32_t>& sortedLabels, std::int32_t label) {
    return static_cast<std::size_t>(std::lower_bound(sortedLabels.begin(), sortedLabels.end(), label) -
                                    sortedLabels.begin());
}

/// Matched pairs on the diagonal, in ascending order of the row label; unmatched rows and
/// columns after them.
void orderForDisplay(FlatComparison& c) {
    std::vector<MatchedPair> pairs = c.matching.pairs;
    std::sort(pairs.begin(), pairs.end(), [](const MatchedPair& x, const MatchedPair& y) { return x.a < y.a; });
    std::vector<char> rowUsed(c.rows(), 0), colUsed(c.cols(), 0);
    for (const MatchedPair& p : pairs) {
        const std::size_t r = indexOf(c.table.labelsA, p.a), k = indexOf(c.table.labelsB, p.b);
        c.rowOrder.push_back(r);
        c.colOrder.push_back(k);
        rowUsed[r] = colUsed[k] = 1;
    }
    c.matchedCount = pairs.size();
    for (std::size_t r = 0; r < c.rows(); ++r)
        if (!rowUsed[r]) c.rowOrder.push_back(r);
    for (std::size_t k = 0; k < c.cols(); ++k)
        if (!colUsed[k]) c.colOrder.push_back(k);
}

}  // namespace

double FlatComparison::rowShareAt(std::size_t row, std::size_t col) const {
    const std::int64_t total = table.rowSums[rowOrder[row]];
    return total > 0 ? static_cast<double>(countAt(row, col)) / static_cast<double>(total) : 0.0;
}

FlatComparison compareLabelings(std::shared_ptr<const LabelVector> a, std::shared_ptr<const LabelVector> b,
                                const QString& nameA, const QString& nameB, MatchingMethod method,
                                JobControl* control) {
    if (!a || !b) throw InvalidInput("Choose two labelings to compare.");
    if (a->size() != b->size())
        throw InvalidInput(nameB.toStdString() + " labels " + std::to_string(b->size()) + " points but " +
                           nameA.toStdString() + " labels " + std::to_string(a->size()) +
                           ": only labelings of the same points can be compared.");
    FlatComparison out;
    out.nameA = nameA;
    out.nameB = nameB;
    out.labelsA = std::move(a);
    out.labelsB = std::move(b);
    out.method = method;
    out.table = contingencyTable(*out.labelsA, *out.labelsB);
    if (control) {
        control->checkCancelled();
        control->setProgress(0.3);
    }
    out.ari = adjustedRandIndex(out.table);
    out.nmi = normalizedMutualInformation(out.table);
    if (control) {
        control->checkCancelled();
        control->setProgress(0.4);
    }
    out.matching = matchClusters(out.table, method);
    if (control) control->checkCancelled();
    orderForDisplay(out);
    return out;
}

std::vector<std::int64_t> pointsInBoth(const LabelVector& a, const LabelVector& b, std::int32_t labelA,
                                       std::int32_t labelB) {
    std::vector<std::int64_t> points;
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i)
        if (a[i] == labelA && b[i] == labelB) points.push_back(static_cast<std::int64_t>(i));
    return points;
}

QString clusterName(std::int32_t label) {
    return label < 0 ? trFlatComparison("noise") : trFlatComparison("cluster %1").arg(label);
}

QString scoresText(const FlatComparison& comparison) {
    return trFlatComparison("ARI %1 \u00b7 NMI %2 \u00b7 F-measure %3 (%4 matching)")
        .arg(QString::number(comparison.ari, 'f', 3), QString::number(comparison.nmi, 'f', 3),
             QString::number(comparison.matching.fMeasure, 'f', 3),
             comparison.method == MatchingMethod::Hungarian ? trFlatComparison("Hungarian")
                                                            : trFlatComparison("greedy"));
}

}  // namespace clusterlens::views
