#include "charts/chart_builders.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>

namespace clusterlens::views {

namespace {

QChart* newChart() {
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    return chart;
}

QValueAxis* valueAxis(const QString& title, double low, double high) {
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setRange(low, high > low ? high : low + 1.0);
    axis->applyNiceNumbers();
    return axis;
}

// Every series of `chart` on the axes x (bottom) and y (left).
void attachAxes(QChart* chart, QValueAxis* x, QValueAxis* y) {
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
}

}  // namespace

ChartAxisTitles clusterSizeTitles() {
    return {QObject::tr("cluster (left to right in the tree; s1, s2, ... small)"), QObject::tr("events")};
}

ChartAxisTitles mergeProfileTitles() {
    return {QObject::tr("number of clusters"), QObject::tr("merge height")};
}

ChartAxisTitles histogramTitles(const QString& marker) {
    return {marker, QObject::tr("share of the population's events")};
}

QChart* makeClusterSizeChart(const BarChartData& bars, const ChartAxisTitles& titles) {
    QChart* chart = newChart();
    auto* series = new QStackedBarSeries;
    series->setBarWidth(0.8);
    for (std::size_t b = 0; b < bars.values.size(); ++b) {
        auto* set = new QBarSet(bars.categories[static_cast<qsizetype>(b)]);
        for (std::size_t at = 0; at < bars.values.size(); ++at) *set << (at == b ? bars.values[b] : 0.0);
        set->setColor(bars.colours[b]);
        set->setBorderColor(bars.colours[b]);
        series->append(set);
    }
    chart->addSeries(series);
    auto* categories = new QBarCategoryAxis;
    categories->append(bars.categories);
    categories->setTitleText(titles.x);
    chart->addAxis(categories, Qt::AlignBottom);
    series->attachAxis(categories);
    const double top = bars.values.empty() ? 1.0 : *std::max_element(bars.values.begin(), bars.values.end());
    QValueAxis* counts = valueAxis(titles.y, 0.0, top);
    counts->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(counts, Qt::AlignLeft);
    series->attachAxis(counts);
    chart->legend()->hide();
    return chart;
}

QChart* makeMergeProfileChart(const MergeProfile& profile, const ChartAxisTitles& titles) {
    QChart* chart = newChart();
    auto* line = new QLineSeries;
    line->setName(QObject::tr("merge height"));
    double top = 0.0;
    for (const QPointF& p : profile.points) {
        line->append(p);
        top = std::max(top, p.y());
    }
    chart->addSeries(line);
    auto* current = new QScatterSeries;
    current->setName(QObject::tr("current cut"));
    current->setMarkerSize(11);
    current->setColor(QColor(0xd6, 0x27, 0x28));
    for (const QPointF& p : profile.points)
        if (static_cast<int>(p.x()) == profile.current) current->append(p);
    chart->addSeries(current);
    QValueAxis* x = valueAxis(titles.x, 1.0, std::max<double>(2.0, static_cast<double>(profile.points.size())));
    x->setLabelFormat(QStringLiteral("%.0f"));
    QValueAxis* y = valueAxis(titles.y, 0.0, top);
    attachAxes(chart, x, y);
    return chart;
}

QChart* makeHistogramChart(const HistogramData& histogram, const ChartAxisTitles& titles) {
    QChart* chart = newChart();
    double top = 0.0;
    for (const HistogramData::Series& s : histogram.series) {
        auto* line = new QLineSeries;
        line->setName(QStringLiteral("%1 (%2)").arg(s.name).arg(s.count));
        line->setPen(QPen(s.colour, 1.6));
        // Step outline: up and across every bin.
        line->append(histogram.low, 0.0);
        for (int b = 0; b < histogram.bins; ++b) {
            const double left = histogram.low + b * histogram.width, value = s.fractions[static_cast<std::size_t>(b)];
            line->append(left, value);
            line->append(left + histogram.width, value);
            top = std::max(top, value);
        }
        line->append(histogram.low + histogram.bins * histogram.width, 0.0);
        chart->addSeries(line);
    }
    const double high = histogram.low + std::max(1, histogram.bins) * histogram.width;
    QValueAxis* x = valueAxis(titles.x, histogram.low, high);
    QValueAxis* y = valueAxis(titles.y, 0.0, top);
    attachAxes(chart, x, y);
    chart->legend()->setAlignment(Qt::AlignTop);
    return chart;
}

}  // namespace clusterlens::views
