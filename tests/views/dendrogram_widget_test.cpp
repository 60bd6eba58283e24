// The dendrogram widget on screen: the frame shows exactly k cluster colours after a cut of k,
// selected subtrees and inversions in their highlight colours; clicks pick subtrees, the cut line
// can be dragged, panning inside the region costs no geometry rebuild, the wheel zooms the leaves;
// hovering a leaf or a cluster shows its tooltip (event, or cluster name, size, height, leaf range).

#include <QMouseEvent>
#include <QSignalSpy>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>
#include <map>
#include <numeric>

#include "analysis_session.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dendrogram_test_trees.hpp"
#include "gui_test_main.hpp"
#include "palette.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::test::fourGroups;
using clusterlens::test::makeLinkage;

namespace {

constexpr int kFrameTimeoutMs = 20'000;

/// Pixels of each exact colour inside the plot area.
std::map<QRgb, int> plotColours(const DendrogramWidget& widget, const QImage& frame) {
    std::map<QRgb, int> counts;
    const QRect plot = widget.plotRect().toAlignedRect().adjusted(1, 1, -1, -1);
    for (int y = plot.top(); y <= plot.bottom(); ++y)
        for (int x = plot.left(); x <= plot.right(); ++x) ++counts[frame.pixel(x, y) | 0xff000000u];
    return counts;
}

int clusterColoursShown(const std::map<QRgb, int>& counts) {
    int shown = 0;
    for (const QColor& c : Palette::categoricalColors()) {
        const auto it = counts.find(c.rgba());
        shown += it != counts.end() && it->second >= 10 ? 1 : 0;
    }
    return shown;
}

void sendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
    QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &event);
}

}  // namespace

class DendrogramWidgetTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void frameShowsKClusterColoursAfterACutOfK();
    void clickPicksTheSubtreeUnderTheCursor();
    void selectedLeavesAreHighlighted();
    void inversionsAreDrawnGoingDownInTheirColour();
    void draggingTheCutLineChoosesAHeight();
    void panningInsideTheRegionKeepsTheGeometry();
    void wheelZoomsTheLeavesAboutTheCursor();
    void logScaleShowsEveryHeight();
    void collapsedSubtreeIsOneTriangle();
    void hoverDescribesLeavesAndClusters();

private:
    std::unique_ptr<DendrogramWidget> m_widget;
    std::shared_ptr<const DendrogramLayout> m_layout;
};

void DendrogramWidgetTest::init() {
    m_widget = std::make_unique<DendrogramWidget>();
    m_widget->resize(720, 460);
    m_widget->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_widget.get()));
    m_layout = std::make_shared<const DendrogramLayout>(buildDendrogramLayout(fourGroups()));
    QSignalSpy drawn(m_widget.get(), &DendrogramWidget::contentDrawn);
    m_widget->setTree(m_layout);
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kFrameTimeoutMs);
    QVERIFY2(m_widget->glError().isEmpty(), qPrintable(m_widget->glError()));
}

void DendrogramWidgetTest::cleanup() {
    m_widget.reset();
}

void DendrogramWidgetTest::frameShowsKClusterColoursAfterACutOfK() {
    QCOMPARE(clusterColoursShown(plotColours(*m_widget, m_widget->grabFramebuffer())), 0);
    for (int k : {4, 2, 3}) {
        QSignalSpy drawn(m_widget.get(), &DendrogramWidget::contentDrawn);
        m_widget->setCut(std::make_shared<const DendrogramCut>(cutIntoClusters(*m_layout, k)));
        QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kFrameTimeoutMs);
        const auto counts = plotColours(*m_widget, m_widget->grabFramebuffer());
        QCOMPARE(clusterColoursShown(counts), k);
        for (int c = 0; c < k; ++c) QVERIFY(counts.count(Palette::labelColor(c).rgba()));
        QVERIFY(counts.count(Palette::linkColor().rgba()));
    }
}

void DendrogramWidgetTest::clickPicksTheSubtreeUnderTheCursor() {
    QSignalSpy clicked(m_widget.get(), &DendrogramWidget::subtreeClicked);
    QSignalSpy cleared(m_widget.get(), &DendrogramWidget::selectionCleared);
    // The bar of "groups 2 + 3" (row 29), and a point between the bars of group 3 and its parent.
    const std::int32_t pair = 32 + 29;
    QTest::mouseClick(m_widget.get(), Qt::LeftButton, Qt::NoModifier, m_widget->nodePosition(pair).toPoint());
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.at(0).at(0).toInt(), pair);
    const std::int32_t group3 = 32 + 27;
    const QPointF below = m_widget->nodePosition(group3) - QPointF(0, 40);
    QCOMPARE(m_widget->nodeAt(below), group3);
    QVERIFY(m_widget->describeNode(group3).contains(QStringLiteral("Size: 8 events")));
    QTest::mouseClick(m_widget.get(), Qt::LeftButton, Qt::NoModifier, QPoint(3, 3));
    QCOMPARE(cleared.count(), 1);
}

void DendrogramWidgetTest::selectedLeavesAreHighlighted() {
    const QRgb black = Palette::selectionColor().rgba();
    QCOMPARE(plotColours(*m_widget, m_widget->grabFramebuffer()).count(black), std::size_t{0});
    std::vector<std::int64_t> group2(8);
    std::iota(group2.begin(), group2.end(), 16);
    QSignalSpy drawn(m_widget.get(), &DendrogramWidget::contentDrawn);
    m_widget->setSelectedLeaves(group2);
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kFrameTimeoutMs);
    QCOMPARE(m_widget->selectedLeafCount(), std::size_t{8});
    const auto counts = plotColours(*m_widget, m_widget->grabFramebuffer());
    QVERIFY(counts.count(black) && counts.at(black) > 100);
}

void DendrogramWidgetTest::inversionsAreDrawnGoingDownInTheirColour() {
    const auto inverted = std::make_shared<const DendrogramLayout>(
        buildDendrogramLayout(makeLinkage(4, {{0, 1, 2.0}, {2, 3, 1.0}, {4, 5, 1.5}})));
    QSignalSpy drawn(m_widget.get(), &DendrogramWidget::contentDrawn);
    m_widget->setTree(inverted);
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kFrameTimeoutMs);
    const auto counts = plotColours(*m_widget, m_widget->grabFramebuffer());
    QVERIFY(counts.count(Palette::inversionColor().rgba()) && counts.at(Palette::inversionColor().rgba()) > 50);
    // The root's bar lies below its left child's bar: the link goes down on screen.
    QVERIFY(m_widget->nodePosition(6).y() > m_widget->nodePosition(4).y());
}

void DendrogramWidgetTest::draggingTheCutLineChoosesAHeight() {
    QSignalSpy chosen(m_widget.get(), &DendrogramWidget::cutHeightChosen);
    m_widget->setCut(std::make_shared<const DendrogramCut>(cutIntoClusters(*m_layout, 2)));
    const QRectF plot = m_widget->plotRect();
    const DendrogramView& view = m_widget->view();
    // k = 2 puts the line halfway between 12 and 20.
    const QPointF start = view.toPixel(view.x0(), 16.0, plot) + QPointF(plot.width() / 2, 0);
    const QPointF end = view.toPixel(view.x0(), 11.0, plot) + QPointF(plot.width() / 2, 0);
    sendMouse(m_widget.get(), QEvent::MouseButtonPress, start, Qt::LeftButton, Qt::LeftButton);
    sendMouse(m_widget.get(), QEvent::MouseMove, (start + end) / 2, Qt::NoButton, Qt::LeftButton);
    sendMouse(m_widget.get(), QEvent::MouseMove, end, Qt::NoButton, Qt::LeftButton);
    sendMouse(m_widget.get(), QEvent::MouseButtonRelease, end, Qt::LeftButton, Qt::NoButton);
    QCOMPARE(chosen.count(), 1);
    const double height = chosen.at(0).at(0).toDouble();
    QVERIFY2(height > 10.5 && height < 11.5, qPrintable(QString::number(height)));
    QCOMPARE(clustersAtHeight(*m_layout, height), 3);
}

void DendrogramWidgetTest::panningInsideTheRegionKeepsTheGeometry() {
    m_widget->zoomAt(m_widget->plotRect().center(), 4.0, 1.0);
    QSignalSpy drawn(m_widget.get(), &DendrogramWidget::contentDrawn);
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kFrameTimeoutMs);  // the refined geometry after the zoom
    const int builds = m_widget->geometryBuilds();
    QSignalSpy swapped(m_widget.get(), &QOpenGLWidget::frameSwapped);
    m_widget->panByPixels(QPointF(20, 0));
    QTRY_VERIFY_WITH_TIMEOUT(swapped.count() > 0, kFrameTimeoutMs);
    QCOMPARE(m_widget->geometryBuilds(), builds);
    m_widget->panByPixels(QPointF(m_widget->plotRect().width(), 0));
    QTRY_VERIFY_WITH_TIMEOUT(swapped.count() > 1, kFrameTimeoutMs);
    QCOMPARE(m_widget->geometryBuilds(), builds + 1);
}

void DendrogramWidgetTest::wheelZoomsTheLeavesAboutTheCursor() {
    const DendrogramView before = m_widget->view();
    const QPointF at = m_widget->nodePosition(32 + 28);
    const double anchor = before.toData(at, m_widget->plotRect()).x();
    QWheelEvent wheel(at, m_widget->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(m_widget.get(), &wheel);
    const DendrogramView& after = m_widget->view();
    QCOMPARE(after.x1() - after.x0(), (before.x1() - before.x0()) / (1.25 * 1.25));
    QCOMPARE(after.y1() - after.y0(), before.y1() - before.y0());
    QVERIFY(std::abs(after.toData(at, m_widget->plotRect()).x() - anchor) < 1e-9);
}

void DendrogramWidgetTest::logScaleShowsEveryHeight() {
    QSignalSpy drawn(m_widget.get(), &DendrogramWidget::contentDrawn);
    m_widget->setLogHeights(true);
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kFrameTimeoutMs);
    const DendrogramView& view = m_widget->view();
    QVERIFY(view.y0() < std::log10(0.05) && view.y1() > std::log10(20.0));
    // Chain merges at 0.1 and 0.2 are a decade apart from 1 on a log axis: their bars are apart.
    QVERIFY(m_widget->nodePosition(32).y() - m_widget->nodePosition(33).y() > 20);
}

void DendrogramWidgetTest::collapsedSubtreeIsOneTriangle() {
    QSignalSpy collapsed(m_widget.get(), &DendrogramWidget::collapsedChanged);
    const std::int32_t group0 = 32 + 6;
    QTest::mouseDClick(m_widget.get(), Qt::LeftButton, Qt::NoModifier, m_widget->nodePosition(group0).toPoint());
    QCOMPARE(collapsed.count(), 1);
    QVERIFY(m_widget->isCollapsed(group0));
    QSignalSpy drawn(m_widget.get(), &DendrogramWidget::contentDrawn);
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0 || !m_widget->geometry().collapsed.empty(), kFrameTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(m_widget->geometry().collapsed.size(), std::size_t{1}, kFrameTimeoutMs);
    QCOMPARE(m_widget->geometry().collapsed.front().node, group0);
    m_widget->expandAll();
    QVERIFY(!m_widget->isCollapsed(group0));
}

CLUSTERLENS_GUI_TEST_MAIN(DendrogramWidgetTest)
#include "dendrogram_widget_test.moc"

void DendrogramWidgetTest::hoverDescribesLeavesAndClusters() {
    AnalysisSession analysis;
    analysis.setPopulations({{QStringLiteral("T cells"), std::make_shared<const IndexVector>(IndexVector{25, 26})}});
    m_widget->setEventSource(&analysis);
    m_widget->setCut(std::make_shared<const DendrogramCut>(cutIntoClusters(*m_layout, 4)));
    const std::int32_t group3 = 32 + 27;  // leaves 24..31, last merged at 0.7
    const auto first = m_layout->first[static_cast<std::size_t>(group3)];
    const int cluster = m_widget->cut()->clusterOf(*m_layout, group3);
    const QString text = m_widget->describeNode(group3);
    QVERIFY2(text.startsWith(QStringLiteral("cluster %1\n").arg(cluster)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Size: 8 events")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Merge height: 0.7")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Leaves %1\u2013%2 of the tree's order").arg(first).arg(first + 7)),
             qPrintable(text));
    // A merge inside the cluster is named as a subtree of it.
    const std::int32_t inside = 32 + 25;
    QVERIFY2(m_widget->describeNode(inside).startsWith(QStringLiteral("subtree of cluster %1").arg(cluster)),
             qPrintable(m_widget->describeNode(inside)));
    const QString leaf = m_widget->describeNode(25);
    QVERIFY2(leaf.startsWith(QStringLiteral("Event 25\n")), qPrintable(leaf));
    QVERIFY2(leaf.contains(QStringLiteral("Cluster: cluster %1").arg(cluster)), qPrintable(leaf));
    QVERIFY2(leaf.contains(QStringLiteral("Populations: T cells")), qPrintable(leaf));
    QVERIFY2(!m_widget->describeNode(24).contains(QStringLiteral("Populations")),
             qPrintable(m_widget->describeNode(24)));
    // Resting the mouse on the cluster's bar shows that text as the tooltip.
    sendMouse(m_widget.get(), QEvent::MouseMove, m_widget->nodePosition(group3), Qt::NoButton, Qt::NoButton);
    QTRY_COMPARE(QToolTip::text(), text);
    // A tree of a population: leaf k is its k-th member, named by whole-dataset index.
    auto members = std::make_shared<IndexVector>(32);
    std::iota(members->begin(), members->end(), 10);
    m_widget->setEventSource(&analysis, members);
    const QString member = m_widget->describeNode(15);  // event 25
    QVERIFY2(member.startsWith(QStringLiteral("Event 25\n")), qPrintable(member));
    QVERIFY2(member.contains(QStringLiteral("Populations: T cells")), qPrintable(member));
    m_widget->setEventSource(nullptr);
}
