#include "populations/population_stats.hpp"

#include <fstream>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/atomic_file.hpp"
#include "dpc/dpc_run.hpp"

namespace clusterlens::views {

namespace {

QString csvCell(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString number(double value) {
    return value != value ? QString() : QString::number(value, 'g', 10);
}

}  // namespace

PopulationStatistics populationStatistics(const Session& session, const Dataset& data, const QStringList& markers,
                                          JobControl* control) {
    PopulationStatistics out;
    std::vector<std::size_t> columns;
    for (const QString& marker : markers) {
        const long column = data.featureIndex(marker.toStdString());
        if (column < 0) continue;
        columns.push_back(static_cast<std::size_t>(column));
        out.markers << marker;
    }
    const std::vector<float> matrix = featureMatrix(data, columns);
    for (const Population& population : session.populations) {
        if (control) control->checkCancelled();
        PopulationStatistics::Row row;
        row.name = QString::fromStdString(population.name);
        row.parent = QString::fromStdString(population.parent);
        row.counts = populationCounts(session, population);
        row.medians = memberMedians(matrix.data(), data.n, columns.size(), population.members);
        out.rows.push_back(std::move(row));
    }
    return out;
}

void writeStatisticsCsv(const std::string& path, const PopulationStatistics& statistics) {
    QStringList header{QStringLiteral("name"), QStringLiteral("parent"), QStringLiteral("count"),
                       QStringLiteral("percent_of_parent"), QStringLiteral("percent_of_all")};
    for (const QString& marker : statistics.markers) header << QStringLiteral("median ") + marker;
    QString text;
    for (const QString& cell : header) text += (text.isEmpty() ? QString() : QStringLiteral(",")) + csvCell(cell);
    text += QLatin1Char('\n');
    for (const auto& row : statistics.rows) {
        QStringList cells{csvCell(row.name), csvCell(row.parent), QString::number(row.counts.count),
                          number(row.counts.percentOfParent), number(row.counts.percentOfAll)};
        for (double median : row.medians) cells << number(median);
        text += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    const QByteArray bytes = text.toUtf8();
    writeFileAtomically(path, [&bytes, &path](const std::string& temporary) {
        std::ofstream out(temporary, std::ios::binary);
        out.write(bytes.constData(), bytes.size());
        if (!out.flush()) throw InvalidInput(path + ": could not write the statistics table");
    });
}

}  // namespace clusterlens::views
