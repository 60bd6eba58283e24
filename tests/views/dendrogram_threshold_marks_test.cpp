// MHCA's threshold-size marks on the dendrogram's height axis: drawn at the heights where the tree's
// clusters reach T·N leaves (linear and log axes, zoomed), switched off on request, described by the
// tooltip; the panel shows them for trees stored under an MHCA name only and its figure command
// carries --threshold-marks.

#include <QMouseEvent>
#include <QSignalSpy>
#include <QToolTip>

#include <cmath>

#include "analysis_session.hpp"
#include "clusterlens/hca/threshold_crossings.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dendrogram/threshold_marks.hpp"
#include "dendrogram_test_trees.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::test::fourGroups;

namespace {

constexpr int kFrameTimeoutMs = 20'000;

// The mark colour, also blended with the white background by antialiasing (a line between two rows).
bool isMarkTinted(QRgb pixel) {
    return qGreen(pixel) - qRed(pixel) >= 35 && qBlue(pixel) - qRed(pixel) >= 35;
}

/// Pixels of the mark colour in the rows next to y (the one or two rows a 1-pixel line at y covers)
/// between x0 and x1.
int markPixelsAt(const QImage& frame, double y, int x0, int x1) {
    int count = 0;
    for (const int row : {static_cast<int>(std::floor(y)), static_cast<int>(std::ceil(y))})
        for (int x = x0; x <= x1; ++x) count += isMarkTinted(frame.pixel(x, row)) ? 1 : 0;
    return count;
}

}  // namespace

class DendrogramThresholdMarksTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void marksSitAtTheCrossingHeightsOnLinearAndLogAxes();
    void marksFollowAZoomOfTheHeightsAndCanBeSwitchedOff();
    void hoveringAMarkExplainsIt();
    void panelShowsMarksForMhcaNamesAndItsCommandCarriesThem();

private:
    /// Waits for a frame and returns it.
    QImage frame();
    /// The widget y of height h now.
    double yOf(double h) const;

    std::unique_ptr<DendrogramWidget> m_widget;
};

void DendrogramThresholdMarksTest::init() {
    m_widget = std::make_unique<DendrogramWidget>();
    m_widget->resize(720, 460);
    m_widget->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_widget.get()));
    QSignalSpy drawn(m_widget.get(), &DendrogramWidget::contentDrawn);
    m_widget->setTree(std::make_shared<const DendrogramLayout>(buildDendrogramLayout(fourGroups())));
    // T = 0.5 of 32 leaves: clusters of 16, made when groups 0+1 merge at 10 and 2+3 at 12.
    m_widget->setThresholdMarks(buildThresholdMarks(fourGroups(), 0.5));
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kFrameTimeoutMs);
    QVERIFY2(m_widget->glError().isEmpty(), qPrintable(m_widget->glError()));
}

void DendrogramThresholdMarksTest::cleanup() {
    m_widget.reset();
}

QImage DendrogramThresholdMarksTest::frame() {
    QSignalSpy drawn(m_widget.get(), &DendrogramWidget::contentDrawn);
    m_widget->update();
    drawn.wait(1000);
    return m_widget->grabFramebuffer();
}

double DendrogramThresholdMarksTest::yOf(double h) const {
    return m_widget->view().toPixel(0.0, m_widget->scale().toAxis(h), m_widget->plotRect()).y();
}

void DendrogramThresholdMarksTest::marksSitAtTheCrossingHeightsOnLinearAndLogAxes() {
    const ThresholdCrossings expected = thresholdCrossings(fourGroups(), 16);
    QCOMPARE(expected.crossings.size(), std::size_t{2});
    QCOMPARE(expected.crossings[0].height, 10.0);
    QCOMPARE(expected.crossings[1].height, 12.0);
    QCOMPARE(m_widget->thresholdMarks()->minSize, std::size_t{16});
    for (const bool log : {false, true}) {
        m_widget->setLogHeights(log);
        const QImage image = frame();
        const QRectF plot = m_widget->plotRect();
        const auto left = static_cast<int>(plot.left());
        for (const ThresholdCrossing& crossing : expected.crossings) {
            const double y = yOf(crossing.height);
            // The triangle's body, just inside the axis, at the crossing's height and not 6 pixels off it.
            QVERIFY2(markPixelsAt(image, y, left + 1, left + 4) >= 4,
                     qPrintable(QStringLiteral("no mark at height %1 (log %2)").arg(crossing.height).arg(log)));
            QCOMPARE(markPixelsAt(image, y + 6, left + 1, left + 4), 0);
        }
        // Every cluster has 16 leaves from 12 on: the dotted line crosses the plot there.
        QVERIFY(expected.allReached);
        QCOMPARE(expected.allReached->height, 12.0);
        QVERIFY(markPixelsAt(image, yOf(12.0), left + 20, static_cast<int>(plot.right()) - 20) > 50);
        QCOMPARE(markPixelsAt(image, yOf(5.0), left + 1, static_cast<int>(plot.right()) - 20), 0);
    }
}

void DendrogramThresholdMarksTest::marksFollowAZoomOfTheHeightsAndCanBeSwitchedOff() {
    const double before = yOf(10.0);
    m_widget->zoomAt(m_widget->plotRect().bottomLeft() + QPointF(5, -5), 1.0, 1.6);
    const double after = yOf(10.0);
    QVERIFY2(std::abs(after - before) > 20, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
    QVERIFY(after > m_widget->plotRect().top() + 4 && after < m_widget->plotRect().bottom() - 4);
    const auto left = static_cast<int>(m_widget->plotRect().left());
    QImage image = frame();
    QVERIFY(markPixelsAt(image, after, left + 1, left + 4) >= 4);
    QCOMPARE(markPixelsAt(image, before, left + 1, left + 4), 0);
    const auto positions =
        thresholdMarkPositions(*m_widget->thresholdMarks(), m_widget->plotRect(), m_widget->view(), m_widget->scale());
    QVERIFY(!positions.empty());
    QCOMPARE(positions.front().tip.y(), after);
    QSignalSpy shown(m_widget.get(), &DendrogramWidget::thresholdMarksShownChanged);
    m_widget->setThresholdMarksShown(false);
    QCOMPARE(shown.count(), 1);
    QVERIFY(!m_widget->shownThresholdMarks());
    QCOMPARE(markPixelsAt(frame(), after, left + 1, left + 4), 0);
}

void DendrogramThresholdMarksTest::hoveringAMarkExplainsIt() {
    const QPointF tip(m_widget->plotRect().left() + 4, yOf(10.0));
    QMouseEvent move(QEvent::MouseMove, tip, m_widget->mapToGlobal(tip), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(m_widget.get(), &move);
    QTRY_VERIFY(QToolTip::text().contains(QStringLiteral("T\u00b7N = 16 events (T = 0.5)")));
    QVERIFY(QToolTip::text().contains(QStringLiteral("full Mahalanobis from here")));
}

void DendrogramThresholdMarksTest::panelShowsMarksForMhcaNamesAndItsCommandCarriesThem() {
    const QString none;
    QCOMPARE(mhcaThresholdOf(QStringLiteral("MHCA centroid t=0.5 on T cells"), none), std::optional<double>(0.5));
    QCOMPARE(mhcaThresholdOf(QStringLiteral("MHCA full t=0.25 (2)"), none), std::optional<double>(0.25));
    QVERIFY(!mhcaThresholdOf(QStringLiteral("MHCA full t=2"), none));
    QVERIFY(!mhcaThresholdOf(QStringLiteral("imported: MHCA full t=0.5.csv"), QStringLiteral("imported from x")));
    // Renamed trees: the command line the CLI stored, or the clustering panel's description.
    const QString renamed = QStringLiteral("my tree");
    QCOMPARE(mhcaThresholdOf(renamed, QStringLiteral("clusterlens-cli hca d.csv --linkage mahalanobis --threshold 0.3 "
                                                     "--name 'my tree'")),
             std::optional<double>(0.3));
    QCOMPARE(mhcaThresholdOf(renamed, QStringLiteral("clusterlens-cli hca d.csv --linkage mahalanobis --name t")),
             std::optional<double>(0.5));
    QVERIFY(!mhcaThresholdOf(renamed, QStringLiteral("clusterlens-cli hca d.csv --linkage average --name t")));
    QCOMPARE(mhcaThresholdOf(renamed, QStringLiteral("clusterlens-cli hca --linkage mahalanobis --threshold 1 d.csv")),
             std::optional<double>(1.0));
    QCOMPARE(mhcaThresholdOf(renamed, QStringLiteral("MHCA full (FMD); threshold 0.1; sub-threshold mahal; cpu")),
             std::optional<double>(0.1));
    QVERIFY(!mhcaThresholdOf(renamed, QStringLiteral("average linkage (Euclidean); 2 features: x, y; cpu")));
    JobRunner runner;
    AnalysisSession analysis;
    DendrogramPanel panel(&runner, &analysis);
    const auto tree = std::make_shared<const Linkage>(fourGroups());
    analysis.addLinkage(QStringLiteral("MHCA full t=0.25"), tree);
    analysis.addLinkage(QStringLiteral("average linkage"), tree);
    panel.showLinkage(QStringLiteral("MHCA full t=0.25"));
    const auto marks = panel.widget()->thresholdMarks();
    QVERIFY(marks);
    QCOMPARE(marks->minSize, std::size_t{8});  // each group of 8 reaches it at 0.7
    std::vector<double> groupTops;             // rows 6, 13, 20, 27
    for (std::size_t row = 6; row < 28; row += 7) groupTops.push_back(tree->merges[row].height);
    QCOMPARE(marks->crossings, groupTops);
    QCOMPARE(marks->allReached, std::optional<double>(groupTops.back()));
    QVERIFY(
        panel.figureExportSource().command.join(QLatin1Char(' ')).contains(QStringLiteral("--threshold-marks 0.25")));
    panel.widget()->setThresholdMarksShown(false);
    QVERIFY(!panel.figureExportSource().command.contains(QStringLiteral("--threshold-marks")));
    panel.widget()->setThresholdMarksShown(true);
    panel.showLinkage(QStringLiteral("average linkage"));
    QVERIFY(!panel.widget()->thresholdMarks());
    QVERIFY(!panel.figureExportSource().command.contains(QStringLiteral("--threshold-marks")));
}

CLUSTERLENS_GUI_TEST_MAIN(DendrogramThresholdMarksTest)
#include "dendrogram_threshold_marks_test.moc"
