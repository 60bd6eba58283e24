#pragma once
// Focus mode of the main window: one view (the central scatter or a view dock) fills the window's
// main area, every other dock is hidden; leaving it brings back the dock layout exactly as it was.
// Entered from the Focus button of a view's header (beside Float and Close), View > Focus <view>,
// Ctrl+Shift+F (the view with the keyboard focus) or a double-click on the header; left by Esc or
// the same button, menu entry, key or double-click.

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace clusterlens::gui {

class FocusMode : public QObject {
    Q_OBJECT
public:
    explicit FocusMode(QMainWindow* window);

    /// Adds "Focus <title>" entries to `menu` for the central widget (`centralTitle`) and each dock,
    /// and listens for double-clicks on those docks' titles.
    void addViews(QMenu* menu, const QString& centralTitle, const QList<QDockWidget*>& docks);
    /// Shows only `view` (the central widget or one of the docks given to addViews). Focusing another
    /// view while one is focused goes through the saved layout, so leaving still restores it.
    void focus(QWidget* view);
    /// Restores the layout saved when focus began; nothing when no view is focused.
    void leave();
    /// The focused view, or null.
    QWidget* focused() const { return m_focused; }
    /// The window's dock layout as the user arranged it: the saved one while a view is focused.
    QByteArray dockState() const;
    /// The action that leaves focus mode (Esc); enabled only while a view is focused.
    QAction* leaveAction() const { return m_leave; }

Q_SIGNALS:
    void focusChanged(QWidget* view);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void toggle(QWidget* view);

    QMainWindow* m_window;
    QList<QDockWidget*> m_docks;
    QPointer<QWidget> m_focused;
    QByteArray m_state;
    QAction* m_leave;
};

}  // namespace clusterlens::gui
