// The main window's layout on the screen it runs on (ctest runs this test on a 1920x1080 and on a
// 1366x768 X screen): the window fits the screen, forms and views each keep a side column beside
// the scatter, every form and view fits its column, every dock tab shows its whole title (none
// elided), no visible dock is squeezed, every view of the
// demo dataset (the data scatter, coloured by a cut, and the population statistics among them) is
// shown large enough to read (a PNG of each is saved: into $CLUSTERLENS_SCREENSHOT_DIR when set, else
// into the temporary folder), and focus mode fills the main area with one view and
// gives the layout back exactly.

#include <QDir>
#include <QDockWidget>
#include <QGuiApplication>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStyle>
#include <QTabBar>
#include <QSignalSpy>
#include <QToolButton>

#include <functional>
#include <map>
#include <memory>

#include "analysis_session.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "compare/flat_view.hpp"
#include "compare/heights_view.hpp"
#include "dataset_session.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dpc/dpc_panel.hpp"
#include "focus_mode.hpp"
#include "gui_test_main.hpp"
#include "main_window.hpp"
#include "populations/populations_panel.hpp"
#include "scatter/scatter_widget.hpp"
#include "vat/vat_panel.hpp"
#include "vat/vat_widget.hpp"
#include "window_grab.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::FocusMode;
using clusterlens::gui::MainWindow;

namespace {

constexpr int kTimeoutMs = 120'000;
constexpr int kMinDockSize = 250;
// Jobs and log: a strip under the scatter, readable at a few lines.
constexpr int kMinBottomDockHeight = 120;
// The data scatter is the headline view: the widget stays this wide, and its plot area (inside the
// axes and the legend) this wide, with both side columns beside it at 1366x768.
constexpr int kMinScatterWidth = 450;
constexpr int kMinScatterPlotWidth = 340;
// The widest a form (left column) or a view (right column) may need to be, so that at 1366x768 both
// columns and a scatter of about 450 px fit side by side.
constexpr int kMaxFormMinimumWidth = 280;
constexpr int kMaxViewMinimumWidth = 440;
const QStringList kFormDocks = {QStringLiteral("DatasetDock"), QStringLiteral("ClusteringDock"),
                                QStringLiteral("KMeansDock"), QStringLiteral("PopulationsDock")};
const QString kAverage = QStringLiteral("average linkage");
const QString kWard = QStringLiteral("ward linkage");

// The views and the file names of their screenshots.
const std::map<QString, QString> kViewDocks = {
    {QStringLiteral("DendrogramDock"), QStringLiteral("dendrogram")},
    {QStringLiteral("DecisionGraphDock"), QStringLiteral("decision-graph")},
    {QStringLiteral("VatDock"), QStringLiteral("vat")},
    {QStringLiteral("PointHeightsDock"), QStringLiteral("point-heights")},
    {QStringLiteral("CompareClusteringsDock"), QStringLiteral("contingency")},
};

QSize screenSize() {
    return QGuiApplication::primaryScreen()->availableGeometry().size();
}

QString sizeTag() {
    const QSize screen = QGuiApplication::primaryScreen()->geometry().size();
    return QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height());
}

std::map<QString, QRect> dockGeometries(const MainWindow& window) {
    std::map<QString, QRect> geometries;
    for (const QDockWidget* dock : window.findChildren<QDockWidget*>())
        geometries[dock->objectName()] = dock->isVisible() ? dock->geometry() : QRect();
    geometries[QStringLiteral("central")] = window.centralWidget()->geometry();
    return geometries;
}

/// The width `dock` needs to show its content without a sideways scroll bar: a form in a scroll area
/// needs its content's minimum width (and room for the vertical scroll bar), not the scroll area's.
int neededWidth(const QDockWidget* dock) {
    int width = dock->minimumSizeHint().width();
    if (const auto* scroll = qobject_cast<const QScrollArea*>(dock->widget()); scroll && scroll->widget()) {
        const int around = width - scroll->minimumSizeHint().width();
        width = std::max(width, around + scroll->widget()->minimumSizeHint().width() + 2 * scroll->frameWidth() +
                                    scroll->verticalScrollBar()->sizeHint().width());
    }
    return width;
}

bool isVertical(const QTabBar* bar) {
    return bar->shape() == QTabBar::RoundedWest || bar->shape() == QTabBar::RoundedEast ||
           bar->shape() == QTabBar::TriangularWest || bar->shape() == QTabBar::TriangularEast;
}

}  // namespace

class MainWindowLayoutTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void windowFitsTheScreen();
    void noVisibleDockIsSqueezed();
    void everyDockTabShowsItsWholeTitle();
    void everyViewIsShownLargeEnoughOnTheDemo();
    void everyDockFitsItsColumnWithTheDemosResults();
    void focusFillsTheMainAreaAndEscRestoresTheLayout();
    void doubleClickOnADockTitleTogglesFocus();
    void theHeaderButtonTogglesFocus();
    void focusOnTheScatterHidesEveryDock();
    void cleanupTestCase();

private:
    void checkDocks();
    void checkVatImageInsideItsDock();
    void checkTabTitles();
    void checkFocusToggle(const QString& dockName, const std::function<void(QDockWidget*)>& toggle);
    void computeViewsOfTheDemo();
    QString screenshotDir() const;

    std::unique_ptr<MainWindow> m_window;
};

void MainWindowLayoutTest::initTestCase() {
    // The default layout, not one saved by an earlier run.
    QSettings().clear();
    m_window = std::make_unique<MainWindow>();
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QSignalSpy drawn(m_window->scatter(), &ScatterWidget::dataDrawn);
    m_window->openDemo();
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kTimeoutMs);
}

void MainWindowLayoutTest::windowFitsTheScreen() {
    const QSize screen = screenSize();
    const QSize frame = m_window->frameGeometry().size();
    const QSize minimum = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
    // The message names each dock's minimum: the widths and heights that add up.
    QString docks;
    for (const QDockWidget* dock : m_window->findChildren<QDockWidget*>())
        docks += QStringLiteral(" %1 %2x%3")
                     .arg(dock->objectName())
                     .arg(dock->minimumSizeHint().width())
                     .arg(dock->minimumSizeHint().height());
    const QString what = QStringLiteral("window %1x%2, minimum %3x%4 on a %5x%6 screen;%7")
                             .arg(frame.width())
                             .arg(frame.height())
                             .arg(minimum.width())
                             .arg(minimum.height())
                             .arg(screen.width())
                             .arg(screen.height())
                             .arg(docks);
    QVERIFY2(frame.width() <= screen.width() && frame.height() <= screen.height(), qPrintable(what));
    // Nothing forces the window larger than the screen either.
    QVERIFY2(minimum.width() <= screen.width() && minimum.height() <= screen.height(), qPrintable(what));
}

void MainWindowLayoutTest::checkDocks() {
    for (const QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        // Docks behind another tab are not on screen.
        if (!dock->isVisible() || dock->visibleRegion().isEmpty()) continue;
        const bool bottom = m_window->dockWidgetArea(const_cast<QDockWidget*>(dock)) == Qt::BottomDockWidgetArea;
        const QString what = QStringLiteral("%1: %2x%3").arg(dock->objectName()).arg(dock->width()).arg(dock->height());
        QVERIFY2(dock->width() >= kMinDockSize, qPrintable(what));
        QVERIFY2(dock->height() >= (bottom ? kMinBottomDockHeight : kMinDockSize), qPrintable(what));
    }
    QVERIFY2(m_window->scatter()->width() >= kMinScatterWidth && m_window->scatter()->height() >= kMinDockSize,
             qPrintable(
                 QStringLiteral("scatter %1x%2").arg(m_window->scatter()->width()).arg(m_window->scatter()->height())));
    const QRectF plot = m_window->scatter()->plotRect();
    // The message names each visible dock's width and minimum width: what takes the room.
    QString docks;
    for (const QDockWidget* dock : m_window->findChildren<QDockWidget*>())
        if (dock->isVisible())
            docks += QStringLiteral(" %1 %2 (minimum %3)")
                         .arg(dock->objectName())
                         .arg(dock->width())
                         .arg(dock->minimumSizeHint().width());
    QVERIFY2(plot.width() >= kMinScatterPlotWidth,
             qPrintable(QStringLiteral("scatter plot %1 px wide in a %2 px widget;%3")
                            .arg(plot.width())
                            .arg(m_window->scatter()->width())
                            .arg(docks)));
}

void MainWindowLayoutTest::checkVatImageInsideItsDock() {
    auto* dock = m_window->findChild<QDockWidget*>(QStringLiteral("VatDock"));
    QVERIFY(dock);
    const VatWidget* vat = m_window->vatPanel()->widget();
    // The image's corners, mapped into the dock, lie inside what the dock shows of its content.
    const QRectF plot = vat->plotRect();
    const QRect image(vat->mapTo(dock, plot.topLeft().toPoint()), vat->mapTo(dock, plot.bottomRight().toPoint()));
    const QRect shown = dock->widget()->geometry();
    QVERIFY2(!plot.isEmpty() && shown.contains(image) && vat->visibleRegion().boundingRect().contains(plot.toRect()),
             qPrintable(QStringLiteral("VAT image (%1,%2 %3x%4) in a dock showing (%5,%6 %7x%8)")
                            .arg(image.x())
                            .arg(image.y())
                            .arg(image.width())
                            .arg(image.height())
                            .arg(shown.x())
                            .arg(shown.y())
                            .arg(shown.width())
                            .arg(shown.height())));
}

void MainWindowLayoutTest::noVisibleDockIsSqueezed() {
    // Forms on the left and views on the right, on either screen: not all of them tabs of one column.
    for (const QString& name : kFormDocks)
        if (auto* dock = m_window->findChild<QDockWidget*>(name))
            QVERIFY2(m_window->dockWidgetArea(dock) == Qt::LeftDockWidgetArea, qPrintable(name));
    for (const auto& [name, file] : kViewDocks)
        if (auto* dock = m_window->findChild<QDockWidget*>(name))
            QVERIFY2(m_window->dockWidgetArea(dock) == Qt::RightDockWidgetArea, qPrintable(name));
    qInfo("scatter %d px wide, its plot %d px", m_window->scatter()->width(),
          static_cast<int>(m_window->scatter()->plotRect().width()));
    checkDocks();
}

void MainWindowLayoutTest::everyDockFitsItsColumnWithTheDemosResults() {
    QString tooWide;
    for (const QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        const Qt::DockWidgetArea area = m_window->dockWidgetArea(const_cast<QDockWidget*>(dock));
        if (area == Qt::BottomDockWidgetArea) continue;
        const bool form = kFormDocks.contains(dock->objectName());
        const int needed = neededWidth(dock);
        qInfo("%s needs %d px (minimum size hint %d)", qPrintable(dock->objectName()), needed,
              dock->minimumSizeHint().width());
        if (needed > (form ? kMaxFormMinimumWidth : kMaxViewMinimumWidth))
            tooWide += QStringLiteral(" %1 needs %2 px").arg(dock->objectName()).arg(needed);
    }
    QVERIFY2(tooWide.isEmpty(), qPrintable(tooWide));
}

void MainWindowLayoutTest::checkTabTitles() {
    QStringList titles;
    for (const QDockWidget* dock : m_window->findChildren<QDockWidget*>()) titles << dock->windowTitle();
    int tabs = 0;
    // The dock areas' tab bars are the main window's own children.
    for (const QTabBar* bar : m_window->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        if (!bar->isVisible()) continue;
        const int padding = bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
        for (int i = 0; i < bar->count(); ++i, ++tabs) {
            const QString text = bar->tabText(i);
            const QRect tab = bar->tabRect(i);
            // A tab shorter than its text and padding is drawn with the text elided ("Da…").
            const int length = isVertical(bar) ? tab.height() : tab.width();
            const int needed = bar->fontMetrics().horizontalAdvance(text) + padding;
            const QString what = QStringLiteral("tab \"%1\" %2 px long (needs %3), at %4,%5 in a %6x%7 bar")
                                     .arg(text)
                                     .arg(length)
                                     .arg(needed)
                                     .arg(tab.x())
                                     .arg(tab.y())
                                     .arg(bar->width())
                                     .arg(bar->height());
            QVERIFY2(titles.contains(text), qPrintable(what));
            QVERIFY2(length >= needed && bar->rect().contains(tab), qPrintable(what));
        }
    }
    // The side columns and the bottom strip are tabbed: a check that found no tab would prove nothing.
    QVERIFY2(tabs >= 6, qPrintable(QString::number(tabs)));
}

void MainWindowLayoutTest::everyDockTabShowsItsWholeTitle() {
    checkTabTitles();
}

void MainWindowLayoutTest::computeViewsOfTheDemo() {
    const auto data = m_window->session()->current();
    QVERIFY(data);
    AnalysisSession* analysis = m_window->analysis();
    for (const auto& [name, method] :
         {std::pair{kAverage, LinkageMethod::Average}, std::pair{kWard, LinkageMethod::Ward}})
        analysis->addLinkage(
            name, std::make_shared<const Linkage>(classicLinkageCpu(data->values.data(), data->n, data->d, method)),
            QStringLiteral("%1, Euclidean, cpu").arg(name));
    DendrogramPanel* dendrogram = m_window->dendrogramPanel();
    QSignalSpy cut(dendrogram, &DendrogramPanel::cutApplied);
    connect(
        dendrogram, &DendrogramPanel::treeShown, this, [dendrogram] { dendrogram->setClusterCount(5); },
        Qt::SingleShotConnection);
    dendrogram->showLinkage(kWard);
    QTRY_VERIFY_WITH_TIMEOUT(cut.count() > 0, kTimeoutMs);

    DpcPanel* dpc = m_window->dpcPanel();
    QSignalSpy dpcShown(dpc, &DpcPanel::resultShown);
    dpc->run();
    QTRY_VERIFY_WITH_TIMEOUT(dpcShown.count() > 0, kTimeoutMs);
    dpc->applyTopK(4);

    VatPanel* vat = m_window->vatPanel();
    QSignalSpy vatShown(vat, &VatPanel::resultShown);
    vat->run();
    QTRY_VERIFY_WITH_TIMEOUT(vatShown.count() > 0, kTimeoutMs);
    vat->setClusterCount(4);

    // Both comparisons pick two different results by themselves.
    QTRY_VERIFY_WITH_TIMEOUT(m_window->heightsView()->comparison(), kTimeoutMs);
    QVERIFY(m_window->heightsView()->linkageA() != m_window->heightsView()->linkageB());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->flatComparisonView()->comparison(), kTimeoutMs);
    QVERIFY(m_window->flatComparisonView()->labelingA() != m_window->flatComparisonView()->labelingB());

    // Populations from two clusters of the cut, for the statistics; the scatter keeps the cut's colours.
    PopulationsPanel* populations = m_window->populationsPanel();
    const QString first = populations->fromClusters(dendrogram->cutLabeling(), {0});
    QVERIFY(!first.isEmpty());
    populations->setCurrentPopulation({});  // a new population is made inside the current one
    QVERIFY(!populations->fromClusters(dendrogram->cutLabeling(), {1, 2}).isEmpty());
    populations->setCurrentPopulation(first);
    analysis->setColouring(dendrogram->cutLabeling());
}

QString MainWindowLayoutTest::screenshotDir() const {
    const QString dir = qEnvironmentVariable("CLUSTERLENS_SCREENSHOT_DIR");
    return dir.isEmpty() ? QDir::temp().filePath(QStringLiteral("clusterlens-layout-screenshots")) : dir;
}

void MainWindowLayoutTest::everyViewIsShownLargeEnoughOnTheDemo() {
    computeViewsOfTheDemo();
    const QString dir = screenshotDir();
    QVERIFY(QDir().mkpath(dir));
    for (const auto& [dockName, file] : kViewDocks) {
        auto* dock = m_window->findChild<QDockWidget*>(dockName);
        QVERIFY2(dock, qPrintable(dockName));
        dock->raise();
        QTRY_VERIFY(dock->isVisible());
        QTest::qWait(300);
        checkDocks();
        checkTabTitles();
        if (dockName == QStringLiteral("VatDock")) checkVatImageInsideItsDock();
        const QString path = QDir(dir).filePath(QStringLiteral("%1-%2.png").arg(file, sizeTag()));
        QVERIFY(grabWindowWithViews(*m_window).save(path));
        qInfo("saved %s", qPrintable(path));
    }
    // The data scatter (coloured by the cut) and the population statistics (counts, shares, medians)
    // in focus mode, where each has the window to itself.
    const std::pair<QWidget*, QString> focused[] = {
        {m_window->scatter(), QStringLiteral("scatter")},
        {m_window->findChild<QDockWidget*>(QStringLiteral("PopulationsDock")),
         QStringLiteral("population-statistics")}};
    for (const auto& [view, file] : focused) {
        QVERIFY2(view, qPrintable(file));
        m_window->focusMode()->focus(view);
        QTRY_VERIFY(view->width() >= m_window->width() - 16);
        QTest::qWait(300);
        const QString path = QDir(dir).filePath(QStringLiteral("%1-%2.png").arg(file, sizeTag()));
        QVERIFY(grabWindowWithViews(*m_window).save(path));
        qInfo("saved %s", qPrintable(path));
        m_window->focusMode()->leave();
        QTRY_VERIFY(m_window->centralWidget()->isVisible());
    }
}

void MainWindowLayoutTest::focusFillsTheMainAreaAndEscRestoresTheLayout() {
    auto* dock = m_window->findChild<QDockWidget*>(QStringLiteral("DecisionGraphDock"));
    QVERIFY(dock);
    dock->raise();
    QTest::qWait(100);
    const auto before = dockGeometries(*m_window);
    auto* action = m_window->findChild<QAction*>(QStringLiteral("FocusDecisionGraphDockAction"));
    QVERIFY(action);
    action->trigger();
    QCOMPARE(m_window->focusMode()->focused(), static_cast<QWidget*>(dock));
    QTRY_VERIFY(!m_window->centralWidget()->isVisible());
    for (const QDockWidget* other : m_window->findChildren<QDockWidget*>())
        if (other != dock) QVERIFY2(!other->isVisible(), qPrintable(other->objectName()));
    // The view takes (nearly) the whole main area: all but the dock separators' few pixels.
    QTRY_VERIFY2(dock->width() >= m_window->width() - 16, qPrintable(QString::number(dock->width())));
    QVERIFY2(dock->height() >= m_window->height() - m_window->menuBar()->height() - 60,
             qPrintable(QString::number(dock->height())));
    QVERIFY(action->isChecked());

    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::keyClick(m_window.get(), Qt::Key_Escape);
    QVERIFY(!m_window->focusMode()->focused());
    QVERIFY(m_window->centralWidget()->isVisible());
    QVERIFY(!action->isChecked());
    QTRY_COMPARE(dockGeometries(*m_window), before);
    checkDocks();
}

void MainWindowLayoutTest::checkFocusToggle(const QString& dockName, const std::function<void(QDockWidget*)>& toggle) {
    auto* dock = m_window->findChild<QDockWidget*>(dockName);
    QVERIFY(dock);
    dock->raise();
    QTest::qWait(100);
    const auto before = dockGeometries(*m_window);
    toggle(dock);
    QCOMPARE(m_window->focusMode()->focused(), static_cast<QWidget*>(dock));
    QVERIFY(!dock->isFloating());
    QTRY_VERIFY(dock->width() >= m_window->width() - 16);
    toggle(dock);
    QVERIFY(!m_window->focusMode()->focused());
    QTRY_COMPARE(dockGeometries(*m_window), before);
}

void MainWindowLayoutTest::doubleClickOnADockTitleTogglesFocus() {
    // A double-click on the header focuses the view (it used to float the dock) and returns.
    checkFocusToggle(QStringLiteral("VatDock"), [](QDockWidget* dock) {
        QTest::mouseDClick(dock, Qt::LeftButton, {}, QPoint(dock->width() / 2, dock->widget()->geometry().top() / 2));
    });
}

void MainWindowLayoutTest::theHeaderButtonTogglesFocus() {
    checkFocusToggle(QStringLiteral("PointHeightsDock"), [](QDockWidget* dock) {
        QVERIFY(dock->titleBarWidget());
        auto* button = dock->titleBarWidget()->findChild<QToolButton*>(QStringLiteral("FocusButton"));
        QVERIFY(button);
        button->click();
    });
}

void MainWindowLayoutTest::focusOnTheScatterHidesEveryDock() {
    const auto before = dockGeometries(*m_window);
    m_window->focusMode()->focus(m_window->scatter());
    for (const QDockWidget* dock : m_window->findChildren<QDockWidget*>())
        QVERIFY2(!dock->isVisible(), qPrintable(dock->objectName()));
    QTRY_VERIFY(m_window->scatter()->width() >= m_window->width() - 16);
    QTest::keyClick(m_window.get(), Qt::Key_Escape);
    QVERIFY(!m_window->focusMode()->focused());
    QTRY_COMPARE(dockGeometries(*m_window), before);
}

void MainWindowLayoutTest::cleanupTestCase() {
    m_window.reset();
}

CLUSTERLENS_GUI_TEST_MAIN(MainWindowLayoutTest)
#include "main_window_layout_test.moc"
