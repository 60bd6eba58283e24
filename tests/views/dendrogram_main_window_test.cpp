// The dendrogram in the real main window: the clustering panel runs a job whose tree appears in
// the dendrogram, a cut recolours the data scatter through the analysis session, a clicked subtree
// is selected in the scatter and a selection made in the scatter highlights its leaves. With
// CLUSTERLENS_SCREENSHOTS=1, an MHCA tree of the demo with its threshold-size marks and the iVAT in
// tree order is saved to docs/screenshots/dendrogram-threshold-marks-ivat.png. The iVAT in tree order
// takes the VAT view's run of the same events and features, and runs its own on the tree's features
// when the active ones changed after the clustering. View > Dendrogram switches both overlays, in step
// with the view's own controls.

#include <QDockWidget>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>

#include <algorithm>
#include <cstdio>

#include "analysis_session.hpp"
#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "dendrogram/clustering_panel.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dendrogram/tree_vat_strip.hpp"
#include "focus_mode.hpp"
#include "gui_test_main.hpp"
#include "main_window.hpp"
#include "scatter/scatter_widget.hpp"
#include "vat/vat_panel.hpp"
#include "window_grab.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;

namespace {

constexpr int kTimeoutMs = 90'000;

/// The action of View > Dendrogram whose text starts with `prefix` (null when missing).
QAction* dendrogramViewAction(MainWindow& window, const QString& prefix) {
    for (QAction* top : window.menuBar()->actions()) {
        if (top->text().remove('&') != QStringLiteral("View") || !top->menu()) continue;
        for (QAction* sub : top->menu()->actions()) {
            if (sub->text().remove('&') != QStringLiteral("Dendrogram") || !sub->menu()) continue;
            for (QAction* action : sub->menu()->actions())
                if (action->text().remove('&').startsWith(prefix)) return action;
        }
    }
    return nullptr;
}

}  // namespace

class DendrogramMainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void clusteringJobShowsItsTree();
    void cutRecoloursTheScatter();
    void clickedSubtreeIsSelectedInTheScatter();
    void scatterSelectionHighlightsTheLeaves();
    void treeIvatUsesTheTreesFeaturesNotTheActiveOnes();
    void treeIvatTakesTheVatViewsRunOfTheSameEvents();
    void viewMenuSwitchesBothOverlaysInStepWithTheView();
    void screenshotOfThresholdMarksAndTreeIvat();

private:
    std::unique_ptr<MainWindow> m_window;
};

void DendrogramMainWindowTest::initTestCase() {
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QSignalSpy drawn(m_window->scatter(), &ScatterWidget::dataDrawn);
    m_window->openDemo();
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kTimeoutMs);
}

void DendrogramMainWindowTest::cleanupTestCase() {
    m_window.reset();
}

void DendrogramMainWindowTest::clusteringJobShowsItsTree() {
    ClusteringPanel* clustering = m_window->clusteringPanel();
    DendrogramPanel* dendrogram = m_window->dendrogramPanel();
    QSignalSpy shown(dendrogram, &DendrogramPanel::treeShown);
    QSignalSpy failed(clustering, &ClusteringPanel::failed);
    clustering->setLinkage(QStringLiteral("single"));
    clustering->setBackend(Backend::Cpu);
    QCOMPARE(clustering->resultName(), QStringLiteral("single linkage"));
    clustering->run();
    QVERIFY(clustering->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0 || failed.count() > 0, kTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(shown.at(0).at(0).toString(), QStringLiteral("single linkage"));
    const auto linkage = m_window->analysis()->linkage(QStringLiteral("single linkage"));
    QVERIFY(linkage);
    QCOMPARE(linkage->leafCount, m_window->session()->current()->n);
    QVERIFY(m_window->analysis()->linkageDescription(QStringLiteral("single linkage")).contains(QStringLiteral("cpu")));
    QCOMPARE(dendrogram->layout()->leafCount, std::size_t{6052});
    QSignalSpy drawn(dendrogram->widget(), &DendrogramWidget::contentDrawn);
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0 || dendrogram->widget()->geometryBuilds() > 0, kTimeoutMs);
}

void DendrogramMainWindowTest::cutRecoloursTheScatter() {
    DendrogramPanel* dendrogram = m_window->dendrogramPanel();
    QVERIFY(dendrogram->layout());
    QSignalSpy recoloured(m_window->scatter(), &ScatterWidget::dataDrawn);
    dendrogram->setClusterCount(4);
    QCOMPARE(m_window->analysis()->colouring(), QStringLiteral("cut of single linkage (k=4, min 20)"));
    QTRY_VERIFY_WITH_TIMEOUT(recoloured.count() > 0, kTimeoutMs);
    const auto data = m_window->scatter()->data();
    QCOMPARE(data->mode, ColourMode::Labels);
    // Four populations of at least 20 events; single linkage's small clusters are -1 (listed apart).
    QCOMPARE(data->labelValues, (std::vector<int>{-1, 0, 1, 2, 3}));
}

void DendrogramMainWindowTest::clickedSubtreeIsSelectedInTheScatter() {
    DendrogramWidget* widget = m_window->dendrogramPanel()->widget();
    const auto& layout = *widget->tree();
    // The larger child of the root: clicked on its bar.
    const std::size_t rootRow = layout.row(layout.root());
    std::int32_t child = layout.left[rootRow];
    if (layout.size[static_cast<std::size_t>(layout.right[rootRow])] > layout.size[static_cast<std::size_t>(child)])
        child = layout.right[rootRow];
    QSignalSpy selected(m_window->scatter(), &ScatterWidget::selectionChanged);
    Q_EMIT widget->subtreeClicked(child);
    QTRY_VERIFY_WITH_TIMEOUT(selected.count() > 0, kTimeoutMs);
    const std::vector<std::int64_t> leaves = subtreeLeaves(layout, child);
    const QList<qsizetype>& rows = m_window->scatter()->selection();
    QCOMPARE(static_cast<std::size_t>(rows.size()), leaves.size());
    QVERIFY(std::equal(rows.begin(), rows.end(), leaves.begin()));
    QCOMPARE(widget->selectedLeafCount(), leaves.size());
}

void DendrogramMainWindowTest::scatterSelectionHighlightsTheLeaves() {
    DendrogramWidget* widget = m_window->dendrogramPanel()->widget();
    const QList<qsizetype> rows = {3, 17, 250, 6000};
    m_window->scatter()->setSelection(rows);
    QCOMPARE(m_window->analysis()->selection()->size(), std::size_t{4});
    QCOMPARE(widget->selectedLeafCount(), std::size_t{4});
    m_window->scatter()->clearSelection();
    QCOMPARE(widget->selectedLeafCount(), std::size_t{0});
}

void DendrogramMainWindowTest::treeIvatUsesTheTreesFeaturesNotTheActiveOnes() {
    DendrogramPanel* dendrogram = m_window->dendrogramPanel();
    VatPanel* vat = m_window->vatPanel();
    const auto treeFeatures = static_cast<std::size_t>(m_window->datasetPanel()->activeFeatures().size());
    auto* features = m_window->datasetPanel()->findChild<QListWidget*>();
    QVERIFY(features && features->count() > 2);
    features->item(0)->setCheckState(Qt::Unchecked);
    QTRY_COMPARE(static_cast<std::size_t>(m_window->datasetPanel()->activeFeatures().size()), treeFeatures - 1);
    // The VAT view's run on one feature fewer is not the tree's: the strip runs its own on the tree's.
    QSignalSpy computed(vat, &VatPanel::resultShown);
    vat->run();
    QTRY_VERIFY_WITH_TIMEOUT(computed.count() > 0, kTimeoutMs);
    QCOMPARE(vat->lastRun()->request.columns.size(), treeFeatures - 1);
    dendrogram->setTreeVatShown(true);
    QTRY_VERIFY_WITH_TIMEOUT(dendrogram->treeVatStrip()->source() != nullptr, kTimeoutMs);
    QVERIFY(dendrogram->treeVatRun() != vat->lastRun());
    QCOMPARE(dendrogram->treeVatRun()->request.columns.size(), treeFeatures);
    features->item(0)->setCheckState(Qt::Checked);
    QTRY_COMPARE(static_cast<std::size_t>(m_window->datasetPanel()->activeFeatures().size()), treeFeatures);
    // The strip stays on: the next run of the VAT view, on the tree's features again, replaces its own.
}

void DendrogramMainWindowTest::treeIvatTakesTheVatViewsRunOfTheSameEvents() {
    DendrogramPanel* dendrogram = m_window->dendrogramPanel();
    VatPanel* vat = m_window->vatPanel();
    QSignalSpy computed(vat, &VatPanel::resultShown);
    vat->run();
    QTRY_VERIFY_WITH_TIMEOUT(computed.count() > 0, kTimeoutMs);
    QVERIFY(vat->lastRun());
    dendrogram->setTreeVatShown(true);
    QTRY_VERIFY_WITH_TIMEOUT(dendrogram->treeVatStrip()->source() != nullptr, kTimeoutMs);
    QCOMPARE(dendrogram->treeVatRun(), vat->lastRun());
    QCOMPARE(dendrogram->treeVatStrip()->source()->n, dendrogram->layout()->leafCount);
    dendrogram->setTreeVatShown(false);
}

void DendrogramMainWindowTest::viewMenuSwitchesBothOverlaysInStepWithTheView() {
    DendrogramPanel* dendrogram = m_window->dendrogramPanel();
    DendrogramWidget* widget = dendrogram->widget();
    QAction* marks = dendrogramViewAction(*m_window, QStringLiteral("Threshold-size marks"));
    QAction* ivat = dendrogramViewAction(*m_window, QStringLiteral("iVAT in tree order"));
    QVERIFY(marks && ivat);
    QVERIFY(marks->isCheckable() && ivat->isCheckable());
    QCOMPARE(marks->isChecked(), widget->thresholdMarksShown());
    QCOMPARE(ivat->isChecked(), dendrogram->treeVatShown());

    const bool marksWere = widget->thresholdMarksShown();
    marks->trigger();
    QCOMPARE(widget->thresholdMarksShown(), !marksWere);
    widget->setThresholdMarksShown(marksWere);
    QCOMPARE(marks->isChecked(), marksWere);

    QVERIFY(!dendrogram->treeVatShown());
    ivat->trigger();
    QVERIFY(dendrogram->treeVatShown());
    dendrogram->setTreeVatShown(false);
    QVERIFY(!ivat->isChecked());
}

void DendrogramMainWindowTest::screenshotOfThresholdMarksAndTreeIvat() {
    if (qEnvironmentVariableIntValue("CLUSTERLENS_SCREENSHOTS") != 1) QSKIP("set CLUSTERLENS_SCREENSHOTS=1 to save it");
    m_window->resize(1920, 1080);
    ClusteringPanel* clustering = m_window->clusteringPanel();
    DendrogramPanel* dendrogram = m_window->dendrogramPanel();
    QSignalSpy shown(dendrogram, &DendrogramPanel::treeShown);
    clustering->setLinkage(QStringLiteral("mahalanobis"));
    clustering->setBackend(Backend::Cpu);
    clustering->run();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, kTimeoutMs);
    QCOMPARE(dendrogram->currentLinkage(), QStringLiteral("MHCA full t=0.5"));
    QVERIFY(dendrogram->widget()->thresholdMarks());
    dendrogram->setLogHeights(true);
    dendrogram->setClusterCount(5);
    dendrogram->setClustermapMode(0);  // the height under the tree to the iVAT
    dendrogram->setTreeVatShown(true);
    QTRY_VERIFY_WITH_TIMEOUT(dendrogram->treeVatStrip()->source() != nullptr, kTimeoutMs);
    QWidget* dock = dendrogram->parentWidget();
    while (dock && !qobject_cast<QDockWidget*>(dock)) dock = dock->parentWidget();
    QVERIFY(dock);
    m_window->focusMode()->focus(dock);
    QTest::qWait(1500);
    const QString file = QStringLiteral(CLUSTERLENS_SOURCE_DIR "/docs/screenshots/dendrogram-threshold-marks-ivat.png");
    QVERIFY(grabWindowWithViews(*m_window).save(file));
    std::printf("saved %s\n", qPrintable(file));
    m_window->focusMode()->leave();
}

CLUSTERLENS_GUI_TEST_MAIN(DendrogramMainWindowTest)
#include "dendrogram_main_window_test.moc"
