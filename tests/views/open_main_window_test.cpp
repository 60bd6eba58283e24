// Opening files in the main window: the Open dialog of a dropped or chosen FCS file opens it compensated
// with its channels (and is grabbed to open_dialog.png for a look); results are marked stale once the
// channels change and not before; labels imported from a file become a labeling with their class names,
// and a bad labels file names itself and the reason while every labeling stays; a table's label
// column names its classes; a dropped file shows the dialog and opens only when it is accepted.

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextStream>
#include <QUrl>

#include "dataset_panel.hpp"
#include "gui_test_main.hpp"
#include "log_panel.hpp"
#include "open/open_dialog.hpp"
#include "session/result_staleness.hpp"
#include "session_test_support.hpp"

using namespace clusterlens;
using namespace clusterlens::gui;
using namespace clusterlens::views;
using clusterlens::test::kGuiJobTimeoutMs;

namespace {

/// The combo-box items that name `name` and carry the stale marker.
int markedItems(MainWindow& window, const QString& name) {
    int marked = 0;
    for (QComboBox* box : window.dendrogramPanel()->findChildren<QComboBox*>())
        for (int i = 0; i < box->count(); ++i)
            if (box->itemText(i) == name &&
                box->itemData(i, Qt::AccessibleDescriptionRole).toString().startsWith(QStringLiteral("(stale:")))
                ++marked;
    return marked;
}

QString writeText(const QTemporaryDir& dir, const QString& name, const QString& text) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) return {};
    file.write(text.toUtf8());
    return path;
}

}  // namespace

class OpenMainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every test starts from the defaults, not from the options remembered by the one before.
    void init() { QSettings().remove(QStringLiteral("files/openChoices")); }
    void openDialogOpensAnFcsFileCompensatedWithItsChannels();
    void resultsAreMarkedStaleAfterAChannelChangeAndNotBefore();
    void importedLabelsBecomeALabelingWithTheirClassNames();
    void aBadLabelsFileNamesTheReasonAndKeepsEveryLabeling();
    void aTablesLabelColumnNamesItsClasses();
    void aDroppedDataFileShowsTheOpenDialog();
};

void OpenMainWindowTest::openDialogOpensAnFcsFileCompensatedWithItsChannels() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openWithDialog(QStringLiteral(CLUSTERLENS_DATA_DIR "/fcs/AriaFile1.fcs"));
    OpenDialog* dialog = window.openDialog();
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isReady(), kGuiJobTimeoutMs);
    QTRY_VERIFY(dialog->isVisible());
    QVERIFY2(dialog->summary()->text().contains(QStringLiteral("Defaults: flow cytometry")),
             qPrintable(dialog->summary()->text()));
    const QString shot = QDir::current().filePath(QStringLiteral("open_dialog.png"));
    QVERIFY(dialog->grab().save(shot));
    qInfo("Open dialog grabbed to %s", qPrintable(shot));

    QSignalSpy changed(window.session(), &DatasetSession::currentChanged);
    dialog->accept();
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() > 0, kGuiJobTimeoutMs);
    QVERIFY(window.session()->choice().spec.compensate);
    QCOMPARE(window.session()->transform().spec(), QStringLiteral("asinh:150"));
    const QStringList active = window.datasetPanel()->activeFeatures();
    QCOMPARE(active.size(), 11);
    QVERIFY(!active.contains(QStringLiteral("Time")));
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->session().data.read.compensate, kGuiJobTimeoutMs);
}

void OpenMainWindowTest::resultsAreMarkedStaleAfterAChannelChangeAndNotBefore() {
    MainWindow window;
    test::openDemo(window);
    QSignalSpy shown(window.dendrogramPanel(), &DendrogramPanel::treeShown);
    window.clusteringPanel()->setLinkage(QStringLiteral("average"));
    window.clusteringPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, kGuiJobTimeoutMs);
    const QStringList linkages = window.analysis()->linkageNames();
    QCOMPARE(linkages.size(), 1);
    const QString name = linkages.first();
    QVERIFY(window.staleMarker()->reason(StaleMarker::Kind::Linkage, name).isEmpty());
    QCOMPARE(markedItems(window, name), 0);
    QVERIFY(!window.logPanel()->text().contains(QStringLiteral("now stale")));

    auto* features = window.datasetPanel()->findChild<QListWidget*>();
    QVERIFY(features);
    features->item(0)->setCheckState(Qt::Unchecked);
    QVERIFY(window.staleMarker()->reason(StaleMarker::Kind::Linkage, name).contains(QStringLiteral("other channels")));
    QVERIFY(markedItems(window, name) >= 1);
    QVERIFY(window.logPanel()->text().contains(QStringLiteral("now stale")));

    // Back on the channels it was computed on, it is current again.
    features->item(0)->setCheckState(Qt::Checked);
    QVERIFY(window.staleMarker()->reason(StaleMarker::Kind::Linkage, name).isEmpty());
    QCOMPARE(markedItems(window, name), 0);
}

void OpenMainWindowTest::importedLabelsBecomeALabelingWithTheirClassNames() {
    MainWindow window;
    test::openDemo(window);
    const std::size_t n = window.session()->raw()->n;
    QTemporaryDir dir;
    QString text = QStringLiteral("event,gate\n");
    for (std::size_t i = 0; i < n; ++i)
        text +=
            QStringLiteral("%1,%2\n").arg(i).arg(i % 3 == 0 ? QStringLiteral("T cells") : QStringLiteral("B cells"));
    const QString path = writeText(dir, QStringLiteral("manual gates.csv"), text);
    QSignalSpy labelings(window.analysis(), &AnalysisSession::labelingsChanged);
    window.importLabelsFrom(path);
    QTRY_VERIFY_WITH_TIMEOUT(window.analysis()->labeling(QStringLiteral("manual gates")), kGuiJobTimeoutMs);

    const auto labels = window.analysis()->labeling(QStringLiteral("manual gates"));
    QCOMPARE(labels->size(), n);
    QCOMPARE((*labels)[0], 0);
    QCOMPARE((*labels)[1], 1);
    QCOMPARE((*labels)[3], 0);
    const auto style = window.analysis()->labelingStyle(QStringLiteral("manual gates"));
    QVERIFY(style);
    QCOMPARE(style->names, (QStringList{QStringLiteral("T cells"), QStringLiteral("B cells")}));
    const LabelingResult* stored = findNamed(window.document()->session().labelings, "manual gates");
    QVERIFY(stored);
    QCOMPARE(stored->clusterNames, (std::vector<std::string>{"T cells", "B cells"}));
    // Imported labels were computed on no channels: a channel change does not make them stale.
    window.datasetPanel()->findChild<QListWidget*>()->item(0)->setCheckState(Qt::Unchecked);
    QVERIFY(window.staleMarker()->reason(StaleMarker::Kind::Labeling, QStringLiteral("manual gates")).isEmpty());
}

void OpenMainWindowTest::aBadLabelsFileNamesTheReasonAndKeepsEveryLabeling() {
    MainWindow window;
    test::openDemo(window);
    QTemporaryDir dir;
    const QString good = writeText(dir, QStringLiteral("leiden.csv"), [&] {
        QString text;
        for (std::size_t i = 0; i < window.session()->raw()->n; ++i) text += QStringLiteral("%1\n").arg(i % 4);
        return text;
    }());
    window.importLabelsFrom(good);
    QTRY_VERIFY_WITH_TIMEOUT(window.analysis()->labeling(QStringLiteral("leiden")), kGuiJobTimeoutMs);
    const QStringList before = window.analysis()->labelingNames();
    const auto leiden = window.analysis()->labeling(QStringLiteral("leiden"));
    const std::size_t storedBefore = window.document()->session().labelings.size();

    const QString shortFile =
        writeText(dir, QStringLiteral("flowsom.csv"), QStringLiteral("1\n2\n3\n1\n2\n3\n1\n2\n3\n1\n"));
    window.importLabelsFrom(shortFile);
    QTRY_VERIFY_WITH_TIMEOUT(window.lastLabelsErrorBox() && window.lastLabelsErrorBox()->isVisible(), kGuiJobTimeoutMs);
    QMessageBox* box = window.lastLabelsErrorBox();
    QVERIFY(box->text().contains(QStringLiteral("flowsom.csv")));
    QVERIFY2(box->informativeText().contains(QStringLiteral("has 10 labels but the data has 6052 events")),
             qPrintable(box->informativeText()));
    QVERIFY(box->informativeText().contains(QStringLiteral("unchanged")));
    box->accept();

    const QString malformed = writeText(dir, QStringLiteral("gates.tsv"), QStringLiteral("0\tT\n1\tB\textra\n"));
    window.importLabelsFrom(malformed);
    QTRY_VERIFY_WITH_TIMEOUT(window.lastLabelsErrorBox()->isVisible(), kGuiJobTimeoutMs);
    QVERIFY(window.lastLabelsErrorBox()->text().contains(QStringLiteral("gates.tsv")));
    QVERIFY2(window.lastLabelsErrorBox()->informativeText().contains(QStringLiteral("line 2")),
             qPrintable(window.lastLabelsErrorBox()->informativeText()));
    window.lastLabelsErrorBox()->accept();

    QCOMPARE(window.analysis()->labelingNames(), before);
    QCOMPARE(window.analysis()->labeling(QStringLiteral("leiden")), leiden);
    QCOMPARE(window.document()->session().labelings.size(), storedBefore);
    QVERIFY(window.logPanel()->text().contains(QStringLiteral("Could not import labels from \u201cflowsom.csv\u201d")));
}

void OpenMainWindowTest::aTablesLabelColumnNamesItsClasses() {
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy changed(window.session(), &DatasetSession::currentChanged);
    window.openFile(QStringLiteral(CLUSTERLENS_DATA_DIR "/tables/iris.csv"));
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() > 0, kGuiJobTimeoutMs);
    QVERIFY(window.session()->transform().isNone());
    QString truth;
    for (const QString& name : window.analysis()->labelingNames())
        if (name.startsWith(QStringLiteral("ground truth"))) truth = name;
    QVERIFY(!truth.isEmpty());
    const QStringList classes{QStringLiteral("setosa"), QStringLiteral("versicolor"), QStringLiteral("virginica")};
    const auto style = window.analysis()->labelingStyle(truth);
    QVERIFY(style);
    QCOMPARE(style->names, classes);
    const LabelingResult* stored = findNamed(window.document()->session().labelings, truth.toStdString());
    QVERIFY(stored);
    QCOMPARE(stored->clusterNames, (std::vector<std::string>{"setosa", "versicolor", "virginica"}));
    // The file's own labels were computed on no channels: they never become stale.
    window.datasetPanel()->findChild<QListWidget*>()->item(0)->setCheckState(Qt::Unchecked);
    QVERIFY(window.staleMarker()->reason(StaleMarker::Kind::Labeling, truth).isEmpty());
}

void OpenMainWindowTest::aDroppedDataFileShowsTheOpenDialog() {
    // The drop as the window receives it from the platform's drag and drop.
    struct DropTarget : MainWindow {
        using MainWindow::dropEvent;
    } window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString path = QStringLiteral(CLUSTERLENS_DATA_DIR "/h5ad/pbmc_small_csr.h5ad");
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    window.dropEvent(&drop);
    OpenDialog* dialog = window.openDialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->path(), path);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isReady(), kGuiJobTimeoutMs);
    // Nothing is read into the window until the dialog is accepted.
    QVERIFY(!window.session()->raw());
    QSignalSpy changed(window.session(), &DatasetSession::currentChanged);
    dialog->accept();
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() > 0, kGuiJobTimeoutMs);
    QCOMPARE(window.session()->transform().spec(), QStringLiteral("normalize-total,log1p,pca:50"));
    QCOMPARE(window.session()->current()->d, std::size_t{50});
}

CLUSTERLENS_GUI_TEST_MAIN(OpenMainWindowTest)
#include "open_main_window_test.moc"
