#pragma once
// A Qt Charts chart as a publication figure: the chart is built anew for each export and rendered
// through a QGraphicsScene into the figure's painter, so SVG and PDF get vector paths and real text
// like every other figure. The style's title, axis labels, font scale, legend and background apply.

#include <QString>

#include <functional>

#include "charts/chart_builders.hpp"
#include "figure/figure.hpp"

namespace clusterlens::views {

class ChartFigure : public Figure {
public:
    /// `make` builds the chart with the axis titles it is given (the style's, else `titles`).
    ChartFigure(QString title, ChartAxisTitles titles, std::function<QChart*(const ChartAxisTitles&)> make);

    void paint(QPainter& painter, const QRectF& area) const override;
    QSize defaultSize() const override { return {640, 420}; }
    QString ownTitle() const override { return m_title; }
    LegendPosition preferredLegend() const override { return LegendPosition::Top; }

private:
    QString m_title;
    ChartAxisTitles m_titles;
    std::function<QChart*(const ChartAxisTitles&)> m_make;
};

}  // namespace clusterlens::views
