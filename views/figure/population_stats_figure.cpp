#include "figure/population_stats_figure.hpp"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "figure/methods_text.hpp"
#include "palette.hpp"

namespace clusterlens::views {

namespace {

const QColor kStatsTextColor(0x30, 0x30, 0x30);
const QColor kRuleColor(0xd0, 0xd0, 0xd0);
constexpr double kStatsMargin = 8;
constexpr double kIndent = 12;       // per level under a parent
constexpr double kCountColumns = 3;  // events, % of parent, % of all
constexpr double kMinCellWidth = 24;

QString trPopulationStats(const char* text) {
    return QCoreApplication::translate("PopulationStatsFigure", text);
}

/// Levels under the top of each row's population (its parent chain), by row.
std::vector<int> depths(const PopulationStatistics& statistics) {
    std::map<QString, QString> parents;
    for (const auto& row : statistics.rows) parents[row.name] = row.parent;
    std::vector<int> depth;
    for (const auto& row : statistics.rows) {
        int level = 0;
        for (QString parent = row.parent; !parent.isEmpty() && level < 32; parent = parents[parent]) ++level;
        depth.push_back(level);
    }
    return depth;
}

QString statsNumber(double value, int decimals) {
    return std::isnan(value) ? QStringLiteral("\u2013") : QLocale().toString(value, 'f', decimals);
}

}  // namespace

PopulationStatsFigure::PopulationStatsFigure(std::shared_ptr<const PopulationStatistics> statistics)
    : m_statistics(std::move(statistics)) {
    const auto markers = static_cast<std::size_t>(m_statistics->markers.size());
    m_low.assign(markers, std::numeric_limits<double>::infinity());
    m_high.assign(markers, -std::numeric_limits<double>::infinity());
    for (const auto& row : m_statistics->rows)
        for (std::size_t j = 0; j < markers && j < row.medians.size(); ++j)
            if (!std::isnan(row.medians[j])) {
                m_low[j] = std::min(m_low[j], row.medians[j]);
                m_high[j] = std::max(m_high[j], row.medians[j]);
            }
}

QString PopulationStatsFigure::ownTitle() const {
    return trPopulationStats("Population statistics");
}

QSize PopulationStatsFigure::defaultSize() const {
    const int columns = static_cast<int>(kCountColumns) + static_cast<int>(m_statistics->markers.size());
    return {std::clamp(200 + 56 * columns, 480, 1400),
            std::clamp(120 + 22 * static_cast<int>(m_statistics->rows.size()), 240, 1200)};
}

QColor PopulationStatsFigure::medianColor(double t) {
    if (std::isnan(t)) return Qt::white;
    // Faded towards white, so the numbers written on the cells stay readable.
    const QColor hue = Palette::colormap(t);
    const auto mix = [](int channel) { return static_cast<int>(std::lround(255.0 + 0.75 * (channel - 255.0))); };
    return QColor(mix(hue.red()), mix(hue.green()), mix(hue.blue()));
}

double PopulationStatsFigure::nameColumnWidth() const {
    const QFontMetricsF metrics(font(10));
    const std::vector<int> depth = depths(*m_statistics);
    double width = metrics.horizontalAdvance(trPopulationStats("Population"));
    for (std::size_t r = 0; r < m_statistics->rows.size(); ++r)
        width = std::max(width, depth[r] * kIndent + metrics.horizontalAdvance(m_statistics->rows[r].name));
    return width + 8;
}

void PopulationStatsFigure::paint(QPainter& painter, const QRectF& area) const {
    painter.save();
    paintBackground(painter, area);
    const QFont titleFont = font(14, true);
    const QFontMetricsF title(titleFont), small(font(10));
    painter.setPen(kStatsTextColor);
    painter.setFont(titleFont);
    const QRectF titleLine(area.left() + kStatsMargin, area.top() + kStatsMargin, area.width() - 2 * kStatsMargin,
                           title.height());
    painter.drawText(titleLine, Qt::AlignHCenter | Qt::AlignVCenter,
                     title.elidedText(this->title(), Qt::ElideMiddle, titleLine.width()));
    const QRectF table(area.left() + kStatsMargin, titleLine.bottom() + 8, area.width() - 2 * kStatsMargin,
                       area.bottom() - titleLine.bottom() - 8 - kStatsMargin - small.height() - 4);
    const double nameWidth = std::min(nameColumnWidth(), table.width() / 3);
    const double columns = kCountColumns + static_cast<double>(m_statistics->markers.size());
    const double cellWidth = std::max(kMinCellWidth, (table.width() - nameWidth) / columns);
    paintHeader(painter, table, nameWidth, cellWidth);
    const double headerHeight = 2 * small.height() + 6;
    const double rowHeight = m_statistics->rows.empty()
                                 ? 0.0
                                 : std::min(small.height() + 8, (table.height() - headerHeight) /
                                                                    static_cast<double>(m_statistics->rows.size()));
    for (std::size_t r = 0; r < m_statistics->rows.size(); ++r)
        paintRow(painter, r,
                 QRectF(table.left(), table.top() + headerHeight + static_cast<double>(r) * rowHeight, table.width(),
                        rowHeight),
                 nameWidth, cellWidth);
    painter.setFont(font(10));
    painter.setPen(kStatsTextColor);
    painter.drawText(
        QRectF(table.left(), area.bottom() - kStatsMargin - small.height(), table.width(), small.height()),
        Qt::AlignLeft | Qt::AlignVCenter,
        small.elidedText(trPopulationStats("Medians of the data as read; each marker's colours run from its lowest "
                                           "(dark) to its highest (yellow) median."),
                         Qt::ElideRight, table.width()));
    painter.restore();
}

void PopulationStatsFigure::paintHeader(QPainter& painter, const QRectF& table, double nameWidth,
                                        double cellWidth) const {
    QStringList headers = {trPopulationStats("Events"), trPopulationStats("% parent"), trPopulationStats("% all")};
    for (const QString& marker : m_statistics->markers) headers << marker;
    // One size for every header, small enough that each word fits its column (two lines at most).
    double widest = 1.0;
    const QFontMetricsF full(font(10, true));
    for (const QString& header : headers)
        for (const QString& word : header.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            widest = std::max(widest, full.horizontalAdvance(word));
    const QFont bold = font(10 * std::clamp((cellWidth - 4) / widest, 0.6, 1.0), true);
    const QFontMetricsF metrics(bold);
    painter.setFont(bold);
    painter.setPen(kStatsTextColor);
    const double height = 2 * full.height() + 2;
    painter.drawText(QRectF(table.left(), table.top(), nameWidth, height), Qt::AlignLeft | Qt::AlignBottom,
                     trPopulationStats("Population"));
    for (qsizetype c = 0; c < headers.size(); ++c) {
        const QRectF cell(table.left() + nameWidth + static_cast<double>(c) * cellWidth, table.top(), cellWidth,
                          height);
        painter.drawText(cell.adjusted(1, 0, -1, 0), Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, headers[c]);
    }
    painter.setPen(QPen(kStatsTextColor, 1.0));
    painter.drawLine(QPointF(table.left(), table.top() + height + 2), QPointF(table.right(), table.top() + height + 2));
}

void PopulationStatsFigure::paintRow(QPainter& painter, std::size_t row, const QRectF& line, double nameWidth,
                                     double cellWidth) const {
    const PopulationStatistics::Row& r = m_statistics->rows[row];
    const QFont small = font(10);
    const QFontMetricsF metrics(small);
    painter.setFont(small);
    const double indent = depths(*m_statistics)[row] * kIndent;
    painter.setPen(kStatsTextColor);
    painter.drawText(QRectF(line.left() + indent, line.top(), nameWidth - indent, line.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, metrics.elidedText(r.name, Qt::ElideRight, nameWidth - indent));
    const QStringList counts = {QLocale().toString(static_cast<qulonglong>(r.counts.count)),
                                statsNumber(r.counts.percentOfParent, 1), statsNumber(r.counts.percentOfAll, 1)};
    double x = line.left() + nameWidth;
    for (const QString& text : counts) {
        painter.drawText(QRectF(x, line.top(), cellWidth - 4, line.height()), Qt::AlignRight | Qt::AlignVCenter, text);
        x += cellWidth;
    }
    const bool written = line.height() >= metrics.height();
    for (std::size_t j = 0; j < r.medians.size() && j < m_low.size(); ++j, x += cellWidth) {
        const double median = r.medians[j];
        const double span = m_high[j] - m_low[j];
        const double t = std::isnan(median) ? median : span > 0 ? (median - m_low[j]) / span : 0.5;
        const QRectF cell(x + 1, line.top() + 1, cellWidth - 2, line.height() - 2);
        painter.fillRect(cell, medianColor(t));
        const QString text = QLocale().toString(median, 'g', 3);
        if (!written || std::isnan(median) || metrics.horizontalAdvance(text) + 4 > cell.width()) continue;
        painter.setPen(medianColor(t).lightness() < 128 ? Qt::white : Qt::black);
        painter.drawText(cell, Qt::AlignCenter, text);
    }
    painter.setPen(QPen(kRuleColor, 0.5));
    painter.drawLine(line.bottomLeft(), line.bottomRight());
}

FigureExportSource populationStatisticsSource(std::shared_ptr<const PopulationStatistics> statistics,
                                              const Dataset& dataset, const QString& sessionPath) {
    FigureExportSource source;
    if (!statistics || statistics->rows.empty()) return source;
    source.title = trPopulationStats("Export population statistics");
    source.name = trPopulationStats("Population statistics");
    source.suggestedName = QStringLiteral("population_statistics");
    source.figure = [statistics](bool) -> std::unique_ptr<Figure> {
        return std::make_unique<PopulationStatsFigure>(statistics);
    };
    source.command =
        QStringList{QStringLiteral("clusterlens-cli"), QStringLiteral("plot"), QStringLiteral("populations")} +
        datasetInputWords(dataset) +
        QStringList{QStringLiteral("--session"),
                    sessionPath.isEmpty() ? QStringLiteral("SESSION.clusterlens") : sessionPath,
                    QStringLiteral("--markers"), statistics->markers.join(QLatin1Char(','))};
    source.dataFiles = {QString::fromStdString(dataset.provenance.path)};
    source.methods =
        methodsText(QStringLiteral("Populations were gated in ClusterLens; the table gives each population's event "
                                   "count, its share of its parent population and of all %1 events, and the median "
                                   "of each marker over its events (values as read, before any display transform).")
                        .arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(dataset.n))),
                    {});
    return source;
}

}  // namespace clusterlens::views
