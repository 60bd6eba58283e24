// The main window end to end: the demo dataset loads as a job and is drawn; a broken file gives
// a message naming it and the previous dataset stays; reader warnings reach the log.

#include <QFile>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <algorithm>

#include "dataset_session.hpp"
#include "gui_test_main.hpp"
#include "log_panel.hpp"
#include "main_window.hpp"
#include "scatter/scatter_widget.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;

namespace {

constexpr int kLoadTimeoutMs = 60'000;

bool isColoured(QRgb p) {
    const int hi = std::max({qRed(p), qGreen(p), qBlue(p)});
    const int lo = std::min({qRed(p), qGreen(p), qBlue(p)});
    return hi - lo > 40;
}

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void demoDatasetLoadsAndIsDrawn();
    void brokenFileNamesTheFileAndKeepsThePreviousDataset();
    void readerWarningsReachTheLog();

private:
    void openDemoAndWait(MainWindow& window);
};

void MainWindowTest::openDemoAndWait(MainWindow& window) {
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy drawn(window.scatter(), &ScatterWidget::dataDrawn);
    window.openDemo();
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kLoadTimeoutMs);
}

void MainWindowTest::demoDatasetLoadsAndIsDrawn() {
    MainWindow window;
    openDemoAndWait(window);
    const auto current = window.session()->current();
    QVERIFY(current);
    QCOMPARE(current->n, std::size_t{6052});
    QCOMPARE(current->d, std::size_t{12});
    QVERIFY(window.scatter()->glError().isEmpty());

    const QImage image = window.scatter()->grabFramebuffer();
    const QRect plot = window.scatter()->plotRect().toAlignedRect().adjusted(-1, -1, 1, 1);
    int inside = 0, outside = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            // Above the plot lies the density legend's colour bar.
            if (isColoured(image.pixel(x, y)) && y >= plot.top()) ++(plot.contains(x, y) ? inside : outside);
    QVERIFY2(inside > 5000, qPrintable(QStringLiteral("%1 coloured pixels in the plot").arg(inside)));
    QCOMPARE(outside, 0);
    QVERIFY(window.logPanel()->text().contains(QStringLiteral("Loaded aria_facs_6052.csv")));
}

void MainWindowTest::brokenFileNamesTheFileAndKeepsThePreviousDataset() {
    MainWindow window;
    openDemoAndWait(window);
    const auto before = window.session()->current();
    const auto drawnBefore = window.scatter()->data();

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString broken = dir.filePath(QStringLiteral("broken_cells.fcs"));
    QFile file(broken);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray("FCS3.0    garbage that is no FCS header at all \x01\x02\x03"));
    file.close();

    QSignalSpy failed(window.session(), &DatasetSession::loadFailed);
    window.openFile(broken);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kLoadTimeoutMs);
    QVERIFY2(failed.at(0).at(1).toString().contains(QStringLiteral("broken_cells.fcs")),
             qPrintable(failed.at(0).at(1).toString()));

    QMessageBox* box = window.lastErrorBox();
    QVERIFY(box);
    QTRY_VERIFY(box->isVisible());
    QVERIFY(box->text().contains(QStringLiteral("broken_cells.fcs")));
    QVERIFY(box->informativeText().contains(QStringLiteral("still loaded")));
    box->accept();

    QCOMPARE(window.session()->current(), before);
    QCOMPARE(window.scatter()->data(), drawnBefore);
    // One log line for one failure: the failed read job's.
    const QString log = window.logPanel()->text();
    QVERIFY2(log.count(QStringLiteral("error:")) == 1 && log.contains(QStringLiteral("broken_cells.fcs failed")),
             qPrintable(log));
}

void MainWindowTest::readerWarningsReachTheLog() {
    const QString aria = QStringLiteral(CLUSTERLENS_DATA_DIR "/fcs/AriaFile1.fcs");
    if (!QFile::exists(aria)) QSKIP("shared test data not present");
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy loaded(window.session(), &DatasetSession::loaded);
    QSignalSpy failed(window.session(), &DatasetSession::loadFailed);
    window.openFile(aria);
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() + failed.count() > 0, kLoadTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(1).toString()));
    QCOMPARE(window.session()->raw()->n, std::size_t{6052});
    QVERIFY2(window.logPanel()->text().contains(QStringLiteral("warning:")), qPrintable(window.logPanel()->text()));
}

CLUSTERLENS_GUI_TEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
