#include "dpc/peak_table_model.hpp"

#include <QColor>
#include <QLocale>
#include <QStringList>
#include <QVariantList>

#include "dpc/peak_choice.hpp"
#include "palette.hpp"

namespace clusterlens::views {

PeakTableModel::PeakTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void PeakTableModel::setPeaks(const PeakChoice& choice, std::shared_ptr<const LabelVector> labels,
                              const IndexVector* events) {
    beginResetModel();
    m_rows.clear();
    m_total = labels ? labels->size() : 0;
    const auto& peaks = choice.peaks();
    m_shownPeaks = peaks;
    if (labels && choice.result()) {
        std::vector<std::size_t> sizes(peaks.size(), 0);
        std::size_t noise = 0;
        for (std::int32_t l : *labels) {
            if (l >= 0 && static_cast<std::size_t>(l) < sizes.size())
                ++sizes[static_cast<std::size_t>(l)];
            else
                ++noise;
        }
        const DensityPeaksResult& r = *choice.result();
        for (std::size_t c = 0; c < peaks.size(); ++c) {
            const auto p = static_cast<std::size_t>(peaks[c]);
            const std::int64_t event = events && p < events->size() ? (*events)[p] : peaks[c];
            m_rows.push_back({static_cast<int>(c), sizes[c], event, r.rho[p], r.delta[p]});
        }
        if (noise > 0) m_rows.push_back({-1, noise, -1, 0.0, 0.0});
    }
    endResetModel();
}

void PeakTableModel::setStability(const DcSweep& sweep) {
    m_stabilityPeaks = sweep.chosen;
    m_persistence = sweep.persistence;
    m_presence = sweep.presence;
    m_steps = sweep.steps;
    if (!m_rows.empty()) Q_EMIT dataChanged(index(0, StabilityColumn), index(rowCount() - 1, StabilityColumn));
}

bool PeakTableModel::hasStability(int label) const {
    return label >= 0 && m_shownPeaks == m_stabilityPeaks && static_cast<std::size_t>(label) < m_persistence.size() &&
           static_cast<std::size_t>(label) < m_presence.size();
}

QVariant PeakTableModel::stabilityData(int label, int role) const {
    if (!hasStability(label)) return {};
    const auto c = static_cast<std::size_t>(label);
    if (role == Qt::DisplayRole) return QStringLiteral("%1 %").arg(100.0 * m_persistence[c], 0, 'f', 0);
    if (role == PresenceRole) {
        QVariantList kept;
        for (const bool k : m_presence[c]) kept.push_back(k);
        return kept;
    }
    if (role == Qt::ToolTipRole) {
        const QLocale locale;
        QStringList lines;
        for (std::size_t s = 0; s < m_steps.size() && s < m_presence[c].size(); ++s)
            lines << tr("dc at %1 % (%2): %3")
                         .arg(locale.toString(m_steps[s].percent), locale.toString(m_steps[s].dc, 'g', 4),
                              m_presence[c][s] ? tr("kept among the top %1").arg(m_steps[s].peaks.size())
                                               : tr("not among the top %1").arg(m_steps[s].peaks.size()));
        return lines.join(QLatin1Char('\n'));
    }
    return {};
}

int PeakTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int PeakTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PeakTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::DecorationRole && index.column() == ClusterColumn) return Palette::labelColor(row.label);
    if (index.column() == StabilityColumn && role != Qt::TextAlignmentRole) return stabilityData(row.label, role);
    if (role == Qt::TextAlignmentRole && index.column() != ClusterColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    const QLocale locale;
    switch (index.column()) {
        case ClusterColumn:
            return row.label < 0 ? tr("halo (noise)") : tr("cluster %1").arg(row.label);
        case SizeColumn:
            return locale.toString(static_cast<qulonglong>(row.size));
        case ShareColumn:
            return QStringLiteral("%1 %").arg(
                m_total ? 100.0 * static_cast<double>(row.size) / static_cast<double>(m_total) : 0.0, 0, 'f', 1);
        case PeakColumn:
            return row.peak < 0 ? QString() : QString::number(row.peak);
        case RhoColumn:
            return row.peak < 0 ? QString() : QString::number(row.rho, 'g', 4);
        case DeltaColumn:
            return row.peak < 0 ? QString() : QString::number(row.delta, 'g', 4);
        default:
            return {};
    }
}

QVariant PeakTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == StabilityColumn)
        return tr(
            "The share of the cutoffs of a dc sweep (Stability across dc) at which this peak's cluster "
            "still holds one of the K points of largest \u03b3; the strip shows each cutoff from the smallest dc "
            "on the left, filled where the peak was kept");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case ClusterColumn:
            return tr("Cluster");
        case SizeColumn:
            return tr("Points");
        case ShareColumn:
            return tr("Share");
        case PeakColumn:
            return tr("Peak");
        case RhoColumn:
            return tr("\u03c1");
        case DeltaColumn:
            return tr("\u03b4");
        case StabilityColumn:
            return tr("Stable across dc");
        default:
            return {};
    }
}

}  // namespace clusterlens::views
