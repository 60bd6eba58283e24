#include "app_resources.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <mutex>

// Q_INIT_RESOURCE must be used outside any namespace; the resources live in a static library.
static void initClusterlensResources() {
    Q_INIT_RESOURCE(clusterlens);
}

namespace clusterlens::gui {

namespace {

const QString kDemoName = QStringLiteral("aria_facs_6052.csv");

}  // namespace

void ensureAppResources() {
    static std::once_flag once;
    std::call_once(once, initClusterlensResources);
}

QString demoDatasetPath(QString* error) {
    const QString installed = QStringLiteral(CLUSTERLENS_INSTALLED_DEMO_DIR "/") + kDemoName;
    if (QFileInfo(installed).isReadable()) return installed;

    ensureAppResources();
    QFile bundled(QStringLiteral(":/clusterlens/demo/") + kDemoName);
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/demo");
    const QString target = folder + QLatin1Char('/') + kDemoName;
    const QFileInfo existing(target);
    // The reader needs a real file; reuse an earlier extraction when it is complete.
    if (existing.isReadable() && existing.size() == bundled.size()) return target;
    QFile::remove(target);
    if (!QDir().mkpath(folder) || !bundled.copy(target)) {
        if (error)
            *error = QStringLiteral("Could not write the demo dataset to %1: %2").arg(target, bundled.errorString());
        return {};
    }
    QFile::setPermissions(
        target, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther);
    return target;
}

}  // namespace clusterlens::gui
