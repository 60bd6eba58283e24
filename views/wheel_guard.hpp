#pragma once
// Scrolling a dock must scroll the dock: a wheel turn over a combo box, spin box or slider that the
// user has not clicked into would otherwise change an analysis setting unseen (the a-priori choice
// switched to k-means by scrolling past it).

#include <QObject>

namespace clusterlens::views {

/// Application-wide event filter: wheel events over a QComboBox, QAbstractSpinBox or QAbstractSlider
/// without keyboard focus go to the enclosing scroll area instead of the control. Install once with
/// QApplication::installEventFilter.
class WheelGuard : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace clusterlens::views
