#include "wheel_guard.hpp"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

namespace clusterlens::views {
namespace {

bool isValueControl(const QWidget* widget) {
    return qobject_cast<const QComboBox*>(widget) || qobject_cast<const QAbstractSpinBox*>(widget) ||
           qobject_cast<const QAbstractSlider*>(widget);
}

/// The control a wheel event over `widget` would change (a spin box's line edit belongs to the box).
const QWidget* valueControlOf(const QWidget* widget) {
    for (int depth = 0; widget && depth < 2; ++depth, widget = widget->parentWidget())
        if (isValueControl(widget)) return widget;
    return nullptr;
}

}  // namespace

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::Wheel || !watched->isWidgetType()) return QObject::eventFilter(watched, event);
    const QWidget* control = valueControlOf(static_cast<QWidget*>(watched));
    // Scroll bars of scroll areas are sliders too, but they exist to be scrolled.
    if (!control || control->hasFocus() || control->inherits("QScrollBar")) return QObject::eventFilter(watched, event);
    // Qt does not pass a filtered wheel event on to the parents, so hand it to the enclosing scroll
    // area's viewport (which scrolls its bar); without one the turn is dropped, never applied.
    for (QWidget* up = control->parentWidget(); up; up = up->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(up)) {
            QCoreApplication::sendEvent(area->viewport(), event);
            break;
        }
    return true;
}

}  // namespace clusterlens::views
