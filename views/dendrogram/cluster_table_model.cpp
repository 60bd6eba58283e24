#include "dendrogram/cluster_table_model.hpp"

#include <QColor>
#include <QLocale>

#include "palette.hpp"

namespace clusterlens::views {

namespace {

constexpr int kSmallSortBase = 1 << 24;  // above any population number

}  // namespace

ClusterTableModel::ClusterTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ClusterTableModel::setTable(std::shared_ptr<const ClusterTable> table) {
    beginResetModel();
    m_table = std::move(table);
    m_total = 0;
    if (m_table)
        for (const ClusterSummary& c : m_table->clusters) m_total += c.size;
    endResetModel();
}

std::int32_t ClusterTableModel::rootOf(int row) const {
    if (!m_table || row < 0 || row >= rowCount()) return -1;
    return m_table->clusters[static_cast<std::size_t>(row)].root;
}

int ClusterTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_table ? 0 : static_cast<int>(m_table->clusters.size());
}

int ClusterTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_table ? 0 : FirstMeanColumn + static_cast<int>(m_table->features.size());
}

QVariant ClusterTableModel::data(const QModelIndex& index, int role) const {
    if (!m_table || !index.isValid() || index.row() >= rowCount()) return {};
    const ClusterSummary& c = m_table->clusters[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    if (role == Qt::DecorationRole && column == ClusterColumn) return Palette::labelColor(c.population);
    if (role == Qt::ForegroundRole && c.population < 0) return Palette::noiseColor().darker(160);
    if (role == Qt::TextAlignmentRole)
        return column == ClusterColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    double value = 0.0;
    switch (column) {
        case ClusterColumn:
            // Small clusters (outliers) are listed apart, after every population.
            if (role == Qt::DisplayRole) return cutClusterName(c.id, c.population);
            return role == Qt::UserRole ? QVariant(c.population >= 0 ? c.population : kSmallSortBase + c.id)
                                        : QVariant();
        case SizeColumn:
            value = static_cast<double>(c.size);
            break;
        case ShareColumn:
            value = m_total > 0 ? 100.0 * static_cast<double>(c.size) / static_cast<double>(m_total) : 0.0;
            break;
        case HeightColumn:
            value = c.height;
            break;
        default:
            value = c.means[static_cast<std::size_t>(column - FirstMeanColumn)];
            break;
    }
    if (role == Qt::UserRole) return value;
    if (role != Qt::DisplayRole) return {};
    const QLocale locale;
    if (column == SizeColumn) return locale.toString(static_cast<qlonglong>(c.size));
    if (column == ShareColumn) return locale.toString(value, 'f', 1);
    return locale.toString(value, 'g', 4);
}

QVariant ClusterTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
        case ClusterColumn:
            return tr("Cluster");
        case SizeColumn:
            return tr("Size");
        case ShareColumn:
            return tr("%");
        case HeightColumn:
            return tr("Height");
        default:
            if (!m_table || section - FirstMeanColumn >= m_table->features.size()) return {};
            return tr("mean %1").arg(m_table->features[section - FirstMeanColumn]);
    }
}

}  // namespace clusterlens::views
