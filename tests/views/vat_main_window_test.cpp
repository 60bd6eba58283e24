// The VAT/iVAT page in the real main window on the bundled demo dataset (6052 flow-cytometry events):
// the VAT job runs on the dataset panel's active features, the iVAT image settles on screen, the status
// bar and the log say how frames reach the screen, the k largest cuts colour the data scatter through
// the analysis session, a diagonal block selects those points in the scatter, and the VAT menu toggles
// VAT/iVAT. With CLUSTERLENS_SCREENSHOTS=1 the window showing the iVAT of three spirals (SIPU) is saved
// to docs/screenshots/vat_ivat.png.

#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>

#include <algorithm>
#include <cstdio>

#include "analysis_session.hpp"
#include "dataset_session.hpp"
#include "gui_test_main.hpp"
#include "log_panel.hpp"
#include "main_window.hpp"
#include "scatter/scatter_widget.hpp"
#include "vat/vat_panel.hpp"
#include "vat/vat_widget.hpp"
#include "window_grab.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;

namespace {

constexpr int kTimeoutMs = 120'000;

QAction* menuAction(MainWindow& window, const QString& menuTitle, const QString& text) {
    for (QAction* menu : window.menuBar()->actions())
        if (menu->text() == menuTitle && menu->menu())
            for (QAction* action : menu->menu()->actions())
                if (action->text() == text) return action;
    return nullptr;
}

}  // namespace

/// The dock that holds `widget` (the VAT panel sits in a scroll area inside its dock).
QDockWidget* dockOf(QWidget* widget) {
    for (QWidget* w = widget; w != nullptr; w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w)) return dock;
    return nullptr;
}

class VatMainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { m_window.reset(); }
    void vatJobShowsTheIvatImage();
    void cutsColourTheDataScatter();
    void diagonalBlockIsSelectedInTheScatter();
    void menuTogglesVatAndIvat();
    void undockingRecreatesTheGlResources();
    void screenshotOfSpirals();

private:
    std::unique_ptr<MainWindow> m_window;
};

void VatMainWindowTest::initTestCase() {
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1600, 1000);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QSignalSpy drawn(m_window->scatter(), &ScatterWidget::dataDrawn);
    m_window->openDemo();
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kTimeoutMs);
}

void VatMainWindowTest::vatJobShowsTheIvatImage() {
    VatPanel* panel = m_window->vatPanel();
    QVERIFY(panel);
    auto* dock = dockOf(panel);
    QVERIFY(dock);
    QSignalSpy shown(panel, &VatPanel::resultShown);
    QSignalSpy failed(panel, &VatPanel::failed);
    panel->setBackend(Backend::Cpu);
    QAction* compute = menuAction(*m_window, QStringLiteral("V&AT"), QStringLiteral("&Compute VAT order"));
    QVERIFY(compute);
    compute->trigger();
    QVERIFY(panel->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0 || failed.count() > 0, kTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(panel->lastRun()->n(), std::size_t{6052});
    QVERIFY(dock->isVisible());
    VatWidget* widget = panel->widget();
    QTRY_VERIFY_WITH_TIMEOUT(widget->isSettled(), kTimeoutMs);
    QCOMPARE(widget->shownViewport().kind, VatImageKind::Ivat);

    auto* path = m_window->findChild<QLabel*>(QStringLiteral("VatRenderPath"));
    QVERIFY(path);
    QCOMPARE(path->text(),
             widget->usesInterop() ? QStringLiteral("VAT: CUDA\u2013GL interop") : QStringLiteral("VAT: host upload"));
    QVERIFY(path->toolTip().contains(widget->glRenderer()));
    QVERIFY(m_window->logPanel()->text().contains(QStringLiteral("VAT frames:")));
}

void VatMainWindowTest::cutsColourTheDataScatter() {
    VatPanel* panel = m_window->vatPanel();
    panel->setClusterCount(3);
    QCOMPARE(m_window->analysis()->colouring(), QStringLiteral("VAT cuts (k=3)"));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->scatter()->data() && m_window->scatter()->data()->mode == ColourMode::Labels,
                             kTimeoutMs);
    QCOMPARE(m_window->scatter()->data()->labelValues, (std::vector<int>{0, 1, 2}));
    QCOMPARE(panel->widget()->cutBoundaries().size(), std::size_t{2});
}

void VatMainWindowTest::diagonalBlockIsSelectedInTheScatter() {
    VatWidget* widget = m_window->vatPanel()->widget();
    QSignalSpy selected(m_window->scatter(), &ScatterWidget::selectionChanged);
    Q_EMIT widget->blockSelected(100, 1099);
    QTRY_VERIFY_WITH_TIMEOUT(selected.count() > 0, kTimeoutMs);
    const QList<qsizetype>& rows = m_window->scatter()->selection();
    QCOMPARE(rows.size(), 1000);
    const VatRun& run = *m_window->vatPanel()->lastRun();
    QVERIFY(std::all_of(rows.begin(), rows.end(), [&run](qsizetype row) {
        const std::int64_t p = run.rank[static_cast<std::size_t>(row)];
        return p >= 100 && p <= 1099;
    }));
    m_window->scatter()->clearSelection();
    QCOMPARE(m_window->analysis()->selection()->size(), std::size_t{0});
}

void VatMainWindowTest::menuTogglesVatAndIvat() {
    VatPanel* panel = m_window->vatPanel();
    QAction* ivat = menuAction(*m_window, QStringLiteral("V&AT"), QStringLiteral("Show &iVAT"));
    QVERIFY(ivat);
    QVERIFY(ivat->isChecked());
    ivat->trigger();
    QCOMPARE(panel->display().kind, VatImageKind::Vat);
    QTRY_VERIFY_WITH_TIMEOUT(panel->widget()->isSettled(), kTimeoutMs);
    QCOMPARE(panel->widget()->shownViewport().kind, VatImageKind::Vat);
    ivat->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(panel->widget()->isSettled(), kTimeoutMs);
    QCOMPARE(panel->widget()->shownViewport().kind, VatImageKind::Ivat);
}

void VatMainWindowTest::undockingRecreatesTheGlResources() {
    VatPanel* panel = m_window->vatPanel();
    auto* dock = dockOf(panel);
    const int renders = panel->widget()->renderCount();
    dock->setFloating(true);
    QTRY_VERIFY_WITH_TIMEOUT(panel->widget()->isVisible() && panel->widget()->isSettled(), kTimeoutMs);
    dock->setFloating(false);
    dock->raise();
    QTRY_VERIFY_WITH_TIMEOUT(panel->widget()->isVisible() && panel->widget()->isSettled(), kTimeoutMs);
    QVERIFY(panel->widget()->glError().isEmpty());
    QVERIFY(panel->widget()->renderCount() >= renders);
    // The new context shows the image, not the plot's background of uncovered parts.
    const QImage frame = panel->widget()->grabFramebuffer();
    QVERIFY(frame.pixel(panel->widget()->plotRect().center().toPoint()) != qRgb(217, 217, 217));
}

void VatMainWindowTest::screenshotOfSpirals() {
    if (qEnvironmentVariableIntValue("CLUSTERLENS_SCREENSHOTS") != 1) QSKIP("set CLUSTERLENS_SCREENSHOTS=1 to save it");
    // Three intertwined spirals (SIPU): iVAT shows the three chains as dark blocks, which VAT cannot.
    QSignalSpy loaded(m_window->session(), &DatasetSession::currentChanged);
    m_window->openFile(QStringLiteral(CLUSTERLENS_DATA_DIR "/benchmarks/sipu/spiral.data.gz"));
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0, kTimeoutMs);
    VatPanel* panel = m_window->vatPanel();
    QSignalSpy shown(panel, &VatPanel::resultShown);
    panel->run();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, kTimeoutMs);
    panel->setClusterCount(3);
    auto* dock = dockOf(panel);
    dock->raise();
    m_window->resizeDocks({dock}, {820}, Qt::Horizontal);
    // The VAT page gets the whole right column.
    auto* compare = m_window->findChild<QDockWidget*>(QStringLiteral("CompareClusteringsDock"));
    if (compare) compare->hide();
    QTRY_VERIFY_WITH_TIMEOUT(panel->widget()->isSettled() && m_window->scatter()->isSettled(), kTimeoutMs);
    QTest::qWait(500);
    const QString file = QStringLiteral(CLUSTERLENS_SOURCE_DIR "/docs/screenshots/vat_ivat.png");
    QVERIFY(grabWindowWithViews(*m_window).save(file));
    std::printf("saved %s\n", qPrintable(file));
}

CLUSTERLENS_GUI_TEST_MAIN(VatMainWindowTest)
#include "vat_main_window_test.moc"
