// Cancel of the document jobs in the GUI: opening a session whose data file is large, and exporting a
// population's events. The worker is idle again soon after the cancel (the job's JobControl reaches
// the hash, the reader and the writer), what the user had stays, and nothing is left on disk.

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>

#include <filesystem>

#include "clusterlens/io/file_hash.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "clusterlens/session/session_data.hpp"
#include "clusterlens/session/session_file.hpp"
#include "cancel_after.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
#include "session_test_support.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;
using clusterlens::test::kGuiJobTimeoutMs;

namespace {

/// The worker may run on this long after Cancel: it looks at its control every few milliseconds, and
/// a job that goes on to its end (seconds for a million events) fails.
constexpr qint64 kIdleWithinMs = 1500;

Dataset largeData() {
    return test::unlabelledCytometryLike(1'000'000, 14);
}

/// Cancels the last job named `name` that `started` (a spy on JobRunner::jobStarted) saw, as the
/// Jobs panel's Cancel does, and returns how long the worker ran on.
qint64 cancelAndTimeIdle(JobRunner* runner, const QSignalSpy& started, const QString& name) {
    JobId id = 0;
    for (const QList<QVariant>& arguments : started)
        if (arguments.at(1).toString() == name) id = arguments.at(0).value<JobId>();
    if (id == 0 || !runner->isRunning(id)) return -1;
    runner->cancel(id);
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    runner->waitForWorkers();
    return sinceCancel.elapsed();
}

std::size_t filesIn(const QString& folder) {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(folder.toStdString()),
                                                  std::filesystem::directory_iterator()));
}

}  // namespace

class DocumentCancelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cancellingASessionOpenStopsItsReadAndKeepsTheDocument();
    void cancellingAPopulationExportStopsTheWriterAndLeavesNoFile();
};

void DocumentCancelTest::cancellingASessionOpenStopsItsReadAndKeepsTheDocument() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string csv = dir.filePath(QStringLiteral("large.csv")).toStdString();
    writeCsv(csv, largeData());
    Session large;
    large.data = describeDataFile(csv, DatasetReadSpec{}, readDataset(csv));
    const QString sessionPath = dir.filePath(QStringLiteral("large.clusterlens"));
    writeSession(sessionPath.toStdString(), large);

    MainWindow window;
    test::openDemo(window);
    if (QTest::currentTestFailed()) return;
    QTRY_COMPARE_WITH_TIMEOUT(window.jobRunner()->runningCount(), 0, kGuiJobTimeoutMs);
    const Session before = window.document()->session();
    const auto dataset = window.session()->raw();

    QSignalSpy started(window.jobRunner(), &JobRunner::jobStarted);
    window.openSession(sessionPath);
    QVERIFY(window.sessionIo()->isOpening());
    QTest::qWait(200);  // the data file is being hashed or read
    QVERIFY(window.jobRunner()->runningCount() > 0);
    const qint64 idleMs =
        cancelAndTimeIdle(window.jobRunner(), started, QStringLiteral("Open session large.clusterlens"));
    QVERIFY2(idleMs >= 0, "the session's read was not running");
    QVERIFY2(idleMs < kIdleWithinMs, qPrintable(QStringLiteral("the session read ran on %1 ms").arg(idleMs)));
    QVERIFY(!window.sessionIo()->isOpening());
    test::compareSessions(window.document()->session(), before, false);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(window.session()->raw(), dataset);
}

void DocumentCancelTest::cancellingAPopulationExportStopsTheWriterAndLeavesNoFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Dataset data = largeData();
    const std::string fcs = dir.filePath(QStringLiteral("large.fcs")).toStdString();
    writeFcs(fcs, data);
    JobRunner runner;
    SessionDocument document;
    AnalysisSession analysis;
    QUndoStack undo;
    Session session;
    session.data.path = fcs;
    session.data.sha256 = sha256File(fcs);
    session.data.n = data.n;
    session.data.d = data.d;
    session.data.features = data.features;
    document.reset(session, {});
    PopulationsPanel panel(&document, &analysis, &undo, &runner);
    auto shared = std::make_shared<const Dataset>(data);
    panel.setDataSource(shared, shared, {});
    IndexVector half;
    for (std::size_t i = 0; i < data.n; i += 2) half.push_back(static_cast<std::int64_t>(i));
    analysis.setSelection(std::make_shared<IndexVector>(std::move(half)), this);
    QCOMPARE(panel.gateSelection(QStringLiteral("half")), QStringLiteral("half"));

    // The whole export once, to cancel the second one half way through.
    const QString out = dir.filePath(QStringLiteral("half.fcs"));
    QSignalSpy exported(&panel, &PopulationsPanel::exported);
    QElapsedTimer whole;
    whole.start();
    panel.exportEventsTo(QStringLiteral("half"), out);
    QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, kGuiJobTimeoutMs);
    const qint64 wholeMs = whole.elapsed();
    QVERIFY(QFile::remove(out));
    runner.waitForWorkers();

    QSignalSpy started(&runner, &JobRunner::jobStarted);
    panel.exportEventsTo(QStringLiteral("half"), out);
    QTest::qWait(static_cast<int>(wholeMs / 2));
    QVERIFY2(runner.runningCount() > 0, "the export ended before its cancel");
    const qint64 idleMs = cancelAndTimeIdle(&runner, started, QStringLiteral("Export events of half"));
    QVERIFY2(idleMs >= 0, "the export was not running");
    QVERIFY2(idleMs < kIdleWithinMs, qPrintable(QStringLiteral("the export ran on %1 ms").arg(idleMs)));
    QCOMPARE(exported.count(), 1);
    QVERIFY(!QFile::exists(out));
    QCOMPARE(filesIn(dir.path()), std::size_t{1});  // the source alone: no temporary left
}

CLUSTERLENS_GUI_TEST_MAIN(DocumentCancelTest)
#include "document_cancel_test.moc"
