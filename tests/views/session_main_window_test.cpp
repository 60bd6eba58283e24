// Sessions in the main window, end to end on the demo dataset: save -> close -> open restores every
// object (compared field by field) and the view state (colouring, tree and cut, zoom, populations);
// the GUI's view choices (colour by a marker, the dendrogram's and VAT's colour strips, the minimum
// cluster size and the clustermap) come back as they were saved; the title shows the session and its
// modified mark; a damaged file and a newer-version file are
// refused with a message and the work on screen stays; a moved data file is asked for, a file with
// other content refused by its SHA-256; embedded data opens without the data file; quitting with
// unsaved work asks, and Cancel keeps the window.

#include <QFile>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QUndoStack>

#include "clusterlens/session/session_file.hpp"
#include "colour_strip_chooser.hpp"
#include "colouring_combo.hpp"
#include "dataset_session.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dpc/peak_choice.hpp"
#include "gui_test_main.hpp"
#include "populations/population_model.hpp"
#include "session/session_io.hpp"
#include "session/session_results.hpp"
#include "session/view_state.hpp"
#include "session_test_support.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;
using clusterlens::test::kGuiJobTimeoutMs;
using clusterlens::test::openAndWait;
using clusterlens::test::saveAndWait;

namespace {

QMessageBox* waitForBox(QWidget& window, const QString& name) {
    QMessageBox* box = nullptr;
    const bool found = QTest::qWaitFor(
        [&] {
            for (QMessageBox* candidate : window.findChildren<QMessageBox*>(name))
                if (candidate->isVisible()) box = candidate;
            return box != nullptr;
        },
        10'000);
    return found ? box : nullptr;
}

}  // namespace

class SessionMainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void saveCloseOpenRestoresEveryObjectAndTheView();
    void saveCloseOpenRestoresMarkerColouringStripsAndClustermap();
    void damagedAndNewerFilesAreRefusedAndTheWorkStays();
    void movedDataFileIsAskedForAndOtherContentRefused();
    void embeddedDataOpensWithoutTheDataFile();
    void quittingWithUnsavedWorkAsks();
    void newSessionKeepsTheDataAndDropsTheWork();
};

void SessionMainWindowTest::saveCloseOpenRestoresEveryObjectAndTheView() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("day one.clusterlens"));
    Session saved;
    ViewState view;
    {
        MainWindow window;
        test::openDemo(window);
        test::doSomeOfEverything(window);
        if (QTest::currentTestFailed()) return;
        window.analysis()->setColouring(window.dendrogramPanel()->cutLabeling());
        window.scatter()->zoomAt(window.scatter()->plotRect().center() + QPointF(40, -30), 2.5);
        QVERIFY(window.isWindowModified());
        QVERIFY(saveAndWait(window, path));
        QVERIFY(!window.isWindowModified());
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("day one.clusterlens")));
        saved = window.document()->session();
        view = viewStateFromJson(saved.viewState);
        QCOMPARE(saved.linkages.size(), std::size_t{1});
        QCOMPARE(saved.dpc.size(), std::size_t{1});
        QCOMPARE(saved.vat.size(), std::size_t{1});
        // Every comparison the view showed, the one asked for among them.
        const QString asked =
            comparisonName(window.dendrogramPanel()->cutLabeling(), window.dpcPanel()->labelingName());
        QVERIFY(findNamed(saved.comparisons, asked.toStdString()));
        QCOMPARE(saved.populations.size(), std::size_t{3});
        QVERIFY(saved.labelings.size() >= 3);  // the cut, the peaks, the VAT cuts
        QCOMPARE(view.dendrogramClusters, 4);
        QVERIFY(view.scatterWindow.has_value());
    }
    MainWindow reopened;
    test::showWindow(reopened);
    if (QTest::currentTestFailed()) return;
    QSignalSpy cut(reopened.dendrogramPanel(), &DendrogramPanel::cutApplied);
    QVERIFY(openAndWait(reopened, path));
    test::compareSessions(reopened.document()->session(), saved);
    if (QTest::currentTestFailed()) return;
    QVERIFY(!reopened.document()->isModified());
    QCOMPARE(reopened.document()->path(), path);

    // The views show what was saved.
    QTRY_VERIFY_WITH_TIMEOUT(cut.count() > 0, kGuiJobTimeoutMs);
    QCOMPARE(reopened.dendrogramPanel()->currentLinkage(), view.dendrogramLinkage);
    QCOMPARE(reopened.dendrogramPanel()->clusterCount(), 4);
    QTRY_COMPARE_WITH_TIMEOUT(reopened.analysis()->colouring(), view.colouring, kGuiJobTimeoutMs);
    for (const LinkageResult& linkage : saved.linkages)
        QVERIFY(reopened.analysis()->linkage(QString::fromStdString(linkage.info.name)));
    for (const LabelingResult& labeling : saved.labelings)
        QCOMPARE(*reopened.analysis()->labeling(QString::fromStdString(labeling.info.name)), labeling.labels);
    const ViewWindow& window = reopened.scatter()->viewWindow();
    const auto& stored = *view.scatterWindow;
    QCOMPARE(window.x0(), stored[0]);
    QCOMPARE(window.x1(), stored[1]);
    QCOMPARE(window.y0(), stored[2]);
    QCOMPARE(window.y1(), stored[3]);
    QCOMPARE(reopened.populationsPanel()->model()->rowCount(), 2);  // the second lies inside the first
    // The decision graph and the VAT image show the stored runs with their peaks and cut.
    QVERIFY(reopened.dpcPanel()->lastRun());
    QCOMPARE(reopened.dpcPanel()->peakChoice()->peaks(), saved.dpc.front().peaks);
    QTRY_VERIFY_WITH_TIMEOUT(reopened.vatPanel()->lastRun() != nullptr, kGuiJobTimeoutMs);
    QCOMPARE(reopened.vatPanel()->lastRun()->vat->order, saved.vat.front().order);
    QCOMPARE(reopened.vatPanel()->clusterCount(), 3);
    // Showing them again changed nothing; nothing is on the undo stack.
    test::compareSessions(reopened.document()->session(), saved);
    QCOMPARE(reopened.undoStack()->count(), 0);
    QVERIFY(!reopened.isWindowModified());
}

namespace {

/// Mode and name of each strip slot of `chooser`, as text ("1:cut of …", "0:", "2:CD4").
QStringList stripsOf(const ColourStripChooser* chooser) {
    QStringList strips;
    for (int slot = 0; slot < maxColourStrips; ++slot)
        strips << QStringLiteral("%1:%2")
                      .arg(static_cast<int>(chooser->combo(slot)->mode()))
                      .arg(chooser->combo(slot)->name());
    return strips;
}

}  // namespace

void SessionMainWindowTest::saveCloseOpenRestoresMarkerColouringStripsAndClustermap() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("strips.clusterlens"));
    QStringList dendrogramStrips, vatStrips;
    QString cutLabeling;
    {
        MainWindow window;
        test::openDemo(window);
        const auto data = window.session()->current();
        QVERIFY(data && data->d >= 3);
        const QString markerA = QString::fromStdString(data->features[1]);
        const QString markerB = QString::fromStdString(data->features[2]);
        DendrogramPanel* dendrogram = window.dendrogramPanel();
        QSignalSpy shown(dendrogram, &DendrogramPanel::treeShown);
        QSignalSpy cut(dendrogram, &DendrogramPanel::cutApplied);
        window.clusteringPanel()->setLinkage(QStringLiteral("average"));
        window.clusteringPanel()->run();
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, kGuiJobTimeoutMs);
        dendrogram->setMinClusterSize(40);
        dendrogram->setClustermapMode(0);  // no clustermap
        dendrogram->setClusterCount(3);
        QTRY_VERIFY_WITH_TIMEOUT(cut.count() > 0, kGuiJobTimeoutMs);
        cutLabeling = dendrogram->cutLabeling();
        dendrogram->stripChooser()->setStrip(0, ColourMode::Labels, cutLabeling);
        dendrogram->stripChooser()->setStrip(2, ColourMode::Marker, markerA);
        window.vatPanel()->stripChooser()->setStrip(1, ColourMode::Marker, markerB);
        window.analysis()->setMarkerColouring(markerB);
        dendrogram->widget()->setThresholdMarksShown(false);
        dendrogram->setTreeVatShown(true);
        dendrogramStrips = stripsOf(dendrogram->stripChooser());
        vatStrips = stripsOf(window.vatPanel()->stripChooser());
        QCOMPARE(dendrogramStrips, (QStringList{QStringLiteral("1:") + cutLabeling, QStringLiteral("0:"),
                                                QStringLiteral("2:") + markerA}));
        QCOMPARE(vatStrips, (QStringList{QStringLiteral("0:"), QStringLiteral("2:") + markerB, QStringLiteral("0:")}));
        QVERIFY(saveAndWait(window, path));
        const ViewState view = viewStateFromJson(window.document()->session().viewState);
        QCOMPARE(view.colourMarker, markerB);
        QCOMPARE(view.dendrogramMinSize, 40);
        QCOMPARE(view.dendrogramHeatmap, QStringLiteral("off"));
        QVERIFY(!view.dendrogramThresholdMarks);
        QVERIFY(view.dendrogramTreeIvat);
    }
    MainWindow reopened;
    test::showWindow(reopened);
    if (QTest::currentTestFailed()) return;
    reopened.dendrogramPanel()->setClustermapMode(1);  // not what was saved
    QSignalSpy cut(reopened.dendrogramPanel(), &DendrogramPanel::cutApplied);
    QVERIFY(openAndWait(reopened, path));
    QTRY_VERIFY_WITH_TIMEOUT(cut.count() > 0, kGuiJobTimeoutMs);
    QCOMPARE(reopened.dendrogramPanel()->minClusterSize(), 40);
    QCOMPARE(reopened.dendrogramPanel()->clusterCount(), 3);
    QCOMPARE(reopened.dendrogramPanel()->cutLabeling(), cutLabeling);
    QCOMPARE(reopened.dendrogramPanel()->clustermapMode(), 0);
    QVERIFY(!reopened.dendrogramPanel()->widget()->thresholdMarksShown());
    QVERIFY(reopened.dendrogramPanel()->treeVatShown());
    QTRY_COMPARE_WITH_TIMEOUT(stripsOf(reopened.dendrogramPanel()->stripChooser()), dendrogramStrips, kGuiJobTimeoutMs);
    QCOMPARE(stripsOf(reopened.vatPanel()->stripChooser()), vatStrips);
    QCOMPARE(reopened.dendrogramPanel()->stripChooser()->strips()->size(), std::size_t{2});
    QCOMPARE(reopened.vatPanel()->stripChooser()->strips()->size(), std::size_t{1});
    QCOMPARE(reopened.analysis()->colouringMarker(), vatStrips[1].mid(2));
    QVERIFY(reopened.analysis()->colouring().isEmpty());
}

void SessionMainWindowTest::damagedAndNewerFilesAreRefusedAndTheWorkStays() {
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("good.clusterlens"));
    MainWindow window;
    test::openDemo(window);
    window.analysis()->setSelection(std::make_shared<IndexVector>(test::indexRange(0, 99)), nullptr);
    window.populationsPanel()->gateSelection(QStringLiteral("kept"));
    QVERIFY(saveAndWait(window, good));
    window.populationsPanel()->gateSelection(QStringLiteral("unsaved"));
    const Session before = window.document()->session();

    QFile file(good);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray bytes = file.readAll();
    file.close();
    const QString damaged = dir.filePath(QStringLiteral("damaged.clusterlens"));
    QByteArray cut = bytes.left(bytes.size() / 2);
    QFile out(damaged);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(cut);
    out.close();

    window.document()->setModified(false);  // no question about the unsaved population
    window.openSession(damaged);
    QMessageBox* box = waitForBox(window, QStringLiteral("SessionErrorBox"));
    QVERIFY(box);
    QVERIFY2(box->text().contains(QStringLiteral("damaged.clusterlens")), qPrintable(box->text()));
    box->close();
    test::compareSessions(window.document()->session(), before);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(QFileInfo(damaged).size(), cut.size());  // never touched

    // A session written by a newer version: its header names a higher schema.
    const QString newer = dir.filePath(QStringLiteral("newer.clusterlens"));
    QByteArray raised = bytes;
    const QByteArray schema = QByteArrayLiteral("\nschema ") + QByteArray::number(kSessionSchemaVersion) + '\n';
    const qsizetype at = raised.indexOf(schema);
    QVERIFY(at > 0);
    raised.replace(at, schema.size(),
                   QByteArrayLiteral("\nschema ") + QByteArray::number(kSessionSchemaVersion + 1) + '\n');
    QFile newerFile(newer);
    QVERIFY(newerFile.open(QIODevice::WriteOnly));
    newerFile.write(raised);
    newerFile.close();
    window.openSession(newer);
    box = waitForBox(window, QStringLiteral("SessionErrorBox"));
    QVERIFY(box);
    QVERIFY2(box->text().contains(QStringLiteral("newer")), qPrintable(box->text()));
    box->close();
    test::compareSessions(window.document()->session(), before);
}

void SessionMainWindowTest::movedDataFileIsAskedForAndOtherContentRefused() {
    QTemporaryDir dir;
    MainWindow window;
    test::openDemo(window);
    // A copy of the demo data in a folder of its own, so it can be moved away.
    const QString original = dir.filePath(QStringLiteral("data/aria.csv"));
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("data"))));
    QVERIFY(QFile::copy(window.session()->path(), original));
    QSignalSpy drawn(window.scatter(), &ScatterWidget::dataDrawn);
    window.openFile(original);
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->session().data.path == original.toStdString() &&
                                 !window.document()->session().data.sha256.empty(),
                             kGuiJobTimeoutMs);
    window.analysis()->setSelection(std::make_shared<IndexVector>(test::indexRange(10, 19)), nullptr);
    window.populationsPanel()->gateSelection(QStringLiteral("ten"));
    const QString path = dir.filePath(QStringLiteral("moved.clusterlens"));
    QVERIFY(saveAndWait(window, path));

    const QString moved = dir.filePath(QStringLiteral("elsewhere.csv"));
    QVERIFY(QFile::rename(original, moved));
    const QString other = dir.filePath(QStringLiteral("other.csv"));
    QFile otherFile(other);
    QVERIFY(otherFile.open(QIODevice::WriteOnly));
    otherFile.write("a,b\n1,2\n3,4\n");
    otherFile.close();

    QStringList reasons;
    QStringList answers{other, moved};
    MainWindow reopened;
    reopened.sessionIo()->setDataFileChooser([&](const DatasetReference&, const QString& reason) {
        reasons << reason;
        return answers.isEmpty() ? QString() : answers.takeFirst();
    });
    reopened.resize(1200, 800);
    reopened.show();
    QVERIFY(openAndWait(reopened, path));
    QCOMPARE(reasons.size(), 2);
    QVERIFY2(reasons[0].contains(QStringLiteral("aria.csv")), qPrintable(reasons[0]));
    QVERIFY2(reasons[1].contains(QStringLiteral("SHA-256"), Qt::CaseInsensitive) ||
                 reasons[1].contains(QStringLiteral("other.csv")),
             qPrintable(reasons[1]));
    const Session& session = reopened.document()->session();
    QCOMPARE(session.data.path, QFileInfo(moved).absoluteFilePath().toStdString());
    QCOMPARE(session.populations.size(), std::size_t{1});
    // The new place of the data is work to save.
    QVERIFY(reopened.document()->isModified());

    // Giving up leaves the window as it was.
    reopened.document()->setModified(false);
    QVERIFY(QFile::rename(moved, dir.filePath(QStringLiteral("gone.csv"))));
    const Session before = reopened.document()->session();
    reopened.openSession(path);
    QMessageBox* box = waitForBox(reopened, QStringLiteral("SessionErrorBox"));
    QVERIFY(box);
    box->close();
    test::compareSessions(reopened.document()->session(), before);
}

void SessionMainWindowTest::embeddedDataOpensWithoutTheDataFile() {
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("aria.csv"));
    const QString path = dir.filePath(QStringLiteral("mailed.clusterlens"));
    std::vector<float> values;
    {
        MainWindow window;
        test::openDemo(window);
        QVERIFY(QFile::copy(window.session()->path(), data));
        window.openFile(data);
        QTRY_VERIFY_WITH_TIMEOUT(window.document()->session().data.path == data.toStdString() &&
                                     !window.document()->session().data.sha256.empty(),
                                 kGuiJobTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->current() && window.session()->path() == data, kGuiJobTimeoutMs);
        values = window.session()->current()->values;
        QAction* embed = nullptr;
        for (QAction* action : window.findChildren<QAction*>())
            if (action->isCheckable() && action->text().contains(QStringLiteral("Embed"))) embed = action;
        QVERIFY(embed);
        embed->setChecked(true);
        QVERIFY(saveAndWait(window, path));
        embed->setChecked(false);
    }
    QVERIFY(QFile::remove(data));
    MainWindow reopened;
    reopened.show();
    QVERIFY(openAndWait(reopened, path));
    QVERIFY(reopened.document()->session().data.embedded.has_value());
    // The analysed values, not transformed again.
    QTRY_VERIFY_WITH_TIMEOUT(reopened.session()->current() != nullptr, kGuiJobTimeoutMs);
    QCOMPARE(reopened.session()->current()->values, values);
}

void SessionMainWindowTest::quittingWithUnsavedWorkAsks() {
    MainWindow window;
    test::openDemo(window);
    window.analysis()->setSelection(std::make_shared<IndexVector>(test::indexRange(0, 9)), nullptr);
    window.populationsPanel()->gateSelection(QStringLiteral("unsaved"));
    QVERIFY(window.isWindowModified());
    QVERIFY(window.windowTitle().contains(QStringLiteral("Untitled")));
    window.close();
    QMessageBox* box = waitForBox(window, QStringLiteral("UnsavedWorkBox"));
    QVERIFY(box);
    box->button(QMessageBox::Cancel)->click();
    QTest::qWait(50);
    QVERIFY(window.isVisible());
    window.close();
    box = waitForBox(window, QStringLiteral("UnsavedWorkBox"));
    QVERIFY(box);
    box->button(QMessageBox::Discard)->click();
    QTRY_VERIFY(!window.isVisible());
}

void SessionMainWindowTest::newSessionKeepsTheDataAndDropsTheWork() {
    MainWindow window;
    test::openDemo(window);
    const DatasetReference data = window.document()->session().data;
    QSignalSpy shown(window.dendrogramPanel(), &DendrogramPanel::treeShown);
    window.clusteringPanel()->setLinkage(QStringLiteral("single"));
    window.clusteringPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, kGuiJobTimeoutMs);
    window.analysis()->setSelection(std::make_shared<IndexVector>(test::indexRange(0, 9)), nullptr);
    window.populationsPanel()->gateSelection(QStringLiteral("gone"));
    QAction* newSession = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == QStringLiteral("&New session")) newSession = action;
    QVERIFY(newSession);
    newSession->trigger();
    QMessageBox* box = waitForBox(window, QStringLiteral("UnsavedWorkBox"));
    QVERIFY(box);
    box->button(QMessageBox::Discard)->click();
    QTRY_VERIFY(window.document()->populations().empty());
    const Session& session = window.document()->session();
    QVERIFY(session.linkages.empty());
    QCOMPARE(session.data.sha256, data.sha256);
    QCOMPARE(session.data.n, data.n);
    QVERIFY(window.analysis()->linkageNames().isEmpty());
    QCOMPARE(window.populationsPanel()->model()->rowCount(), 0);
    QCOMPARE(window.undoStack()->count(), 0);
    QVERIFY(!window.isWindowModified());
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("Untitled")));
}

CLUSTERLENS_GUI_TEST_MAIN(SessionMainWindowTest)
#include "session_main_window_test.moc"
