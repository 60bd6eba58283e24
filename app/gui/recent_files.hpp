#pragma once
// A File > Open Recent menu, persisted in QSettings under its key (data files: "files/recent",
// sessions: "sessions/recent"), newest first.

#include <QObject>
#include <QString>
#include <QStringList>

class QMenu;

namespace clusterlens::gui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int maxEntries = 10;

    /// Fills `menu` now and after every change.
    explicit RecentFiles(QMenu* menu, QObject* parent = nullptr, const QString& key = QStringLiteral("files/recent"));

    void add(const QString& path);
    void remove(const QString& path);
    QStringList paths() const;

Q_SIGNALS:
    void openRequested(const QString& path);

private:
    void save(const QStringList& paths);
    void rebuildMenu();

    QMenu* m_menu;
    QString m_key;
};

}  // namespace clusterlens::gui
