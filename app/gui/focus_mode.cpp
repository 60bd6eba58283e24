#include "focus_mode.hpp"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMouseEvent>
#include <QStyle>
#include <QToolButton>

#include <functional>

namespace clusterlens::gui {

namespace {

QToolButton* titleButton(QWidget* bar, QStyle::StandardPixmap icon, const QString& tip) {
    auto* button = new QToolButton(bar);
    button->setIcon(bar->style()->standardIcon(icon, nullptr, bar));
    button->setToolTip(tip);
    button->setAutoRaise(true);
    button->setIconSize(QSize(12, 12));
    return button;
}

/// A view dock's header: its title, then Focus, Float and Close buttons. Dragging and double-clicks
/// reach the dock as with Qt's own title bar.
QWidget* viewTitleBar(QDockWidget* dock, const std::function<void()>& focus) {
    auto* bar = new QWidget(dock);
    auto* title = new QLabel(dock->windowTitle(), bar);
    QObject::connect(dock, &QDockWidget::windowTitleChanged, title, &QLabel::setText);
    QToolButton* focusButton = titleButton(bar, QStyle::SP_TitleBarMaxButton,
                                           FocusMode::tr("Focus: fill the window with this view (Esc returns)"));
    focusButton->setObjectName(QStringLiteral("FocusButton"));
    QObject::connect(focusButton, &QToolButton::clicked, bar, focus);
    QToolButton* floatButton = titleButton(bar, QStyle::SP_TitleBarNormalButton, FocusMode::tr("Float"));
    QObject::connect(floatButton, &QToolButton::clicked, dock, [dock] { dock->setFloating(!dock->isFloating()); });
    QToolButton* closeButton = titleButton(bar, QStyle::SP_TitleBarCloseButton, FocusMode::tr("Close"));
    QObject::connect(closeButton, &QToolButton::clicked, dock, &QDockWidget::close);
    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(6, 1, 2, 1);
    layout->setSpacing(0);
    layout->addWidget(title, 1);
    for (QToolButton* button : {focusButton, floatButton, closeButton}) layout->addWidget(button);
    return bar;
}

}  // namespace

FocusMode::FocusMode(QMainWindow* window)
    : QObject(window), m_window(window), m_leave(new QAction(tr("Leave focus"), this)) {
    m_leave->setObjectName(QStringLiteral("LeaveFocusAction"));
    m_leave->setShortcut(Qt::Key_Escape);
    m_leave->setShortcutContext(Qt::WindowShortcut);
    // Esc belongs to the views (ending a rectangle, clearing a selection) except in focus mode.
    m_leave->setEnabled(false);
    window->addAction(m_leave);
    connect(m_leave, &QAction::triggered, this, &FocusMode::leave);
}

void FocusMode::addViews(QMenu* menu, const QString& centralTitle, const QList<QDockWidget*>& docks) {
    const auto addEntry = [this, menu](QWidget* view, const QString& title) {
        QAction* action = menu->addAction(tr("Focus %1").arg(title));
        action->setObjectName(QStringLiteral("Focus%1Action").arg(view->objectName()));
        action->setCheckable(true);
        connect(action, &QAction::triggered, this, [this, view] { toggle(view); });
        connect(this, &FocusMode::focusChanged, action,
                [action, view](QWidget* focused) { action->setChecked(focused == view); });
    };
    addEntry(m_window->centralWidget(), centralTitle);
    for (QDockWidget* dock : docks) {
        m_docks.append(dock);
        dock->installEventFilter(this);
        dock->setTitleBarWidget(viewTitleBar(dock, [this, dock] { toggle(dock); }));
        addEntry(dock, dock->windowTitle());
    }
    // The keyboard's way in: the view that has the keyboard focus (the scatter when no view has it).
    QAction* active = menu->addAction(tr("Focus the active view"), this, [this] {
        QWidget* view = m_window->centralWidget();
        for (QDockWidget* dock : m_docks)
            if (dock->isAncestorOf(QApplication::focusWidget())) view = dock;
        toggle(view);
    });
    active->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_F);
    menu->addAction(m_leave);
}

void FocusMode::toggle(QWidget* view) {
    if (m_focused == view)
        leave();
    else
        focus(view);
}

void FocusMode::focus(QWidget* view) {
    if (!view || m_focused == view) return;
    leave();
    m_state = m_window->saveState();
    auto* target = qobject_cast<QDockWidget*>(view);
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
        if (dock != target) dock->hide();
    if (target) {
        if (target->isFloating()) target->setFloating(false);
        target->show();
        target->raise();
        // Without a visible central widget the docks share the whole main area.
        m_window->centralWidget()->hide();
    }
    m_focused = view;
    m_leave->setEnabled(true);
    Q_EMIT focusChanged(view);
}

void FocusMode::leave() {
    if (!m_focused) return;
    m_window->centralWidget()->show();
    m_window->restoreState(m_state);
    m_focused = nullptr;
    m_state.clear();
    m_leave->setEnabled(false);
    Q_EMIT focusChanged(nullptr);
}

QByteArray FocusMode::dockState() const {
    return m_focused ? m_state : m_window->saveState();
}

bool FocusMode::eventFilter(QObject* watched, QEvent* event) {
    auto* dock = qobject_cast<QDockWidget*>(watched);
    if (event->type() != QEvent::MouseButtonDblClick || !dock || !dock->widget() || !m_docks.contains(dock))
        return QObject::eventFilter(watched, event);
    // Only the title bar, above the dock's widget; a double-click there used to float the dock.
    const auto* mouse = static_cast<QMouseEvent*>(event);
    if (mouse->position().y() >= dock->widget()->geometry().top()) return QObject::eventFilter(watched, event);
    toggle(dock);
    return true;
}

}  // namespace clusterlens::gui
