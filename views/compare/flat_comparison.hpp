#pragma once
// Comparison of two flat clusterings (labelings) of the same points: contingency table, 1-to-1
// matching of clusters by linear assignment, ARI, NMI and F-measure, and the display order that
// puts matched pairs on the diagonal of the heatmap. Computed as a job by the flat comparison view.

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "clusterlens/compare/agreement.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens::views {

/// Same alias as analysis_session.hpp, without pulling in QObject.
using LabelVector = std::vector<std::int32_t>;

struct FlatComparison {
    QString nameA, nameB;
    std::shared_ptr<const LabelVector> labelsA, labelsB;  ///< the compared labelings (N each)
    MatchingMethod method = MatchingMethod::Hungarian;
    ContingencyTable table;
    ClusterMatching matching;
    double ari = 0.0;
    double nmi = 0.0;
    /// Table rows (indices into table.labelsA) in display order: the rows of matched pairs first,
    /// in ascending label order, then the unmatched rows. colOrder[i] is the column matched to
    /// rowOrder[i] for i < matchedCount, then the unmatched columns in ascending label order.
    std::vector<std::size_t> rowOrder, colOrder;
    std::size_t matchedCount = 0;

    std::size_t rows() const { return table.labelsA.size(); }
    std::size_t cols() const { return table.labelsB.size(); }
    /// Count of the cell at display position (row, col).
    std::int64_t countAt(std::size_t row, std::size_t col) const { return table.at(rowOrder[row], colOrder[col]); }
    /// Share of the row's cluster that falls into the column's cluster, in [0, 1].
    double rowShareAt(std::size_t row, std::size_t col) const;
    std::int32_t labelOfRow(std::size_t row) const { return table.labelsA[rowOrder[row]]; }
    std::int32_t labelOfCol(std::size_t col) const { return table.labelsB[colOrder[col]]; }
};

/// Compares `a` and `b` (same length; InvalidInput otherwise). Time O(N log N + k^3) with the
/// Hungarian method, O(N log N + k^2 log k) greedy; memory O(kA kB).
FlatComparison compareLabelings(std::shared_ptr<const LabelVector> a, std::shared_ptr<const LabelVector> b,
                                const QString& nameA, const QString& nameB, MatchingMethod method,
                                JobControl* control = nullptr);

/// Points (ascending indices) labelled `labelA` in `a` and `labelB` in `b`. O(N).
std::vector<std::int64_t> pointsInBoth(const LabelVector& a, const LabelVector& b, std::int32_t labelA,
                                       std::int32_t labelB);

/// "cluster 3", or "noise" for negative labels.
QString clusterName(std::int32_t label);

/// "ARI 0.731 · NMI 0.758 · F-measure 0.894 (Hungarian matching)".
QString scoresText(const FlatComparison& comparison);

}  // namespace clusterlens::views
