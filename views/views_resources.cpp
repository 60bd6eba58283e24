#include "views_resources.hpp"

#include <QFile>
#include <QtGlobal>

#include <mutex>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initClusterlensViewsResources() {
    Q_INIT_RESOURCE(clusterlens_views);
}

namespace clusterlens::views {

void ensureViewsResources() {
    static std::once_flag once;
    std::call_once(once, initClusterlensViewsResources);
}

QString shaderSource(const QString& name) {
    ensureViewsResources();
    QFile file(QStringLiteral(":/clusterlens/shaders/") + name);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(file.readAll());
}

}  // namespace clusterlens::views
