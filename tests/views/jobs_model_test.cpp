// JobsModel: a well-behaved item model (QAbstractItemModelTester) that follows the runner; the
// panel's Cancel button cancels the job of its row. Progress is shown on the runner's one tick, and
// never on a bar that is not on screen: either would make Qt compose the whole window once more.

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QLabel>
#include <QListView>
#include <QMainWindow>
#include <QProgressBar>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
#include "jobs/job_status.hpp"
#include "jobs/jobs_model.hpp"
#include "jobs/jobs_panel.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

class JobsModelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelStaysConsistentThroughAJobsLifecycle();
    void finishedRowsAreTrimmed();
    void elapsedIsFormattedForPeople();
    void cancelButtonCancelsTheRunningJob();
    void aRunningRowChangesAtMostTwiceASecond();
    void runnerTicksOnlyWhileAJobRuns();
    void rowsChangeOnlyOnTheRunnersTick();
    void progressBehindAnotherTabIsLeftAlone();
};

namespace {

/// Starts a job that reports `progress` and waits for `release`.
JobId startBlockedJob(JobRunner& runner, QObject* receiver, QSemaphore& release, double progress) {
    return runner.start<int>(
        receiver, QStringLiteral("blocked"), QStringLiteral("Blocked"),
        [&release, progress](JobControl& control) {
            control.setProgress(progress);
            release.acquire();
            return 0;
        },
        [](const JobOutcome<int>&) {});
}

}  // namespace

void JobsModelTest::modelStaysConsistentThroughAJobsLifecycle() {
    JobRunner runner;
    JobsModel model(&runner);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSemaphore release;
    const JobId running = runner.start<int>(
        this, QStringLiteral("a"), QStringLiteral("Read cells.fcs"),
        [&release](JobControl& control) {
            control.setProgress(0.25);
            release.acquire();
            return 1;
        },
        [](const JobOutcome<int>&) {});
    runner.start<int>(
        this, QStringLiteral("b"), QStringLiteral("Quick"), [](JobControl&) { return 2; },
        [](const JobOutcome<int>&) {});
    QCOMPARE(model.rowCount(), 2);
    // Newest first.
    QCOMPARE(model.index(0).data(JobsModel::NameRole).toString(), QStringLiteral("Quick"));
    QTRY_COMPARE(model.index(0).data(JobsModel::StateRole).toInt(), static_cast<int>(JobState::Finished));
    QCOMPARE(model.index(0).data(JobsModel::ProgressRole).toDouble(), 1.0);

    const QModelIndex slow = model.index(1);
    QCOMPARE(slow.data(JobsModel::IdRole).toULongLong(), running);
    QCOMPARE(slow.data(JobsModel::StateRole).toInt(), static_cast<int>(JobState::Running));
    QTRY_COMPARE(slow.data(JobsModel::ProgressRole).toDouble(), 0.25);
    QVERIFY(slow.data(Qt::DisplayRole).toString().contains(QStringLiteral("25 %")));

    runner.cancel(running);
    QCOMPARE(slow.data(JobsModel::StateRole).toInt(), static_cast<int>(JobState::Cancelled));
    release.release();
    runner.waitForWorkers();
    QCoreApplication::processEvents();

    model.clearFinished();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.roleNames().value(JobsModel::ProgressRole), QByteArray("progress"));
}

void JobsModelTest::finishedRowsAreTrimmed() {
    JobRunner runner;
    JobsModel model(&runner);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    int done = 0;
    const int total = JobsModel::maxFinishedRows + 5;
    for (int i = 0; i < total; ++i)
        runner.start<int>(
            this, QStringLiteral("slot%1").arg(i), QStringLiteral("job %1").arg(i), [i](JobControl&) { return i; },
            [&done](const JobOutcome<int>&) { ++done; });
    QTRY_COMPARE(done, total);
    QCOMPARE(model.rowCount(), JobsModel::maxFinishedRows);
}

void JobsModelTest::elapsedIsFormattedForPeople() {
    QCOMPARE(formatElapsed(340), QStringLiteral("0.3 s"));
    QCOMPARE(formatElapsed(12'400), QStringLiteral("12 s"));
    QCOMPARE(formatElapsed(185'000), QStringLiteral("3 min 05 s"));
}

void JobsModelTest::cancelButtonCancelsTheRunningJob() {
    JobRunner runner;
    JobsPanel panel(&runner);
    panel.resize(600, 200);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSemaphore release;
    std::optional<JobState> outcome;
    runner.start<int>(
        this, QStringLiteral("read"), QStringLiteral("Read big.fcs"),
        [&release](JobControl&) {
            release.acquire();
            return 1;
        },
        [&outcome](const JobOutcome<int>& o) { outcome = o.state; });

    QListView* view = panel.view();
    const QRect row = view->visualRect(panel.model()->index(0));
    const QRect button = JobDelegate::cancelButtonRect(row, view->fontMetrics());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, button.center());
    QVERIFY(outcome.has_value());
    QCOMPARE(*outcome, JobState::Cancelled);
    QCOMPARE(panel.model()->index(0).data(JobsModel::StateRole).toInt(), static_cast<int>(JobState::Cancelled));
    release.release();
    runner.waitForWorkers();
}

void JobsModelTest::aRunningRowChangesAtMostTwiceASecond() {
    // Every visible change repaints the main window (job_runner.hpp, kProgressPollMs): a job whose
    // progress moves every millisecond changes its row at most twice a second (1.6 s: 3 polls, 1 spare).
    JobRunner runner;
    JobsModel model(&runner);
    std::atomic<bool> stop{false};
    runner.start<int>(
        this, QStringLiteral("busy"), QStringLiteral("Busy"),
        [&stop](JobControl& control) {
            for (int i = 0; !stop.load(); ++i) {
                control.setProgress((i % 1000) / 1000.0);
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            return 0;
        },
        [](const JobOutcome<int>&) {});
    int changes = 0;
    connect(&model, &QAbstractItemModel::dataChanged, this, [&changes] { ++changes; });
    QTest::qWait(1600);
    stop.store(true);
    runner.waitForWorkers();
    QVERIFY2(changes >= 2 && changes <= 4, qPrintable(QString::number(changes)));
}

void JobsModelTest::runnerTicksOnlyWhileAJobRuns() {
    QSemaphore release;
    JobRunner runner;
    const auto unblock = qScopeGuard([&release] { release.release(); });
    QSignalSpy ticks(&runner, &JobRunner::progressTick);
    QTest::qWait(2 * kProgressPollMs);
    QCOMPARE(ticks.count(), 0);
    const JobId job = startBlockedJob(runner, this, release, 0.5);
    QTRY_VERIFY(ticks.count() >= 2);
    release.release();
    QTRY_VERIFY(!runner.isRunning(job));
    ticks.clear();
    QTest::qWait(2 * kProgressPollMs);
    QCOMPARE(ticks.count(), 0);
}

void JobsModelTest::rowsChangeOnlyOnTheRunnersTick() {
    // A timer of its own would change the row between two ticks: one more composition of the window.
    QSemaphore release;
    JobRunner runner;
    const auto unblock = qScopeGuard([&release] { release.release(); });
    bool inTick = false;
    // Slots run in the order they were connected: these two enclose the model's own.
    connect(&runner, &JobRunner::progressTick, this, [&inTick] { inTick = true; });
    JobsModel model(&runner);
    connect(&runner, &JobRunner::progressTick, this, [&inTick] { inTick = false; });
    int changes = 0, changesOutsideTicks = 0;
    connect(&model, &QAbstractItemModel::dataChanged, this, [&] {
        ++changes;
        if (!inTick) ++changesOutsideTicks;
    });
    QSignalSpy ticks(&runner, &JobRunner::progressTick);
    startBlockedJob(runner, this, release, 0.5);
    QTRY_VERIFY(ticks.count() >= 3);
    QVERIFY(changes >= 3);
    QCOMPARE(changesOutsideTicks, 0);
}

void JobsModelTest::progressBehindAnotherTabIsLeftAlone() {
    QMainWindow window;
    window.setCentralWidget(new QLabel(QStringLiteral("views")));
    const auto addDock = [&window](const QString& title, QWidget* content) {
        auto* dock = new QDockWidget(title, &window);
        dock->setWidget(content);
        window.addDockWidget(Qt::LeftDockWidgetArea, dock);
        return dock;
    };
    auto* panel = new QWidget;
    auto* bar = new QProgressBar(panel);
    bar->setRange(0, 1000);
    auto* status = new QLabel(QStringLiteral("idle"), panel);
    status->move(0, 40);
    QDockWidget* front = addDock(QStringLiteral("Dataset"), new QLabel(QStringLiteral("dataset")));
    QDockWidget* back = addDock(QStringLiteral("Clustering"), panel);
    window.tabifyDockWidget(front, back);
    front->raise();
    window.resize(800, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QSemaphore release;
    JobRunner runner;
    const auto unblock = qScopeGuard([&release] { release.release(); });
    const JobId job = startBlockedJob(runner, this, release, 0.5);
    QTRY_COMPARE(runner.progress(job), 0.5);
    const int before = bar->value();
    showJobProgress(runner, job, bar, status, QStringLiteral("Clustering"));
    QCOMPARE(bar->value(), before);
    QCOMPARE(status->text(), QStringLiteral("idle"));

    back->raise();
    QTRY_VERIFY(!bar->visibleRegion().isEmpty());
    showJobProgress(runner, job, bar, status, QStringLiteral("Clustering"));
    QCOMPARE(bar->value(), 500);
    QVERIFY(status->text().startsWith(QStringLiteral("Clustering ")));
}

CLUSTERLENS_GUI_TEST_MAIN(JobsModelTest)
#include "jobs_model_test.moc"
