#include "recent_files.hpp"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace clusterlens::gui {

RecentFiles::RecentFiles(QMenu* menu, QObject* parent, const QString& key) : QObject(parent), m_menu(menu), m_key(key) {
    rebuildMenu();
}

QStringList RecentFiles::paths() const {
    return QSettings().value(m_key).toStringList();
}

void RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = paths();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > maxEntries) list.removeLast();
    save(list);
}

void RecentFiles::remove(const QString& path) {
    QStringList list = paths();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    save(list);
}

void RecentFiles::save(const QStringList& list) {
    QSettings().setValue(m_key, list);
    rebuildMenu();
}

void RecentFiles::rebuildMenu() {
    m_menu->clear();
    const QStringList list = paths();
    for (int i = 0; i < list.size(); ++i) {
        const QString& path = list[i];
        // &1..&9 give keyboard accelerators; the full path is in the status tip.
        const QString text =
            i < 9 ? QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(path).fileName()) : QFileInfo(path).fileName();
        QAction* action = m_menu->addAction(text);
        action->setStatusTip(QDir::toNativeSeparators(path));
        action->setToolTip(QDir::toNativeSeparators(path));
        connect(action, &QAction::triggered, this, [this, path] { Q_EMIT openRequested(path); });
    }
    if (!list.isEmpty()) {
        m_menu->addSeparator();
        connect(m_menu->addAction(tr("Clear list")), &QAction::triggered, this, [this] { save({}); });
    }
    m_menu->setEnabled(!list.isEmpty());
}

}  // namespace clusterlens::gui
