// JobsModel: a well-behaved item model (QAbstractItemModelTester) that follows the runner; the
// panel's Cancel button cancels the job of its row.

#include <QAbstractItemModelTester>
#include <QListView>
#include <QSemaphore>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
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
};

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
    // Every visible change repaints the main window (job_status.hpp, kProgressPollMs): a job whose
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

CLUSTERLENS_GUI_TEST_MAIN(JobsModelTest)
#include "jobs_model_test.moc"
