#include "export_folder.hpp"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace clusterlens::views {
namespace {

const QString kLastFolderKey = QStringLiteral("export/lastDirectory");

}  // namespace

QString lastExportFolder() {
    return QSettings().value(kLastFolderKey, QDir::homePath()).toString();
}

void rememberExportFolder(const QString& savedFile) {
    QSettings().setValue(kLastFolderKey, QFileInfo(savedFile).absolutePath());
}

}  // namespace clusterlens::views
