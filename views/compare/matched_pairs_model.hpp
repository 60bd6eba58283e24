#pragma once
// Table model of the matched cluster pairs of a flat comparison, in the heatmap's diagonal order:
// cluster in A, cluster in B, their sizes, the shared points and the pair's F1.

#include <QAbstractTableModel>

#include <memory>

#include "compare/flat_comparison.hpp"

namespace clusterlens::views {

class MatchedPairsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ClusterA, ClusterB, SizeA, SizeB, Shared, F1, ColumnCount };
    /// The raw number of a cell (label, count or F1) for sorting and export.
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit MatchedPairsModel(QObject* parent = nullptr);

    /// Shows the pairs of `comparison` (null: no rows).
    void setComparison(std::shared_ptr<const FlatComparison> comparison);
    const std::shared_ptr<const FlatComparison>& comparison() const { return m_comparison; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The rows as CSV: "cluster_a,cluster_b,size_a,size_b,shared,f1" (F1 with 17 digits).
    QString toCsv() const;
    /// Writes toCsv() to `path`; throws clusterlens::InvalidInput naming the path on failure.
    void writeCsv(const QString& path) const;

private:
    QVariant value(int row, int column) const;

    std::shared_ptr<const FlatComparison> m_comparison;
};

}  // namespace clusterlens::views
