#include "figure/figure_export_source.hpp"

#include "analysis_session.hpp"
#include "clusterlens/errors.hpp"
#include "colour_strip_chooser.hpp"
#include "colouring_combo.hpp"
#include "marker_scale.hpp"
#include "session/session_recorder.hpp"

namespace clusterlens::views {

namespace {

QString shortestNumber(double v) {
    return QString::number(v, 'g', 6);
}

QString& sessionFile() {
    static QString path;
    return path;
}

}  // namespace

void setFigureSessionFile(const QString& path) {
    sessionFile() = path;
}

QString figureSessionFile() {
    return sessionFile();
}

QStringList regenerateCommand(const FigureExportSource& source) {
    // "clusterlens-cli plot KIND" then the session, then the kind's options.
    if (source.sessionCommand.size() < 3 || sessionFile().isEmpty()) return source.command;
    return source.sessionCommand.mid(0, 3) + QStringList{QStringLiteral("--session"), sessionFile()} +
           source.sessionCommand.mid(3);
}

QString regenerateShellText(const FigureExportSource& source, const QStringList& options) {
    const QStringList command = regenerateCommand(source);
    if (command.isEmpty()) return {};
    const QString text = shellCommand(command + options);
    return source.prelude.isEmpty() || command != source.command ? text
                                                                 : source.prelude + QStringLiteral(" && ") + text;
}

QStringList datasetInputWords(const Dataset& dataset, const QStringList& columns) {
    QStringList words = {QString::fromStdString(dataset.provenance.path)};
    QStringList kept = columns;
    QString transform, subsample;
    bool compensate = false;
    for (const std::string& step : dataset.provenance.steps) {
        const QString text = QString::fromStdString(step);
        const QString inside = text.section(QLatin1Char('('), 1).chopped(1);
        if (text.startsWith(QLatin1String("compensation("))) compensate = true;
        if (text.startsWith(QLatin1String("columns(")) && columns.isEmpty()) kept = inside.split(QLatin1Char(','));
        if (text.startsWith(QLatin1String("asinh(cofactor="))) transform = QStringLiteral("asinh:") + inside.mid(9);
        if (text == QLatin1String("zscore")) transform = text;
        if (text.startsWith(QLatin1String("subsample("))) subsample = inside;
    }
    if (compensate) words << QStringLiteral("--compensate");
    if (!kept.isEmpty()) words << QStringLiteral("--columns") << kept.join(QLatin1Char(','));
    if (!transform.isEmpty()) words << QStringLiteral("--transform") << transform;
    if (!subsample.isEmpty())  // "m, seed=s"
        words << QStringLiteral("--subsample") << subsample.section(QLatin1Char(','), 0, 0).trimmed()
              << QStringLiteral("--seed") << subsample.section(QLatin1Char('='), 1).trimmed();
    return words;
}

QStringList stripWords(const ColourStripChooser& chooser, const AnalysisSession& analysis, const Dataset* dataset,
                       bool sessionForm) {
    QStringList words;
    for (int slot = 0; slot < maxColourStrips; ++slot) {
        const ColouringCombo* combo = chooser.combo(slot);
        const QString name = combo->name();
        if (combo->mode() == ColourMode::Labels && analysis.labeling(name)) {
            const bool populations = name == SessionRecorder::populationsLabeling();
            words << QStringLiteral("--strip")
                  << (populations && sessionForm ? QStringLiteral("populations")
                      : sessionForm              ? name
                                                 : resultFileName(name));
        } else if (combo->mode() == ColourMode::Marker && dataset && markerColumn(*dataset, name) >= 0) {
            words << QStringLiteral("--strip") << QStringLiteral("marker:") + name;
        }
    }
    return words;
}

QString resultFileName(const QString& name, const QString& suffix) {
    QString file;
    for (QChar c : name) {
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('.'))
            file += c;
        else if (!file.endsWith(QLatin1Char('_')))
            file += QLatin1Char('_');
    }
    while (file.endsWith(QLatin1Char('_'))) file.chop(1);
    return (file.isEmpty() ? QStringLiteral("result") : file) + QLatin1Char('.') + suffix;
}

QStringList plotOptionWords(const QString& path, const FigureExportOptions& options, const FigureStyle& style) {
    QStringList words = {QStringLiteral("--out"), path};
    const bool mm = options.unit == FigureUnit::Millimetres;
    if (options.size.width() > 0)
        words << (mm ? QStringLiteral("--width-mm") : QStringLiteral("--width"))
              << shortestNumber(options.size.width());
    if (options.size.height() > 0)
        words << (mm ? QStringLiteral("--height-mm") : QStringLiteral("--height"))
              << shortestNumber(options.size.height());
    words << QStringLiteral("--dpi") << QString::number(options.dpi);
    if (!style.title.isEmpty()) words << QStringLiteral("--title") << style.title;
    if (!style.xLabel.isEmpty()) words << QStringLiteral("--x-label") << style.xLabel;
    if (!style.yLabel.isEmpty()) words << QStringLiteral("--y-label") << style.yLabel;
    if (style.palette != PaletteKind::Tableau)
        words << QStringLiteral("--palette") << Palette::paletteName(style.palette);
    if (style.fontScale != 1.0) words << QStringLiteral("--font-scale") << shortestNumber(style.fontScale);
    if (style.legend != LegendPosition::Auto) words << QStringLiteral("--legend") << legendPositionName(style.legend);
    if (style.transparent) words << QStringLiteral("--background") << QStringLiteral("transparent");
    return words;
}

FigureProvenance provenanceOf(const FigureExportSource& source, const QString& path, const FigureExportOptions& options,
                              const FigureStyle& style, bool viewOnly) {
    FigureProvenance provenance;
    if (source.commandOf) {
        provenance.command = source.commandOf(path, options, style, viewOnly);
    } else {
        const QStringList view = viewOnly ? source.viewOptions : QStringList();
        provenance.command = regenerateShellText(source, view + plotOptionWords(path, options, style));
    }
    QStringList files = source.dataFiles;
    if (regenerateCommand(source) != source.command) files << sessionFile();
    for (const QString& file : files) {
        try {
            provenance.data.push_back(hashDataFile(file));
        } catch (const InvalidInput&) {
            // A data file moved or deleted since it was read: the figure still exports, without its hash.
        }
    }
    return provenance;
}

}  // namespace clusterlens::views
