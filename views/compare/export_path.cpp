#include "compare/export_path.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

#include "export_folder.hpp"

namespace clusterlens::views {

namespace {

QString ask(QWidget* parent, const QString& title, const QString& suggestedName, const QString& filters,
            const QStringList& suffixes) {
    const QString dir = lastExportFolder();
    QString selectedFilter;
    QString path =
        QFileDialog::getSaveFileName(parent, title, QDir(dir).filePath(suggestedName), filters, &selectedFilter);
    if (path.isEmpty()) return {};
    if (!suffixes.contains(QFileInfo(path).suffix().toLower())) {
        // The filter reads "Name (*.ext)": take its extension.
        const qsizetype star = selectedFilter.indexOf(QLatin1String("*."));
        const QString suffix =
            star >= 0 ? selectedFilter.mid(star + 2).section(QLatin1Char(')'), 0, 0) : suffixes.first();
        path += QLatin1Char('.') + suffix;
    }
    rememberExportFolder(path);
    return path;
}

}  // namespace

QString askCsvPath(QWidget* parent, const QString& title, const QString& suggestedName) {
    return ask(parent, title, suggestedName, QObject::tr("CSV table (*.csv)"), {QStringLiteral("csv")});
}

void showExportError(QWidget* parent, const QString& message) {
    QMessageBox::warning(parent, QObject::tr("Export failed"), message);
}

}  // namespace clusterlens::views
