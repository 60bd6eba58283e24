#include "compare/matched_pairs_model.hpp"

#include <QFile>
#include <QLocale>
#include <QTextStream>

#include "clusterlens/errors.hpp"

namespace clusterlens::views {

MatchedPairsModel::MatchedPairsModel(QObject* parent) : QAbstractTableModel(parent) {}

void MatchedPairsModel::setComparison(std::shared_ptr<const FlatComparison> comparison) {
    beginResetModel();
    m_comparison = std::move(comparison);
    endResetModel();
}

int MatchedPairsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_comparison ? 0 : static_cast<int>(m_comparison->matchedCount);
}

int MatchedPairsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MatchedPairsModel::value(int row, int column) const {
    const FlatComparison& c = *m_comparison;
    const auto r = static_cast<std::size_t>(row);
    switch (column) {
        case ClusterA:
            return c.labelOfRow(r);
        case ClusterB:
            return c.labelOfCol(r);
        case SizeA:
            return static_cast<qlonglong>(c.table.rowSums[c.rowOrder[r]]);
        case SizeB:
            return static_cast<qlonglong>(c.table.colSums[c.colOrder[r]]);
        case Shared:
            return static_cast<qlonglong>(c.countAt(r, r));
        case F1: {
            const qlonglong sizes = c.table.rowSums[c.rowOrder[r]] + c.table.colSums[c.colOrder[r]];
            return sizes > 0 ? 2.0 * static_cast<double>(c.countAt(r, r)) / static_cast<double>(sizes) : 0.0;
        }
        default:
            return {};
    }
}

QVariant MatchedPairsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !m_comparison || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const QVariant v = value(index.row(), index.column());
    switch (role) {
        case ValueRole:
            return v;
        case Qt::DisplayRole:
            if (index.column() == ClusterA || index.column() == ClusterB) return clusterName(v.toInt());
            if (index.column() == F1) return QString::number(v.toDouble(), 'f', 3);
            return QLocale().toString(v.toLongLong());
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(index.column() >= SizeA ? Qt::AlignRight | Qt::AlignVCenter
                                                               : Qt::AlignLeft | Qt::AlignVCenter);
        default:
            return {};
    }
}

QVariant MatchedPairsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Vertical) return section + 1;
    switch (section) {
        case ClusterA:
            return tr("Cluster in A");
        case ClusterB:
            return tr("Cluster in B");
        case SizeA:
            return tr("|A|");
        case SizeB:
            return tr("|B|");
        case Shared:
            return tr("|A \u2229 B|");
        case F1:
            return tr("F1");
        default:
            return {};
    }
}

QString MatchedPairsModel::toCsv() const {
    QString csv = QStringLiteral("cluster_a,cluster_b,size_a,size_b,shared,f1\n");
    for (int row = 0; row < rowCount(); ++row) {
        QStringList fields;
        for (int column = 0; column < ColumnCount; ++column) {
            const QVariant v = value(row, column);
            fields << (column == F1 ? QString::number(v.toDouble(), 'g', 17) : v.toString());
        }
        csv += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

void MatchedPairsModel::writeCsv(const QString& path) const {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        throw InvalidInput(path.toStdString() + ": cannot write the table (" + file.errorString().toStdString() + ")");
    const QByteArray bytes = toCsv().toUtf8();
    if (file.write(bytes) != bytes.size())
        throw InvalidInput(path.toStdString() + ": cannot write the table (" + file.errorString().toStdString() + ")");
}

}  // namespace clusterlens::views
