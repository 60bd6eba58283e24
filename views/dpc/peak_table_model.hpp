#pragma once
// The cluster size table of the decision graph: one row per cluster (its colour, size, share, and
// the rho and delta of its peak), plus a noise row once the halo marks border points.

#include <QAbstractTableModel>

#include <memory>

#include "analysis_session.hpp"
#include "clusterlens/cluster/density_peaks.hpp"

namespace clusterlens::views {

class PeakChoice;

class PeakTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ClusterColumn, SizeColumn, ShareColumn, PeakColumn, RhoColumn, DeltaColumn, ColumnCount };

    explicit PeakTableModel(QObject* parent = nullptr);

    /// Shows the peaks of `choice` with the sizes of `labels` (the halo may have made some noise). A run
    /// on a population names its peaks by their whole-dataset index in `events` (null: a point's position
    /// is its index).
    void setPeaks(const PeakChoice& choice, std::shared_ptr<const LabelVector> labels,
                  const IndexVector* events = nullptr);

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
};

}  // namespace clusterlens::views
