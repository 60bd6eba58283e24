#pragma once
// What the figure regenerate tests share: export a view's figure through the figure dialog as SVG and
// PNG, run the `clusterlens-cli plot` command its metadata carries, and compare the two files.

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QTextStream>
#include <QtTest>

#include "clusterlens/dataset.hpp"

#include "figure/figure_export_dialog.hpp"
#include "figure/figure_export_source.hpp"

namespace clusterlens::test {

inline QString readText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

/// Writes the points of the 2-D `data` to `path` as a CSV of columns x and y, 9 significant digits:
/// read back, the same floats. False when the file cannot be written.
inline bool writeXyCsv(const Dataset& data, const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return false;
    QTextStream out(&file);
    out << "x,y\n";
    for (std::size_t i = 0; i < data.n; ++i)
        out << QString::number(data.values[2 * i], 'g', 9) << ',' << QString::number(data.values[2 * i + 1], 'g', 9)
            << '\n';
    return true;
}

inline QString withoutMetadata(QString svg) {
    const qsizetype from = svg.indexOf(QStringLiteral("<metadata>")), to = svg.indexOf(QStringLiteral("</metadata>"));
    if (from >= 0 && to > from) svg.remove(from, to - from);
    return svg;
}

/// The command in an SVG's metadata (<dc:description>), unescaped.
inline QString metadataCommand(const QString& svg) {
    const auto match = QRegularExpression(QStringLiteral("<dc:description>([^<]*)</dc:description>")).match(svg);
    return match.captured(1)
        .replace(QStringLiteral("&quot;"), QStringLiteral("\""))
        .replace(QStringLiteral("&lt;"), QStringLiteral("<"))
        .replace(QStringLiteral("&gt;"), QStringLiteral(">"))
        .replace(QStringLiteral("&amp;"), QStringLiteral("&"));
}

/// Exports `source` into `folder` as SVG and PNG through the figure dialog (85 mm, 200 dpi), runs the
/// command the file's metadata carries (`plot KIND --session ...`, containing `word`) with the CLI at
/// CLUSTERLENS_CLI and checks that it writes the same SVG (besides the metadata) and the same pixels.
/// `viewOnly` exports only the part in view (the dialog's check box); `dpi` replaces the 200 dpi (a low
/// one makes an image pixel cover several positions of a VAT order).
inline void regenerateAndCompare(const QString& folder, const views::FigureExportSource& source, const QString& tag,
                                 const QString& kind, const QString& word, bool viewOnly = false, int dpi = 200) {
    for (const QString& suffix : {QStringLiteral("svg"), QStringLiteral("png")}) {
        const QString exported = QDir(folder).filePath(tag + QStringLiteral("-gui.") + suffix);
        views::FigureExportDialog dialog(source);
        dialog.setPath(exported);
        dialog.setWidthMillimetres(85.0);
        dialog.setDpi(dpi);
        dialog.setViewOnly(viewOnly);
        QString error;
        QVERIFY2(dialog.exportNow(&error), qPrintable(error));
        // The command as the file carries it: SVG <metadata>, PNG text chunk.
        QString command = suffix == QLatin1String("svg") ? metadataCommand(readText(exported))
                                                         : QImage(exported).text(QStringLiteral("Command"));
        QVERIFY2(command.startsWith(QStringLiteral("clusterlens-cli plot %1 --session ").arg(kind)),
                 qPrintable(command));
        QVERIFY2(command.contains(word), qPrintable(command));
        const QString again = QDir(folder).filePath(tag + QStringLiteral("-cli.") + suffix);
        command.replace(exported, again);
        command.replace(0, QStringLiteral("clusterlens-cli").size(), QStringLiteral(CLUSTERLENS_CLI));
        QProcess shell;
        shell.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command});
        QVERIFY(shell.waitForFinished(60'000));
        QVERIFY2(shell.exitCode() == 0, qPrintable(command + QLatin1Char('\n') + shell.readAllStandardError()));
        if (suffix == QLatin1String("svg")) {
            QCOMPARE(withoutMetadata(readText(again)), withoutMetadata(readText(exported)));
        } else {
            const QImage gui(exported), cli(again);
            QVERIFY(!gui.isNull());
            QCOMPARE(cli.size(), gui.size());
            QVERIFY(cli.convertToFormat(QImage::Format_ARGB32) == gui.convertToFormat(QImage::Format_ARGB32));
        }
    }
}

}  // namespace clusterlens::test
