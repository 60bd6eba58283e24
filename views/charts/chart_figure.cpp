#include "charts/chart_figure.hpp"

#include <QAbstractAxis>
#include <QChart>
#include <QGraphicsScene>
#include <QLegend>
#include <QPainter>

#include <optional>
#include <utility>

namespace clusterlens::views {

namespace {

std::optional<Qt::Alignment> legendAlignment(LegendPosition position) {
    switch (position) {
        case LegendPosition::None:
            return std::nullopt;
        case LegendPosition::Left:
            return Qt::AlignLeft;
        case LegendPosition::Right:
            return Qt::AlignRight;
        case LegendPosition::Bottom:
            return Qt::AlignBottom;
        default:
            return Qt::AlignTop;
    }
}

}  // namespace

ChartFigure::ChartFigure(QString title, ChartAxisTitles titles, std::function<QChart*(const ChartAxisTitles&)> make)
    : m_title(std::move(title)), m_titles(std::move(titles)), m_make(std::move(make)) {}

void ChartFigure::paint(QPainter& painter, const QRectF& area) const {
    paintBackground(painter, area);
    QGraphicsScene scene;  // owns the chart
    QChart* chart =
        m_make({FigureStyle::pick(style().xLabel, m_titles.x), FigureStyle::pick(style().yLabel, m_titles.y)});
    scene.addItem(chart);
    chart->setTitle(title());
    chart->setTitleFont(font(14, true));
    chart->setBackgroundVisible(false);
    chart->setPlotAreaBackgroundVisible(false);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(font(10));
        axis->setTitleFont(font(11, true));
    }
    // A chart that hid its legend (one series of bars) keeps it hidden.
    if (const auto alignment = legendAlignment(legendPosition()); alignment && chart->legend()->isVisible()) {
        chart->legend()->setAlignment(*alignment);
        chart->legend()->setFont(font(10));
    } else {
        chart->legend()->hide();
    }
    const QRectF local(QPointF(0, 0), area.size());
    chart->setGeometry(local);
    scene.setSceneRect(local);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    scene.render(&painter, area, local);
    painter.restore();
}

}  // namespace clusterlens::views
