// The decision graph in the linked selection, on three well separated blobs: events selected in
// another view are highlighted (the rest fade); a shift-drag rectangle selects exactly the events
// inside it for every view, and a peak rectangle leaves the linked selection as it was; a ctrl-click
// adds or removes one peak, one undo step each; hover tooltips name the event, its rho, delta and
// gamma, its cluster and its populations; the gamma plot's "knee" and "chosen" labels and a
// dendrogram-style header never overlap, even at narrow widths.

#include <QImage>
#include <QSignalSpy>

#include <algorithm>
#include <cmath>
#include <set>

#include "analysis_session.hpp"
#include "dpc/decision_graph.hpp"
#include "dpc/dpc_panel.hpp"
#include "dpc/gamma_plot.hpp"
#include "dpc/peak_choice.hpp"
#include "dpc_test_support.hpp"
#include "event_tooltip.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
#include "scatter/point_tooltip.hpp"
#include "scatter/scatter_widget.hpp"
#include "text_layout.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::test::sendMouse;

namespace {

constexpr int kJobTimeoutMs = 60'000;

std::vector<std::int64_t> sorted(std::vector<std::int64_t> v) {
    std::sort(v.begin(), v.end());
    return v;
}

/// Mean lightness of the 3x3 pixels around `at` (logical pixels) of a frame.
double lightness(const QImage& frame, QPointF at, double dpr) {
    double sum = 0.0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            sum += QColor(frame.pixel(qRound(at.x() * dpr) + dx, qRound(at.y() * dpr) + dy)).lightnessF();
    return sum / 9.0;
}

/// Saves `frame` where DPC_SCREENSHOT_DIR points (for a person to look at), if it is set.
void keep(const QImage& frame, const QString& name) {
    const QString dir = qEnvironmentVariable("DPC_SCREENSHOT_DIR");
    if (!dir.isEmpty()) frame.save(dir + QLatin1Char('/') + name);
}

}  // namespace

class DpcLinkedSelectionTest : public clusterlens::test::DpcBlobsPanelTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { delete m_panel; }
    void selectionElsewhereIsHighlighted();
    void shiftRectangleSelectsExactlyThePointsInside();
    void peakRectangleKeepsTheLinkedSelection();
    void ctrlClickTogglesOnePeakAndUndoRestores();
    void tooltipNamesTheEventItsValuesClusterAndPopulations();
    void scatterTooltipShowsTheMarkerValuesOfThePointUnderTheMouse();
    void gammaLabelsNeverOverlap();
    void headerTextsNeverOverlap();

private:
    QPointF at(std::int64_t p) const;
    /// A point (not a peak) with no other point within `clearance` pixels on the graph.
    std::int64_t isolatedPoint(double clearance) const;
    QImage settledFrame();
};

void DpcLinkedSelectionTest::initTestCase() {
    showPanel();
    if (QTest::currentTestFailed()) return;
    QSignalSpy shown(m_panel, &DpcPanel::resultShown);
    m_panel->run();
    QVERIFY(shown.wait(kJobTimeoutMs));
    m_panel->applyTopK(3);
    QCOMPARE(m_analysis->colouring(), QStringLiteral("DPC (k=3)"));
}

QPointF DpcLinkedSelectionTest::at(std::int64_t p) const {
    const DensityPeaksResult& r = *m_panel->lastRun()->result;
    return m_panel->graph()->positionOf(r.rho[static_cast<std::size_t>(p)], r.delta[static_cast<std::size_t>(p)]);
}

std::int64_t DpcLinkedSelectionTest::isolatedPoint(double clearance) const {
    const std::vector<std::int64_t> peaks = m_panel->peakChoice()->peaks();
    const QRectF plot = m_panel->graph()->plotRect().adjusted(10, 10, -10, -10);
    for (std::int64_t p : peaksTopK(*m_panel->lastRun()->result, m_data->n)) {
        if (std::find(peaks.begin(), peaks.end(), p) != peaks.end() || !plot.contains(at(p))) continue;
        bool alone = true;
        for (std::size_t q = 0; q < m_data->n && alone; ++q)
            alone = static_cast<std::int64_t>(q) == p ||
                    QLineF(at(p), at(static_cast<std::int64_t>(q))).length() > clearance;
        if (alone) return p;
    }
    return -1;
}

QImage DpcLinkedSelectionTest::settledFrame() {
    DecisionGraph* graph = m_panel->graph();
    graph->update();
    QTest::qWait(50);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(graph->isSettled(), 10'000); }();
    return graph->grabFramebuffer();
}

void DpcLinkedSelectionTest::selectionElsewhereIsHighlighted() {
    DecisionGraph* graph = m_panel->graph();
    const std::int64_t outside = isolatedPoint(8.0);
    QVERIFY(outside >= 0);
    const QImage before = settledFrame();
    // The events of the blob that `outside` is not in, selected by "another view".
    const int blob = (m_truth[static_cast<std::size_t>(outside)] + 1) % 3;
    auto chosen = std::make_shared<IndexVector>();
    for (std::size_t i = 0; i < m_data->n; ++i)
        if (m_truth[i] == blob) chosen->push_back(static_cast<std::int64_t>(i));
    m_analysis->setSelection(chosen, this);
    QCOMPARE(graph->highlighted(), QList<qsizetype>(chosen->begin(), chosen->end()));
    const QImage after = settledFrame();
    keep(after, QStringLiteral("decision_graph_highlight.png"));
    // An event outside the selection fades towards the white background.
    const double dpr = graph->devicePixelRatioF();
    QVERIFY2(lightness(after, at(outside), dpr) > lightness(before, at(outside), dpr) + 0.05,
             "the unselected point did not fade");
    // A new colouring (other peaks) keeps the highlight.
    m_panel->applyTopK(2);
    QCOMPARE(graph->highlighted().size(), static_cast<qsizetype>(chosen->size()));
    m_panel->peakChoice()->undoStack()->undo();
    m_analysis->setSelection(nullptr, this);
    QVERIFY(graph->highlighted().isEmpty());
}

void DpcLinkedSelectionTest::shiftRectangleSelectsExactlyThePointsInside() {
    DecisionGraph* graph = m_panel->graph();
    const QRectF plot = graph->plotRect();
    // A band over the lower left of the plot (where the non-peak points lie), moved until no point lies within a pixel
    // of its edges.
    QRectF band(plot.left() + 2, plot.top() + 0.5 * plot.height(), 0.45 * plot.width(), 0.5 * plot.height() - 2);
    std::vector<std::int64_t> expected;
    for (int attempt = 0; attempt < 20; ++attempt, band.translate(1.7, -1.3)) {
        expected.clear();
        bool clear = true;
        for (std::size_t i = 0; i < m_data->n; ++i) {
            const QPointF p = at(static_cast<std::int64_t>(i));
            if (band.contains(p)) expected.push_back(static_cast<std::int64_t>(i));
            clear = clear && !(band.adjusted(-1, -1, 1, 1).contains(p) && !band.adjusted(1, 1, -1, -1).contains(p));
        }
        if (clear) break;
    }
    QVERIFY(expected.size() > 5 && expected.size() < m_data->n);
    const std::vector<std::int64_t> peaks = sorted(m_panel->peakChoice()->peaks());
    QSignalSpy selected(m_analysis, &AnalysisSession::selectionChanged);
    sendMouse(graph, QEvent::MouseButtonPress, band.topLeft(), Qt::LeftButton, Qt::LeftButton, Qt::ShiftModifier);
    sendMouse(graph, QEvent::MouseMove, band.center(), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
    sendMouse(graph, QEvent::MouseMove, band.bottomRight(), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
    sendMouse(graph, QEvent::MouseButtonRelease, band.bottomRight(), Qt::LeftButton, Qt::NoButton, Qt::ShiftModifier);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(*m_analysis->selection(), IndexVector(expected.begin(), expected.end()));
    QCOMPARE(sorted(m_panel->peakChoice()->peaks()), peaks);  // the peaks are not touched
    QCOMPARE(graph->highlighted().size(), static_cast<qsizetype>(expected.size()));
    keep(settledFrame(), QStringLiteral("decision_graph_shift_rectangle.png"));
    // Escape clears the selection everywhere.
    QTest::keyClick(graph, Qt::Key_Escape);
    QVERIFY(m_analysis->selection()->empty());
}

void DpcLinkedSelectionTest::peakRectangleKeepsTheLinkedSelection() {
    DecisionGraph* graph = m_panel->graph();
    auto chosen = std::make_shared<IndexVector>(IndexVector{0, 3, 6, 9});
    m_analysis->setSelection(chosen, this);
    const std::vector<std::int64_t> top = sorted(peaksTopK(*m_panel->lastRun()->result, 3));
    QPointF lowest(1e9, -1e9);
    for (std::int64_t p : top) lowest = QPointF(std::min(lowest.x(), at(p).x()), std::max(lowest.y(), at(p).y()));
    const QPointF from = lowest + QPointF(-4, 4), to = graph->plotRect().topRight() + QPointF(-1, 1);
    m_panel->applyTopK(1);
    sendMouse(graph, QEvent::MouseButtonPress, from, Qt::RightButton, Qt::RightButton);
    sendMouse(graph, QEvent::MouseMove, to, Qt::NoButton, Qt::RightButton);
    sendMouse(graph, QEvent::MouseButtonRelease, to, Qt::RightButton, Qt::NoButton);
    QCOMPARE(sorted(m_panel->peakChoice()->peaks()), top);
    QCOMPARE(*m_analysis->selection(), *chosen);
    QCOMPARE(graph->highlighted(), QList<qsizetype>({0, 3, 6, 9}));
    m_analysis->setSelection(nullptr, this);
}

void DpcLinkedSelectionTest::ctrlClickTogglesOnePeakAndUndoRestores() {
    DecisionGraph* graph = m_panel->graph();
    PeakChoice* choice = m_panel->peakChoice();
    const std::vector<std::int64_t> three = sorted(choice->peaks());
    QCOMPARE(three.size(), std::size_t{3});
    const std::int64_t extra = isolatedPoint(8.0);
    QVERIFY(extra >= 0);
    const int steps = choice->undoStack()->count();
    // A click that moves a pixel is still a click.
    sendMouse(graph, QEvent::MouseButtonPress, at(extra), Qt::LeftButton, Qt::LeftButton, Qt::ControlModifier);
    sendMouse(graph, QEvent::MouseMove, at(extra) + QPointF(1, 0), Qt::NoButton, Qt::LeftButton, Qt::ControlModifier);
    sendMouse(graph, QEvent::MouseButtonRelease, at(extra) + QPointF(1, 0), Qt::LeftButton, Qt::NoButton,
              Qt::ControlModifier);
    std::vector<std::int64_t> four = three;
    four.push_back(extra);
    QCOMPARE(sorted(choice->peaks()), sorted(four));
    QCOMPARE(choice->undoStack()->count(), steps + 1);
    QCOMPARE(m_analysis->colouring(), QStringLiteral("DPC (k=4)"));
    keep(settledFrame(), QStringLiteral("decision_graph_four_peaks.png"));

    // Ctrl-click on a peak removes it.
    const std::int64_t removed = three.front();
    sendMouse(graph, QEvent::MouseButtonPress, at(removed), Qt::LeftButton, Qt::LeftButton, Qt::ControlModifier);
    sendMouse(graph, QEvent::MouseButtonRelease, at(removed), Qt::LeftButton, Qt::NoButton, Qt::ControlModifier);
    std::vector<std::int64_t> left = four;
    left.erase(std::find(left.begin(), left.end(), removed));
    QCOMPARE(sorted(choice->peaks()), sorted(left));
    QVERIFY(choice->undoStack()->text(choice->undoStack()->index() - 1).contains(QString::number(removed)));

    choice->undoStack()->undo();
    QCOMPARE(sorted(choice->peaks()), sorted(four));
    choice->undoStack()->undo();
    QCOMPARE(sorted(choice->peaks()), three);
    QCOMPARE(m_analysis->colouring(), QStringLiteral("DPC (k=3)"));
    QVERIFY(m_analysis->selection()->empty());  // clicks select nothing
}

void DpcLinkedSelectionTest::tooltipNamesTheEventItsValuesClusterAndPopulations() {
    DecisionGraph* graph = m_panel->graph();
    const DensityPeaksResult& r = *m_panel->lastRun()->result;
    const std::int64_t peak = m_panel->peakChoice()->peaks().front();  // founded cluster 0
    const auto p = static_cast<std::size_t>(peak);
    auto members = std::make_shared<IndexVector>();
    for (std::size_t i = 0; i < m_data->n; ++i)
        if (m_truth[i] == m_truth[p]) members->push_back(static_cast<std::int64_t>(i));
    m_analysis->setPopulations(
        {{QStringLiteral("its blob"), members}, {QStringLiteral("nothing"), std::make_shared<IndexVector>()}});
    const QString text = graph->tooltipAt(at(peak));
    const QLocale locale;
    QVERIFY2(text.startsWith(QStringLiteral("Event %1\n").arg(peak)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("\u03c1: ") + locale.toString(r.rho[p], 'g', 5)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("\u03b4: ") + locale.toString(r.delta[p], 'g', 5)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("\u03b3: ") + locale.toString(r.gamma[p], 'g', 5)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Cluster: cluster 0 (DPC (k=3))")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Populations: its blob")), qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("nothing")));
    QVERIFY(graph->tooltipAt(graph->plotRect().topLeft() + QPointF(2, 2)).isEmpty());

    // The gamma plot's first rank is the densest peak, with the same text below its rank.
    GammaPlot* gamma = m_panel->gammaPlot();
    const std::int64_t first = peaksTopK(r, 1).front();
    const QString ranked = gamma->tooltipAt(gamma->pointOfRank(1));
    QVERIFY2(ranked.startsWith(QStringLiteral("Event %1\nrank: 1\n").arg(first)), qPrintable(ranked));
    QVERIFY(ranked.contains(QStringLiteral("Cluster: ")));
    m_analysis->setPopulations({});
}

void DpcLinkedSelectionTest::scatterTooltipShowsTheMarkerValuesOfThePointUnderTheMouse() {
    ScatterWidget scatter;
    scatter.resize(600, 500);
    scatter.show();
    QVERIFY(QTest::qWaitForWindowExposed(&scatter));
    ScatterRequest request;
    request.dataset = m_data;
    scatter.setData(std::make_shared<const ScatterData>(prepareScatter(request)));
    auto* tooltip = new PointTooltip(&scatter, [this](qsizetype row) {
        const auto i = static_cast<std::size_t>(row);
        return describeEvent(m_analysis, row,
                             {{QStringLiteral("x"), m_data->at(i, 0)}, {QStringLiteral("y"), m_data->at(i, 1)}});
    });
    // The point drawn nearest a widget position is the one the tooltip names.
    const ScatterData& data = *scatter.data();
    const std::size_t slot = data.pointCount / 2;
    const std::size_t row = data.indices[slot];
    const QPointF where =
        scatter.mapFromData(data.toDataX(data.positions[2 * slot]), data.toDataY(data.positions[2 * slot + 1]));
    QCOMPARE(pointAt(scatter, where), static_cast<qsizetype>(row));
    const QString text = tooltip->textAt(where);
    QVERIFY2(text.startsWith(QStringLiteral("Event %1\nx: %2\ny: %3\nCluster: ")
                                 .arg(row)
                                 .arg(QLocale().toString(static_cast<double>(m_data->at(row, 0)), 'g', 5))
                                 .arg(QLocale().toString(static_cast<double>(m_data->at(row, 1)), 'g', 5))),
             qPrintable(text));
    QVERIFY(tooltip->textAt(scatter.plotRect().topLeft() - QPointF(5, 5)).isEmpty());
}

void DpcLinkedSelectionTest::gammaLabelsNeverOverlap() {
    // Chosen one more than the knee: the two lines are a rank apart, their labels must not collide.
    GammaPlot plot;
    plot.resize(220, 130);
    plot.setResult(m_panel->lastRun()->result);
    plot.setCurrentCount(plot.suggestedCount() + 1);
    const QImage narrow = plot.grab().toImage();
    keep(narrow, QStringLiteral("gamma_narrow.png"));
    const std::vector<QRectF>& boxes = plot.markLabelBoxes();
    QCOMPARE(boxes.size(), std::size_t{2});
    QVERIFY(!boxes[0].isEmpty() && !boxes[1].isEmpty());
    QVERIFY(!boxes[0].intersects(boxes[1]));
    for (const QRectF& box : boxes) QVERIFY(QRectF(plot.rect()).contains(box));
}

void DpcLinkedSelectionTest::headerTextsNeverOverlap() {
    const QFontMetricsF metrics(QApplication::font());
    const QString status = QStringLiteral("6,000 leaves \u00b7 5 clusters \u00b7 34 selected");
    const QStringList warning = {QStringLiteral("\u26a0 8 inversions: links going down are highlighted"),
                                 QStringLiteral("\u26a0 8 inversions")};
    for (double width : {900.0, 420.0, 300.0, 180.0, 90.0}) {
        const HeaderTexts t = fitHeaderTexts(status, warning, width, metrics);
        const double gap = t.left.isEmpty() || t.right.isEmpty() ? 0.0 : 12.0;
        const double used = metrics.horizontalAdvance(t.left) + gap + metrics.horizontalAdvance(t.right);
        QVERIFY2(used <= width + 0.5, qPrintable(QStringLiteral("%1: '%2' '%3'").arg(width).arg(t.left, t.right)));
        QVERIFY(!t.right.isEmpty());
    }
    QCOMPARE(fitHeaderTexts(status, warning, 2000, metrics).right, warning.front());
    QCOMPARE(fitHeaderTexts(status, warning, 2000, metrics).left, status);
    const HeaderTexts tight = fitHeaderTexts(status, warning, 360, metrics);
    QVERIFY(tight.right == warning.back() || tight.left != status);
}

CLUSTERLENS_GUI_TEST_MAIN(DpcLinkedSelectionTest)
#include "dpc_linked_selection_test.moc"
