#pragma once
// The population statistics as a publication figure: one row per population (indented under its
// parent) with its event count, % of parent and % of all events, then the median of each marker in a
// cell coloured by where it lies between that marker's lowest and highest median (viridis), the value
// written in when the cell is wide enough. The Populations dock exports it through the figure dialog
// and `clusterlens-cli plot populations INPUT --session FILE` draws it headless.

#include <QString>
#include <QStringList>

#include <memory>

#include "clusterlens/dataset.hpp"
#include "figure/figure.hpp"
#include "figure/figure_export_source.hpp"
#include "populations/population_stats.hpp"

namespace clusterlens::views {

class PopulationStatsFigure : public Figure {
public:
    explicit PopulationStatsFigure(std::shared_ptr<const PopulationStatistics> statistics);

    void paint(QPainter& painter, const QRectF& area) const override;
    QSize defaultSize() const override;
    QString ownTitle() const override;

    /// The colour of a median at `t` in [0, 1] of its marker's range (NaN: an empty population, white).
    static QColor medianColor(double t);

private:
    double nameColumnWidth() const;
    void paintHeader(QPainter& painter, const QRectF& table, double nameWidth, double cellWidth) const;
    void paintRow(QPainter& painter, std::size_t row, const QRectF& line, double nameWidth, double cellWidth) const;

    std::shared_ptr<const PopulationStatistics> m_statistics;
    std::vector<double> m_low, m_high;  ///< per marker: the lowest and highest median
};

/// What the figure dialog needs for the statistics of `dataset`'s events (the data as read, whose file
/// is hashed) in the session saved at `sessionPath`: the figure and `clusterlens-cli plot populations`
/// with the data's input words, the session and the markers.
FigureExportSource populationStatisticsSource(std::shared_ptr<const PopulationStatistics> statistics,
                                              const Dataset& dataset, const QString& sessionPath);

}  // namespace clusterlens::views
