// Cancel during a file read: the Jobs panel's Cancel button stops the reader itself (its JobControl
// reaches ReadOptions::control), so the worker is idle again at once; the dataset and the results
// from before stay, and the Log says the read was cancelled.

#include <QElapsedTimer>
#include <QListView>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "clusterlens/io/write_dataset.hpp"
#include "clusterlens/synthetic.hpp"
#include "gui_test_main.hpp"
#include "jobs/jobs_model.hpp"
#include "jobs/jobs_panel.hpp"
#include "log_panel.hpp"
#include "session_test_support.hpp"

using namespace clusterlens;
using namespace clusterlens::gui;
using namespace clusterlens::views;
using clusterlens::test::kGuiJobTimeoutMs;

namespace {

/// Rows of the generated file: a full read takes seconds on a two-core machine, far longer than
/// the bound on the time from Cancel to an idle worker.
constexpr std::size_t kLargeRows = 1'000'000;
/// From Cancel until no worker runs; the reader checks its JobControl every few milliseconds, so
/// this leaves room for a loaded machine and still fails when the read goes on to its end.
constexpr qint64 kIdleWithinMs = 1500;

/// Clicks the Cancel button of the running job named `name` in the Jobs panel; false if none.
bool clickCancel(JobsPanel* panel, const QString& name) {
    QListView* view = panel->view();
    JobsModel* model = panel->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row);
        if (index.data(JobsModel::NameRole).toString() != name ||
            index.data(JobsModel::StateRole).toInt() != static_cast<int>(JobState::Running))
            continue;
        view->scrollTo(index);
        const QRect button = JobDelegate::cancelButtonRect(view->visualRect(index), view->fontMetrics());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, button.center());
        return true;
    }
    return false;
}

}  // namespace

class ReadCancelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { QSettings().remove(QStringLiteral("files/openChoices")); }
    void cancellingAReadStopsTheReaderAndKeepsTheDatasetAndResults();
};

void ReadCancelTest::cancellingAReadStopsTheReaderAndKeepsTheDatasetAndResults() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString large = dir.filePath(QStringLiteral("large.csv"));
    SyntheticOptions synthetic;
    synthetic.n = kLargeRows;
    synthetic.d = 14;
    writeCsv(large.toStdString(), makeCytometryLike(synthetic));

    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    DatasetSession* session = window.session();
    QSignalSpy shown(session, &DatasetSession::currentChanged);
    session->openWithDefaults(QStringLiteral(CLUSTERLENS_DATA_DIR "/tables/iris.csv"));
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0 && !session->isLoading(), kGuiJobTimeoutMs);
    QSignalSpy added(window.clusteringPanel(), &ClusteringPanel::linkageAdded);
    window.clusteringPanel()->setLinkage(QStringLiteral("average"));
    window.clusteringPanel()->run();
    QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, kGuiJobTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(window.jobRunner()->runningCount(), 0, kGuiJobTimeoutMs);
    const auto dataset = session->raw();
    const QString path = session->path();
    const QStringList linkages = window.analysis()->linkageNames();
    QCOMPARE(linkages.size(), 1);
    const auto linkage = window.analysis()->linkage(linkages.front());

    QSignalSpy cancelled(session, &DatasetSession::loadCancelled);
    session->openWithDefaults(large);
    QVERIFY(session->isLoading());
    QTest::qWait(300);  // the reader is well into the file
    QVERIFY2(clickCancel(window.jobsPanel(), QStringLiteral("Read large.csv")), "no running read in the Jobs panel");
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(!session->isLoading());
    QCOMPARE(window.jobRunner()->runningCount(), 0);
    window.jobRunner()->waitForWorkers();
    const qint64 idleMs = sinceCancel.elapsed();
    QVERIFY2(idleMs < kIdleWithinMs, qPrintable(QStringLiteral("the reader ran on %1 ms after Cancel").arg(idleMs)));

    QCOMPARE(session->raw(), dataset);
    QCOMPARE(session->path(), path);
    QCOMPARE(window.analysis()->linkageNames(), linkages);
    QCOMPARE(window.analysis()->linkage(linkages.front()), linkage);
    const QString log = window.logPanel()->text();
    QVERIFY2(log.contains(QStringLiteral("Read large.csv: cancelled after")), qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("was cancelled; the previous dataset stays")), qPrintable(log));
}

CLUSTERLENS_GUI_TEST_MAIN(ReadCancelTest)
#include "read_cancel_test.moc"
