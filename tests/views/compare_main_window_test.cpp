// The comparison docks in the main window on a real dataset (SIPU s3: 5000 points, 15 Gaussian
// clusters, ground truth from its labels file): MHCA with the full (FMD) and the centroid (CMD)
// distance, and average vs ward linkage, in the point-height view; ground truth vs k-means in the
// flat comparison; selections travelling between them and the data scatter. With
// CLUSTERLENS_SCREENSHOT_DIR set, the window is saved there as compare.png.

#include <QDir>
#include <QDockWidget>
#include <QSignalSpy>

#include <cmath>

#include "analysis_session.hpp"
#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/compare/correlation.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/hca.hpp"
#include "clusterlens/hca/point_heights.hpp"
#include "compare/contingency_heatmap.hpp"
#include "compare/flat_view.hpp"
#include "compare/heights_view.hpp"
#include "dataset_session.hpp"
#include "gui_test_main.hpp"
#include "main_window.hpp"
#include "scatter/scatter_widget.hpp"
#include "window_grab.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;

namespace {

constexpr int kTimeoutMs = 60'000;
const QString kAverage = QStringLiteral("average linkage");
const QString kWard = QStringLiteral("ward linkage");
const QString kKMeans = QStringLiteral("k-means (k = 15)");
const QString kMhcaFull = QStringLiteral("MHCA FMD");
const QString kMhcaCentroid = QStringLiteral("MHCA CMD");

std::shared_ptr<const Linkage> mhca(const Dataset& data, MhcaVariant variant) {
    HcaRequest request;
    request.mahalanobis = true;
    request.mhca.variant = variant;
    return std::make_shared<const Linkage>(clusterHierarchically(data, request, Backend::Cpu).result);
}

}  // namespace

class CompareMainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void comparisonDocksShowAndLinkARealDataset();
};

void CompareMainWindowTest::comparisonDocksShowAndLinkARealDataset() {
    MainWindow window;
    window.resize(1800, 1200);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QDockWidget* heightsDock = window.findChild<QDockWidget*>(QStringLiteral("PointHeightsDock"));
    QDockWidget* flatDock = window.findChild<QDockWidget*>(QStringLiteral("CompareClusteringsDock"));
    QVERIFY(heightsDock && flatDock);
    QCOMPARE(heightsDock->widget(), static_cast<QWidget*>(window.heightsView()));
    QCOMPARE(flatDock->widget(), static_cast<QWidget*>(window.flatComparisonView()));

    QSignalSpy drawn(window.scatter(), &ScatterWidget::dataDrawn);
    window.openFile(QStringLiteral(CLUSTERLENS_DATA_DIR "/benchmarks/sipu/s3.data.gz"));
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kTimeoutMs);
    const auto data = window.session()->current();
    QVERIFY(data && data->n == 5000 && !data->labels.empty());

    // The clusterings the other docks would compute, done here directly on the same points.
    AnalysisSession* analysis = window.analysis();
    analysis->addLinkage(kAverage,
                         std::make_shared<const Linkage>(
                             classicLinkageCpu(data->values.data(), data->n, data->d, LinkageMethod::Average)),
                         QStringLiteral("average linkage, Euclidean, cpu"));
    analysis->addLinkage(
        kWard,
        std::make_shared<const Linkage>(classicLinkageCpu(data->values.data(), data->n, data->d, LinkageMethod::Ward)),
        QStringLiteral("ward linkage, Euclidean, cpu"));
    analysis->addLinkage(kMhcaFull, mhca(*data, MhcaVariant::Full),
                         QStringLiteral("MHCA full distance, threshold 0.5, cpu"));
    analysis->addLinkage(kMhcaCentroid, mhca(*data, MhcaVariant::Centroid),
                         QStringLiteral("MHCA centroid distance, threshold 0.5, cpu"));
    KMeansOptions kmeans;
    kmeans.k = 15;
    analysis->addLabeling(
        kKMeans, std::make_shared<const LabelVector>(kmeansCpu(data->values.data(), data->n, data->d, kmeans).labels));
    const QString truth = analysis->labelingNames().filter(QStringLiteral("ground truth")).value(0);
    QVERIFY(!truth.isEmpty());
    analysis->setColouring(truth);

    HeightsView* heights = window.heightsView();
    FlatComparisonView* flat = window.flatComparisonView();
    heights->setLinkages(kAverage, kWard);
    flat->setLabelings(truth, kKMeans);
    QTRY_VERIFY_WITH_TIMEOUT(
        heights->comparison() && heights->comparison()->nameA == kAverage && heights->comparison()->nameB == kWard,
        kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(flat->comparison() && flat->comparison()->nameB == kKMeans, kTimeoutMs);
    QCOMPARE(heights->comparison()->pointCount(), std::size_t{5000});
    // The view shows the engine's correlation of the two clusterings' heights (on s3 average and
    // ward linkage order the points very differently: Spearman near 0).
    const double spearman =
        spearmanCorrelation(pointHeights(*analysis->linkage(kAverage)), pointHeights(*analysis->linkage(kWard)));
    QCOMPARE(heights->comparison()->spearman, spearman);
    QVERIFY(heights->statsText().contains(QString::number(spearman, 'f', 3)));
    const auto compared = flat->comparison();
    QCOMPARE(compared->rows(), std::size_t{15});
    QCOMPARE(compared->matchedCount, std::size_t{15});
    QVERIFY2(compared->ari > 0.5, qPrintable(flat->scoresLine()));

    // A heatmap click selects A_0 ∩ B_matched in the data scatter and the point-height view.
    ContingencyHeatmap* heatmap = flat->heatmap();
    QTest::mouseClick(heatmap, Qt::LeftButton, {}, heatmap->cellRect(0, 0).center().toPoint());
    const auto shared = static_cast<qsizetype>(compared->countAt(0, 0));
    QVERIFY(shared > 100);
    QCOMPARE(window.scatter()->selection().size(), shared);
    QCOMPARE(heights->scatter()->selection().size(), shared);
    // ... and a selection in the data scatter reaches the point-height view.
    window.scatter()->setSelection({1, 2, 3});
    QCOMPARE(heights->scatter()->selection(), (QList<qsizetype>{1, 2, 3}));
    QVERIFY(!heatmap->highlightedCell().isValid());

    const QString dir = qEnvironmentVariable("CLUSTERLENS_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    // The thesis' comparison (FMD vs CMD heights share a unit, so one scale with the diagonal),
    // both comparison docks in front and large enough to read, the heatmap's selection shown.
    heights->setLinkages(kMhcaFull, kMhcaCentroid);
    heights->setEqualAxes(true);
    QTRY_VERIFY_WITH_TIMEOUT(heights->comparison() && heights->comparison()->nameA == kMhcaFull &&
                                 heights->scatter()->data() &&
                                 heights->scatter()->data()->xMin == heights->scatter()->data()->yMin,
                             kTimeoutMs);
    heightsDock->raise();
    flatDock->raise();
    QTest::qWait(100);
    window.resizeDocks({heightsDock}, {760}, Qt::Horizontal);
    window.resizeDocks({heightsDock, flatDock}, {480, 560}, Qt::Vertical);
    QTest::mouseClick(heatmap, Qt::LeftButton, {}, heatmap->cellRect(2, 2).center().toPoint());
    QTRY_VERIFY_WITH_TIMEOUT(window.scatter()->isSettled() && heights->scatter()->isSettled(), kTimeoutMs);
    QTest::qWait(300);
    const QString path = QDir(dir).filePath(QStringLiteral("compare.png"));
    QVERIFY(grabWindowWithViews(window).save(path));
    qInfo("saved %s", qPrintable(path));
}

CLUSTERLENS_GUI_TEST_MAIN(CompareMainWindowTest)
#include "compare_main_window_test.moc"
