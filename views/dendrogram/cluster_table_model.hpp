#pragma once
// Table of the clusters of a dendrogram cut: colour swatch and id, size, share of the points, root
// height and the mean of every active feature. Small clusters of a cut with a minimum size are
// grey and sort after every population (listed apart). Numbers are returned as numbers (Qt::DisplayRole
// formats them, Qt::UserRole gives the raw value for sorting).

#include <QAbstractTableModel>

#include <memory>

#include "dendrogram/dendrogram_clusters.hpp"

namespace clusterlens::views {

class ClusterTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ClusterColumn, SizeColumn, ShareColumn, HeightColumn, FirstMeanColumn };

    explicit ClusterTableModel(QObject* parent = nullptr);

    /// Shows `table` (null clears).
    void setTable(std::shared_ptr<const ClusterTable> table);
    const std::shared_ptr<const ClusterTable>& table() const { return m_table; }
    /// Root node of the cluster in `row`, -1 for an invalid row.
    std::int32_t rootOf(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ClusterTable> m_table;
    std::int64_t m_total = 0;
};

}  // namespace clusterlens::views
