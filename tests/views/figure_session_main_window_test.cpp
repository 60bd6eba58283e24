// The main window names its saved session in the figures it exports: after Save, the decision graph's
// metadata carries `clusterlens-cli plot decision --session FILE --name ...`, which redraws the same
// SVG and pixels; while the work has changes the file does not hold (or was never saved) the figure
// carries the commands that write the CSV files instead.

#include <QTemporaryDir>

#include "dpc/dpc_panel.hpp"
#include "figure/figure_export_source.hpp"
#include "gui_test_main.hpp"
#include "regenerate_support.hpp"
#include "session_test_support.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;
using clusterlens::test::kGuiJobTimeoutMs;

class FigureSessionMainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void savedSessionIsTheSourceOfTheDecisionGraph();
};

void FigureSessionMainWindowTest::savedSessionIsTheSourceOfTheDecisionGraph() {
    QTemporaryDir dir;
    MainWindow window;
    test::openDemo(window);
    if (QTest::currentTestFailed()) return;
    QSignalSpy peaks(window.dpcPanel(), &DpcPanel::resultShown);
    window.dpcPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(peaks.count() > 0, kGuiJobTimeoutMs);
    window.dpcPanel()->applyTopK(3);
    const auto command = [&] { return regenerateShellText(window.dpcPanel()->decisionExportSource()); };
    QVERIFY2(command().contains(QStringLiteral("plot decision DPC.csv")), qPrintable(command()));

    const QString path = dir.filePath(QStringLiteral("day one.clusterlens"));
    // Work recorded while the file was written (the peaks' labeling) leaves it modified: save again.
    QVERIFY(test::saveAndWait(window, path));
    if (window.isWindowModified()) QVERIFY(test::saveAndWait(window, path));
    QVERIFY(!window.isWindowModified());
    QCOMPARE(figureSessionFile(), path);
    QVERIFY2(command().startsWith(QStringLiteral("clusterlens-cli plot decision --session '%1' --name ").arg(path)),
             qPrintable(command()));
    test::regenerateAndCompare(dir.path(), window.dpcPanel()->decisionExportSource(), QStringLiteral("decision"),
                               QStringLiteral("decision"), QStringLiteral("--peaks"));
    if (QTest::currentTestFailed()) return;

    // Other peaks: the saved file no longer holds what is shown.
    window.dpcPanel()->applyTopK(2);
    QTRY_VERIFY_WITH_TIMEOUT(window.isWindowModified(), kGuiJobTimeoutMs);
    QVERIFY(figureSessionFile().isEmpty());
    QVERIFY2(command().contains(QStringLiteral("plot decision DPC.csv")), qPrintable(command()));
}

CLUSTERLENS_GUI_TEST_MAIN(FigureSessionMainWindowTest)
#include "figure_session_main_window_test.moc"
