// Crash recovery. The application binary is started on the demo with a recovery folder of the test's
// own (--recovery-dir, --autosave-seconds), killed with SIGKILL after its autosave, and the next window
// offers the autosaved work and restores it; killed in the middle of an MHCA it started itself (--cluster,
// seen on its stderr job lines), the next window restores exactly the last autosave, without that
// analysis. In-process: a window that gated populations and clustered
// goes away without a clean quit; the next one restores every object (compared field by field). A clean
// quit leaves no recovery file, and declining the offer removes it.

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>

#include "clusterlens/session/session_file.hpp"
#include "gui_test_main.hpp"
#include "session/autosave.hpp"
#include "session/session_io.hpp"
#include "session/view_state.hpp"
#include "session_test_support.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;
using clusterlens::test::kGuiJobTimeoutMs;

namespace {

QMessageBox* recoveryBox(QWidget& window) {
    QMessageBox* box = nullptr;
    const bool found = QTest::qWaitFor(
        [&] {
            box = window.findChild<QMessageBox*>(QStringLiteral("RecoveryBox"));
            return box && box->isVisible();
        },
        10'000);
    return found ? box : nullptr;
}

QAbstractButton* button(QMessageBox* box, const QString& text) {
    for (QAbstractButton* candidate : box->buttons())
        if (candidate->text() == text) return candidate;
    return nullptr;
}

/// Starts the application binary on the demo, autosaving into `recovery` every second, with `extra`
/// arguments; its settings and extracted demo stay in `dir`, not the user's folders.
bool startChild(QProcess& app, const QTemporaryDir& dir, const QString& recovery, const QStringList& extra = {}) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_CACHE_HOME"), dir.filePath(QStringLiteral("cache")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral(CLUSTERLENS_GUI_BINARY),
              QStringList{QStringLiteral("--demo"), QStringLiteral("--recovery-dir"), recovery,
                          QStringLiteral("--autosave-seconds"), QStringLiteral("1")} +
                  extra);
    return app.waitForStarted(10'000);
}

/// Kills `app` with SIGKILL (no clean quit) and waits until it is gone. The kernel may take long to
/// tear down a killed process: 7 s for the normal build and 26 s for the ASan build on the loaded
/// 2-core VM.
void killChild(QProcess& app) {
    app.kill();
    QVERIFY(app.waitForFinished(kGuiJobTimeoutMs));
    QCOMPARE(app.exitStatus(), QProcess::CrashExit);
}

/// Restores the offered recovery in `window` and waits until its work is shown.
bool restore(MainWindow& window) {
    QMessageBox* box = recoveryBox(window);
    if (!box) return false;
    QSignalSpy shown(window.sessionIo(), &SessionIo::sessionShown);
    button(box, QStringLiteral("Restore"))->click();
    return QTest::qWaitFor([&] { return shown.count() > 0; }, kGuiJobTimeoutMs);
}

}  // namespace

class SessionRecoveryTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void killedApplicationIsOfferedItsAutosave();
    void killedDuringAnAnalysisRestoresItsLastAutosaveWithoutTheAnalysis();
    void windowGoneWithoutCleanQuitRestoresEveryObject();
    void cleanQuitLeavesNoRecoveryAndDeclineRemovesIt();
};

void SessionRecoveryTest::killedApplicationIsOfferedItsAutosave() {
    QTemporaryDir dir;
    const QString recovery = dir.filePath(QStringLiteral("recovery"));
    QProcess app;
    QVERIFY2(startChild(app, dir, recovery), qPrintable(app.errorString()));
    const QString autosaved = QDir(recovery).filePath(QStringLiteral("recovery-0.clusterlens"));
    QVERIFY(QTest::qWaitFor([&] { return QFileInfo(autosaved).size() > 0; }, kGuiJobTimeoutMs));
    QTest::qWait(300);  // an autosave under way finishes its rename
    killChild(app);
    if (QTest::currentTestFailed()) return;
    QVERIFY(QFileInfo::exists(autosaved));

    MainWindow window;
    window.resize(1200, 800);
    window.show();
    window.startRecovery(recovery, 600'000);
    QVERIFY(restore(window));
    const Session& session = window.document()->session();
    QCOMPARE(session.data.n, std::uint64_t{6052});
    QCOMPARE(session.data.d, std::uint64_t{12});
    QVERIFY(QString::fromStdString(session.data.path).endsWith(QStringLiteral("aria_facs_6052.csv")));
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->current() && window.session()->current()->n == 6052, kGuiJobTimeoutMs);
    // Restored work was never saved: it is marked so, and its recovery file is gone.
    QVERIFY(window.document()->isModified());
    QVERIFY(!QFileInfo::exists(QDir(recovery).filePath(QStringLiteral("recovery-0.restore.clusterlens"))));
    window.document()->setModified(false);
}

void SessionRecoveryTest::killedDuringAnAnalysisRestoresItsLastAutosaveWithoutTheAnalysis() {
    QTemporaryDir dir;
    const QString recovery = dir.filePath(QStringLiteral("recovery"));
    QProcess app;
    // The full MHCA takes seconds on the demo: the child is killed while it runs.
    QVERIFY2(startChild(app, dir, recovery, {QStringLiteral("--cluster"), QStringLiteral("mahalanobis")}),
             qPrintable(app.errorString()));
    const QString autosaved = QDir(recovery).filePath(QStringLiteral("recovery-0.clusterlens"));
    QString log;  // the child's "job started: NAME" and "job ended: NAME (...)" lines
    const QString clustering = QStringLiteral("Clustering: MHCA full");
    const QString autosave = QStringLiteral("Autosave");
    const auto lines = [&](const QString& event, const QString& name) {
        return static_cast<int>(log.count(QStringLiteral("job %1: %2").arg(event, name)));
    };
    // Inside the analysis, with an autosave on disk and none under way.
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     log += QString::fromLocal8Bit(app.readAllStandardError());
                     return lines(QStringLiteral("started"), clustering) == 1 &&
                            lines(QStringLiteral("ended"), autosave) > 0 &&
                            lines(QStringLiteral("started"), autosave) == lines(QStringLiteral("ended"), autosave) &&
                            QFileInfo(autosaved).size() > 0;
                 },
                 kGuiJobTimeoutMs),
             qPrintable(log));
    const Session beforeKill = readSession(autosaved.toStdString());
    killChild(app);
    if (QTest::currentTestFailed()) return;
    log += QString::fromLocal8Bit(app.readAllStandardError());
    QVERIFY2(lines(QStringLiteral("ended"), clustering) == 0, qPrintable(log));  // killed during the analysis

    MainWindow window;
    test::showWindow(window);
    window.startRecovery(recovery, 600'000);
    QVERIFY(restore(window));
    const Session& restored = window.document()->session();
    QCOMPARE(restored.data.n, std::uint64_t{6052});
    QCOMPARE(restored.data.sha256, beforeKill.data.sha256);
    // Everything the last autosave held, and nothing of the analysis it did not see finish.
    test::compareSessions(restored, beforeKill, false);
    if (QTest::currentTestFailed()) return;
    QVERIFY(restored.linkages.empty());
    QVERIFY(restored.labelings.empty());
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->current() && window.session()->current()->n == 6052, kGuiJobTimeoutMs);
    QVERIFY(window.document()->isModified());
    window.document()->setModified(false);
}

void SessionRecoveryTest::windowGoneWithoutCleanQuitRestoresEveryObject() {
    QTemporaryDir dir;
    Session autosaved;
    {
        MainWindow crashed;
        crashed.startRecovery(dir.path(), 600'000);
        test::openDemo(crashed);
        test::doSomeOfEverything(crashed);
        if (QTest::currentTestFailed()) return;
        // The autosave after the last finished job holds all of it.
        QSignalSpy saved(crashed.autosave(), &Autosave::saved);
        crashed.autosave()->saveSoon();
        QTRY_VERIFY_WITH_TIMEOUT(saved.count() > 0, kGuiJobTimeoutMs);
        autosaved = crashed.document()->session();
        crashed.document()->setModified(false);
        // Gone without closeEvent: what a crash leaves behind.
    }
    QVERIFY(QFileInfo::exists(QDir(dir.path()).filePath(QStringLiteral("recovery-0.clusterlens"))));
    MainWindow window;
    window.resize(1500, 950);
    window.show();
    window.startRecovery(dir.path(), 600'000);
    QVERIFY(restore(window));
    test::compareSessions(window.document()->session(), autosaved, false);
    if (QTest::currentTestFailed()) return;
    // The views show the autosaved view state.
    const ViewState view = viewStateFromJson(autosaved.viewState);
    QTRY_COMPARE_WITH_TIMEOUT(window.dendrogramPanel()->clusterCount(), view.dendrogramClusters, kGuiJobTimeoutMs);
    QCOMPARE(window.dendrogramPanel()->currentLinkage(), view.dendrogramLinkage);
    QTRY_COMPARE_WITH_TIMEOUT(window.analysis()->colouring(), view.colouring, kGuiJobTimeoutMs);
    QVERIFY(window.document()->path().isEmpty());
    QVERIFY(window.isWindowModified());
    window.document()->setModified(false);
}

void SessionRecoveryTest::cleanQuitLeavesNoRecoveryAndDeclineRemovesIt() {
    QTemporaryDir dir;
    const QString file = QDir(dir.path()).filePath(QStringLiteral("recovery-0.clusterlens"));
    {
        MainWindow window;
        window.startRecovery(dir.path(), 600'000);
        test::openDemo(window);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(file), kGuiJobTimeoutMs);
        QVERIFY(window.close());
    }
    QVERIFY(!QFileInfo::exists(file));
    {
        MainWindow window;
        window.startRecovery(dir.path(), 600'000);
        QTest::qWait(200);
        QVERIFY(!window.findChild<QMessageBox*>(QStringLiteral("RecoveryBox")));
        test::openDemo(window);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(file), kGuiJobTimeoutMs);
    }
    MainWindow window;
    window.show();
    window.startRecovery(dir.path(), 600'000);
    QMessageBox* box = recoveryBox(window);
    QVERIFY(box);
    button(box, QStringLiteral("Discard"))->click();
    QTRY_VERIFY(QDir(dir.path()).entryList({QStringLiteral("*.clusterlens")}, QDir::Files).isEmpty());
}

CLUSTERLENS_GUI_TEST_MAIN(SessionRecoveryTest)
#include "session_recovery_test.moc"
