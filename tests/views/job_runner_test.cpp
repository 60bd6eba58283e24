// JobRunner: results arrive on the GUI thread, cancel is prompt, superseded results are dropped.

#include <QElapsedTimer>
#include <QSemaphore>
#include <QSignalSpy>
#include <QThread>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/testing/gpu_fault.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

/// Work that runs until cancelled, checking its JobControl every millisecond as engine code must.
int workUntilCancelled(JobControl& control) {
    while (true) {
        control.checkCancelled();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

}  // namespace

class JobRunnerTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void resultIsDeliveredOnTheGuiThread();
    void errorsBecomeFailedOutcomesWithTheEngineMessage();
    void cancelGivesTheCancelledOutcomeWithin200ms();
    void cooperativeCancelInsideTheWorkIsCancelledNotFailed();
    void supersededJobResultIsDropped();
    void destroyedReceiverGetsNoOutcome();
    void progressIsReadFromTheJobControl();
    void engineFallbackWarningIsReportedBeforeTheJobFinishes();
};

void JobRunnerTest::resultIsDeliveredOnTheGuiThread() {
    JobRunner runner;
    QSignalSpy started(&runner, &JobRunner::jobStarted);
    QSignalSpy finished(&runner, &JobRunner::jobFinished);
    std::atomic<QThread*> workerThread{nullptr};
    std::optional<JobOutcome<int>> received;
    QThread* deliveryThread = nullptr;
    runner.start<int>(
        this, QStringLiteral("test"), QStringLiteral("answer"),
        [&workerThread](JobControl&) {
            workerThread = QThread::currentThread();
            return 42;
        },
        [&](const JobOutcome<int>& outcome) {
            deliveryThread = QThread::currentThread();
            received = outcome;
        });
    QCOMPARE(started.count(), 1);
    QTRY_VERIFY(received.has_value());
    QCOMPARE(received->state, JobState::Finished);
    QVERIFY(received->result);
    QCOMPARE(*received->result, 42);
    QCOMPARE(deliveryThread, QThread::currentThread());
    QVERIFY(workerThread.load() != nullptr);
    QVERIFY(workerThread.load() != QThread::currentThread());
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(2).value<JobState>(), JobState::Finished);
    QCOMPARE(runner.runningCount(), 0);
}

void JobRunnerTest::errorsBecomeFailedOutcomesWithTheEngineMessage() {
    JobRunner runner;
    std::optional<JobOutcome<int>> received;
    runner.start<int>(
        this, QStringLiteral("test"), QStringLiteral("failing"),
        [](JobControl&) -> int { throw InvalidInput("cells.csv: line 3: expected 4 fields, found 2"); },
        [&](const JobOutcome<int>& outcome) { received = outcome; });
    QTRY_VERIFY(received.has_value());
    QCOMPARE(received->state, JobState::Failed);
    QVERIFY(!received->result);
    QCOMPARE(received->message, QStringLiteral("cells.csv: line 3: expected 4 fields, found 2"));
}

void JobRunnerTest::cancelGivesTheCancelledOutcomeWithin200ms() {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::jobFinished);
    std::optional<JobOutcome<int>> received;
    const JobId id = runner.start<int>(this, QStringLiteral("test"), QStringLiteral("endless"), workUntilCancelled,
                                       [&](const JobOutcome<int>& outcome) { received = outcome; });
    QVERIFY(runner.isRunning(id));
    QElapsedTimer clock;
    clock.start();
    runner.cancel(id);
    QTRY_VERIFY_WITH_TIMEOUT(received.has_value(), 200);
    QVERIFY2(clock.elapsed() <= 200, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(received->state, JobState::Cancelled);
    QVERIFY(received->message.isEmpty());
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(2).value<JobState>(), JobState::Cancelled);
    // The worker itself stops promptly too, and its late outcome is not delivered a second time.
    runner.waitForWorkers();
    QCoreApplication::processEvents();
    QCOMPARE(finished.count(), 1);
}

void JobRunnerTest::cooperativeCancelInsideTheWorkIsCancelledNotFailed() {
    JobRunner runner;
    std::optional<JobOutcome<int>> received;
    runner.start<int>(
        this, QStringLiteral("test"), QStringLiteral("gives up"), [](JobControl&) -> int { throw Cancelled(); },
        [&](const JobOutcome<int>& outcome) { received = outcome; });
    QTRY_VERIFY(received.has_value());
    QCOMPARE(received->state, JobState::Cancelled);
}

void JobRunnerTest::supersededJobResultIsDropped() {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::jobFinished);
    QSemaphore release;
    int firstDeliveries = 0;
    std::optional<JobOutcome<int>> second;
    // The first job ignores cancellation (like a reader in the middle of a file) and finishes late.
    runner.start<int>(
        this, QStringLiteral("slot"), QStringLiteral("old"),
        [&release](JobControl&) {
            release.acquire();
            return 1;
        },
        [&](const JobOutcome<int>&) { ++firstDeliveries; });
    runner.start<int>(
        this, QStringLiteral("slot"), QStringLiteral("new"), [](JobControl&) { return 2; },
        [&](const JobOutcome<int>& outcome) { second = outcome; });
    QTRY_VERIFY(second.has_value());
    QCOMPARE(*second->result, 2);
    release.release();
    runner.waitForWorkers();
    QCoreApplication::processEvents();
    QCOMPARE(firstDeliveries, 0);
    QCOMPARE(finished.count(), 2);
    QCOMPARE(finished.at(0).at(2).value<JobState>(), JobState::Cancelled);
    QCOMPARE(finished.at(0).at(3).toString(), QStringLiteral("superseded"));
    QCOMPARE(finished.at(1).at(2).value<JobState>(), JobState::Finished);
}

void JobRunnerTest::destroyedReceiverGetsNoOutcome() {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::jobFinished);
    bool delivered = false;
    auto* receiver = new QObject;
    QSemaphore release;
    runner.start<int>(
        receiver, QStringLiteral("test"), QStringLiteral("orphan"),
        [&release](JobControl&) {
            release.acquire();
            return 7;
        },
        [&delivered](const JobOutcome<int>&) { delivered = true; });
    delete receiver;
    release.release();
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(!delivered);
}

void JobRunnerTest::progressIsReadFromTheJobControl() {
    JobRunner runner;
    QSemaphore reported;
    QSemaphore release;
    const JobId id = runner.start<int>(
        this, QStringLiteral("test"), QStringLiteral("half way"),
        [&](JobControl& control) {
            control.setProgress(0.5);
            reported.release();
            release.acquire();
            return 0;
        },
        [](const JobOutcome<int>&) {});
    reported.acquire();
    QCOMPARE(runner.progress(id), 0.5);
    release.release();
    QTRY_VERIFY(!runner.isRunning(id));
}

void JobRunnerTest::engineFallbackWarningIsReportedBeforeTheJobFinishes() {
    // The GPU "runs out of memory": the engine runs k-means on the CPU and leaves a warning on the job.
    const fault_injection::ScopedGpuFault fault(fault_injection::GpuFault::OutOfMemory, std::size_t{3} << 30,
                                                std::size_t{1} << 30);
    JobRunner runner;
    QStringList order;
    connect(&runner, &JobRunner::jobWarning, this, [&order](JobId, const QString& name, const QString& message) {
        order << QStringLiteral("warning %1: %2").arg(name, message);
    });
    connect(&runner, &JobRunner::jobFinished, this,
            [&order](JobId, const QString& name, JobState, const QString&, qint64) {
                order << QStringLiteral("finished %1").arg(name);
            });
    std::optional<JobOutcome<Backend>> received;
    runner.start<Backend>(
        this, QStringLiteral("test"), QStringLiteral("k-means"),
        [](JobControl& control) {
            const std::vector<float> x = {0.0f, 0.0f, 0.1f, 0.0f, 5.0f, 5.0f, 5.1f, 5.0f};
            KMeansOptions options;
            options.k = 2;
            return kmeans(x.data(), 4, 2, options, Backend::Auto, &control).backend;
        },
        [&received](const JobOutcome<Backend>& outcome) { received = outcome; });
    QTRY_COMPARE(order.size(), 2);
    QVERIFY(received.has_value());
    QCOMPARE(*received->result, Backend::Cpu);
    QCOMPARE(order.at(0), QStringLiteral("warning k-means: k-means: GPU out of memory (needs 3.0 GiB, 1.0 GiB free): "
                                         "ran on the CPU"));
    QCOMPARE(order.at(1), QStringLiteral("finished k-means"));
}

CLUSTERLENS_GUI_TEST_MAIN(JobRunnerTest)
#include "job_runner_test.moc"
