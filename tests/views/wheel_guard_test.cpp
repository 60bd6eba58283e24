// WheelGuard: a wheel turn over an unfocused combo box or spin box in a scrolled panel scrolls the
// panel and leaves the setting alone; once the user clicks into the control, the wheel changes it.

#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QWheelEvent>

#include "gui_test_main.hpp"
#include "wheel_guard.hpp"

using namespace clusterlens::views;

class WheelGuardTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void wheelOverAnUnfocusedComboScrollsThePanel();
    void wheelOverAnUnfocusedSpinBoxScrollsThePanel();
    void wheelOverAFocusedComboChangesIt();

private:
    /// One notch down over `widget`, delivered as Qt delivers a real one (through the application).
    static void turnWheelDown(QWidget* widget);

    WheelGuard m_guard;
    QScrollArea* m_area = nullptr;
    QComboBox* m_combo = nullptr;
    QSpinBox* m_spin = nullptr;
};

void WheelGuardTest::init() {
    qApp->installEventFilter(&m_guard);
    m_area = new QScrollArea;
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    m_combo = new QComboBox;
    m_combo->addItems({QStringLiteral("none"), QStringLiteral("k-means"), QStringLiteral("file")});
    m_spin = new QSpinBox;
    m_spin->setRange(0, 100);
    m_spin->setValue(50);
    layout->addWidget(m_combo);
    layout->addWidget(m_spin);
    layout->addSpacing(3000);  // taller than the area: it can scroll
    m_area->setWidget(panel);
    m_area->resize(300, 200);
    m_area->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_area));
}

void WheelGuardTest::cleanup() {
    qApp->removeEventFilter(&m_guard);
    delete m_area;
}

void WheelGuardTest::turnWheelDown(QWidget* widget) {
    const QPointF at(widget->width() / 2.0, widget->height() / 2.0);
    QWheelEvent wheel(at, widget->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(widget, &wheel);
}

void WheelGuardTest::wheelOverAnUnfocusedComboScrollsThePanel() {
    const int before = m_area->verticalScrollBar()->value();
    turnWheelDown(m_combo);
    QCOMPARE(m_combo->currentIndex(), 0);
    QVERIFY(m_area->verticalScrollBar()->value() > before);
}

void WheelGuardTest::wheelOverAnUnfocusedSpinBoxScrollsThePanel() {
    const int before = m_area->verticalScrollBar()->value();
    turnWheelDown(m_spin);
    QCOMPARE(m_spin->value(), 50);
    QVERIFY(m_area->verticalScrollBar()->value() > before);
}

void WheelGuardTest::wheelOverAFocusedComboChangesIt() {
    m_area->activateWindow();
    m_combo->setFocus();
    QTRY_VERIFY(m_combo->hasFocus());
    turnWheelDown(m_combo);
    QCOMPARE(m_combo->currentIndex(), 1);
}

CLUSTERLENS_GUI_TEST_MAIN(WheelGuardTest)
#include "wheel_guard_test.moc"
