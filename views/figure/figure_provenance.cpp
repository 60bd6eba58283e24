#include "figure/figure_provenance.hpp"

#include <QRegularExpression>

#include "clusterlens/io/file_hash.hpp"

namespace clusterlens::views {

QString applicationSignature() {
    return QStringLiteral("ClusterLens " CLUSTERLENS_VERSION);
}

DataFileHash hashDataFile(const QString& path) {
    return {path, QString::fromStdString(sha256File(path.toStdString()))};
}

QString shellCommand(const QStringList& words) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    QStringList quoted;
    for (const QString& word : words) {
        if (plain.match(word).hasMatch())
            quoted << word;
        else
            quoted << QLatin1Char('\'') + QString(word).replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
                          QLatin1Char('\'');
    }
    return quoted.join(QLatin1Char(' '));
}

std::vector<std::pair<QString, QString>> provenanceFields(const FigureProvenance& provenance) {
    std::vector<std::pair<QString, QString>> fields;
    if (!provenance.title.isEmpty()) fields.emplace_back(QStringLiteral("Title"), provenance.title);
    fields.emplace_back(QStringLiteral("Software"), applicationSignature());
    if (!provenance.command.isEmpty()) fields.emplace_back(QStringLiteral("Command"), provenance.command);
    QStringList hashes;
    for (const DataFileHash& file : provenance.data) hashes << file.sha256 + QStringLiteral("  ") + file.path;
    if (!hashes.isEmpty()) fields.emplace_back(QStringLiteral("Data SHA-256"), hashes.join(QLatin1Char('\n')));
    return fields;
}

QString provenanceText(const FigureProvenance& provenance) {
    QStringList lines;
    for (const auto& [key, value] : provenanceFields(provenance)) lines << key + QStringLiteral(": ") + value;
    return lines.join(QLatin1Char('\n'));
}

}  // namespace clusterlens::views
