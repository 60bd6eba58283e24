#pragma once
// The cluster size table of the decision graph: one row per cluster (its colour, size, share, the
// rho and delta of its peak and, once checked, the peak's stability across dc), plus a noise row once
// the halo marks border points.

#include <QAbstractTableModel>

#include <memory>

#include "analysis_session.hpp"
#include "clusterlens/cluster/dc_sweep.hpp"
#include "clusterlens/cluster/density_peaks.hpp"

namespace clusterlens::views {

class PeakChoice;

class PeakTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        ClusterColumn,
        SizeColumn,
        ShareColumn,
        PeakColumn,
        RhoColumn,
        DeltaColumn,
        StabilityColumn,
        ColumnCount
    };

    explicit PeakTableModel(QObject* parent = nullptr);

    /// Shows the peaks of `choice` with the sizes of `labels` (the halo may have made some noise). A run
    /// on a population names its peaks by their whole-dataset index in `events` (null: a point's position
    /// is its index).
    void setPeaks(const PeakChoice& choice, std::shared_ptr<const LabelVector> labels,
                  const IndexVector* events = nullptr);
    /// The stability of each peak across a dc sweep (clusterlens/cluster/dc_sweep.hpp): its persistence
    /// as text, step by step under PresenceRole (a QVariantList of bool, drawn as a strip by
    /// StabilityStripDelegate) and in the tooltip. Shown while the choice has exactly the sweep's chosen
    /// peaks; a new choice blanks the column until it is checked again.
    void setStability(const DcSweep& sweep);

    /// data() role of StabilityColumn: whether the peak's cluster held a top-K point at each step.
    static constexpr int PresenceRole = Qt::UserRole + 1;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        int label = -1;
        std::size_t size = 0;
        std::int64_t peak = -1;
        double rho = 0.0, delta = 0.0;
    };
    std::vector<Row> m_rows;
    std::size_t m_total = 0;
    /// The stability of peak `label` when it belongs to the shown choice, else null.
    bool hasStability(int label) const;
    QVariant stabilityData(int label, int role) const;

    std::vector<std::int64_t> m_stabilityPeaks;  // the choice the persistence belongs to
    std::vector<double> m_persistence;
    std::vector<std::vector<bool>> m_presence;
    std::vector<DcSweepStep> m_steps;
    std::vector<std::int64_t> m_shownPeaks;  // the choice the rows show
};

}  // namespace clusterlens::views
