// The density-peaks page on three well separated blobs: the DPC job fills the decision graph, a
// rectangle dragged around the three peaks gives three clusters (one per blob) that become the
// session's colouring; undo/redo restore the peak choices; threshold lines and top-K pick the same
// peaks; the figure exports as SVG (paths and text), PDF (page size) and PNG (pixel size); labels
// and DPC.csv round-trip.

#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QStyleOptionViewItem>
#include <QRegularExpression>
#include <QPushButton>
#include <QSignalSpy>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>

#include "analysis_session.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/synthetic.hpp"
#include "dpc/decision_graph.hpp"
#include "clusterlens/io/dpc_csv.hpp"
#include "dpc/dpc_panel.hpp"
#include "dpc/gamma_plot.hpp"
#include "dpc/peak_choice.hpp"
#include "dpc/peak_table_model.hpp"
#include "dpc/stability_strip_delegate.hpp"
#include "dpc_test_support.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::test::sendMouse;

namespace {

constexpr int kJobTimeoutMs = 60'000;

/// Each blob is exactly one cluster and the clusters are distinct.
bool matchesBlobs(const LabelVector& labels, const std::vector<int>& truth) {
    std::map<int, int> clusterOfBlob;
    std::set<int> used;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        auto [it, inserted] = clusterOfBlob.emplace(truth[i], labels[i]);
        if (!inserted && it->second != labels[i]) return false;
        if (inserted && !used.insert(labels[i]).second) return false;
    }
    return clusterOfBlob.size() == 3;
}

std::vector<std::int64_t> sorted(std::vector<std::int64_t> v) {
    std::sort(v.begin(), v.end());
    return v;
}

/// The stability strip delegate's drawing of one cell on white, at `size`.
QImage paintedCell(const QModelIndex& cell, QSize size) {
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    QStyleOptionViewItem option;
    option.rect = QRect(QPoint(0, 0), size);
    option.state = QStyle::State_Enabled;
    StabilityStripDelegate().paint(&painter, option, cell);
    painter.end();
    return image;
}

}  // namespace

class DpcDecisionGraphTest : public clusterlens::test::DpcBlobsPanelTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { delete m_panel; }
    void rectangleAroundThePeaksGivesTheThreeBlobs();
    void lassoAroundTwoPeaksPicksOnlyThem();
    void undoAndRedoRestoreThePeaks();
    void destroyingAChoiceWithHistoryTellsNoListener();
    void thresholdLinesPickTheSamePeaks();
    void topKAndTheKneePickTheSamePeaks();
    void stabilityAcrossDcFillsThePeakTable();
    void haloRunsAsAJobAndKeepsTheClusters();
    void figureExportsParse();
    void labelsAndTableExportsRoundTrip();
    void cancelIsANormalOutcome();
    void theGaussianKernelWithoutAGpuSaysWhatItCostsOnLargeData();

private:
    std::vector<std::int64_t> expectedPeaks() const;

    QTemporaryDir m_dir;
};

void DpcDecisionGraphTest::initTestCase() {
    showPanel();
    if (QTest::currentTestFailed()) return;
    QSignalSpy shown(m_panel, &DpcPanel::resultShown);
    QSignalSpy drawn(m_panel->graph(), &ScatterWidget::dataDrawn);
    m_panel->run();
    QVERIFY(m_panel->isRunning());
    QVERIFY(shown.wait(kJobTimeoutMs));
    QVERIFY(m_panel->lastRun());
    QCOMPARE(m_panel->lastRun()->result->rho.size(), m_data->n);
    QVERIFY(drawn.count() > 0 || drawn.wait(kJobTimeoutMs));
    QCOMPARE(m_panel->gammaPlot()->suggestedCount(), std::size_t{3});
}

std::vector<std::int64_t> DpcDecisionGraphTest::expectedPeaks() const {
    return sorted(peaksTopK(*m_panel->lastRun()->result, 3));
}

void DpcDecisionGraphTest::rectangleAroundThePeaksGivesTheThreeBlobs() {
    const DensityPeaksResult& r = *m_panel->lastRun()->result;
    const std::vector<std::int64_t> peaks = expectedPeaks();
    // From just below-left of the lowest peak to the top right corner of the plot.
    DecisionGraph* graph = m_panel->graph();
    QPointF lowest(1e9, -1e9);
    for (std::int64_t p : peaks) {
        const QPointF at = graph->positionOf(r.rho[static_cast<std::size_t>(p)], r.delta[static_cast<std::size_t>(p)]);
        lowest.setX(std::min(lowest.x(), at.x()));
        lowest.setY(std::max(lowest.y(), at.y()));
    }
    const QPointF from = lowest + QPointF(-4, 4), to = graph->plotRect().topRight() + QPointF(-1, 1);
    const QString before = m_analysis->colouring();
    QSignalSpy applied(m_panel, &DpcPanel::labelsApplied);
    sendMouse(graph, QEvent::MouseButtonPress, from, Qt::RightButton, Qt::RightButton);
    sendMouse(graph, QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::RightButton);
    sendMouse(graph, QEvent::MouseMove, to, Qt::NoButton, Qt::RightButton);
    sendMouse(graph, QEvent::MouseButtonRelease, to, Qt::RightButton, Qt::NoButton);
    QCOMPARE(applied.count(), 1);
    QCOMPARE(sorted(m_panel->peakChoice()->peaks()), peaks);
    const auto labels = m_panel->currentLabels();
    QVERIFY(labels);
    QVERIFY(matchesBlobs(*labels, m_truth));
    QCOMPARE(m_analysis->colouring(), QStringLiteral("DPC (k=3)"));
    QVERIFY(m_analysis->colouring() != before);
    QCOMPARE(*m_analysis->colouringLabels(), *labels);
    QCOMPARE(m_panel->tableModel()->rowCount(), 3);
    QVERIFY(graph->selection().isEmpty());  // the rectangle became peaks, not a lasting selection
}

void DpcDecisionGraphTest::lassoAroundTwoPeaksPicksOnlyThem() {
    // A thin band drawn along the segment between two peaks: a polygon no rectangle could replace
    // when the third peak lies inside the two peaks' bounding box, and never the third peak.
    const DensityPeaksResult& r = *m_panel->lastRun()->result;
    const std::vector<std::int64_t> peaks = expectedPeaks();
    DecisionGraph* graph = m_panel->graph();
    const auto at = [&](std::int64_t p) {
        return graph->positionOf(r.rho[static_cast<std::size_t>(p)], r.delta[static_cast<std::size_t>(p)]);
    };
    // Of the three pairs, the one whose segment passes farthest from the remaining peak.
    const auto segmentDistance = [](QPointF p, QPointF a, QPointF b) {
        const QPointF ab = b - a;
        const double t = std::clamp(QPointF::dotProduct(p - a, ab) / QPointF::dotProduct(ab, ab), 0.0, 1.0);
        return QLineF(p, a + t * ab).length();
    };
    std::size_t first = 0, second = 1;
    double clearance = -1.0;
    for (auto [i, j, k] : {std::array<std::size_t, 3>{0, 1, 2}, {0, 2, 1}, {1, 2, 0}}) {
        const double d = segmentDistance(at(peaks[k]), at(peaks[i]), at(peaks[j]));
        if (d > clearance) clearance = d, first = i, second = j;
    }
    const double halfWidth = 5.0;
    QVERIFY2(clearance > 3 * halfWidth, "the peaks lie on one line on screen");
    const QPointF a = at(peaks[first]), b = at(peaks[second]);
    const QLineF axis(a, b);
    const QPointF along = (b - a) / axis.length();
    const QPointF normal(-along.y(), along.x());
    const QPointF start = a - along * 6 + normal * halfWidth;
    const QList<QPointF> path = {start, b + along * 6 + normal * halfWidth, b + along * 6 - normal * halfWidth,
                                 a - along * 6 - normal * halfWidth};
    QSignalSpy applied(m_panel, &DpcPanel::labelsApplied);
    sendMouse(graph, QEvent::MouseButtonPress, start, Qt::LeftButton, Qt::LeftButton, Qt::ControlModifier);
    for (const QPointF& q : path.mid(1))
        sendMouse(graph, QEvent::MouseMove, q, Qt::NoButton, Qt::LeftButton, Qt::ControlModifier);
    sendMouse(graph, QEvent::MouseButtonRelease, path.back(), Qt::LeftButton, Qt::NoButton, Qt::ControlModifier);
    QCOMPARE(applied.count(), 1);
    QCOMPARE(sorted(m_panel->peakChoice()->peaks()), sorted({peaks[first], peaks[second]}));
    QCOMPARE(m_analysis->colouring(), QStringLiteral("DPC (k=2)"));
    QVERIFY(graph->selection().isEmpty());
    m_panel->peakChoice()->undoStack()->undo();  // back to the three peaks of the rectangle
    QCOMPARE(sorted(m_panel->peakChoice()->peaks()), peaks);
}

void DpcDecisionGraphTest::undoAndRedoRestoreThePeaks() {
    PeakChoice* choice = m_panel->peakChoice();
    const std::vector<std::int64_t> three = sorted(choice->peaks());
    m_panel->applyTopK(2);
    QCOMPARE(choice->peaks().size(), std::size_t{2});
    QCOMPARE(m_analysis->colouring(), QStringLiteral("DPC (k=2)"));
    choice->undoStack()->undo();
    QCOMPARE(sorted(choice->peaks()), three);
    QCOMPARE(m_analysis->colouring(), QStringLiteral("DPC (k=3)"));
    choice->undoStack()->redo();
    QCOMPARE(choice->peaks().size(), std::size_t{2});
    choice->undoStack()->undo();
    choice->undoStack()->undo();  // back to before the rectangle: no peaks
    QVERIFY(choice->peaks().empty());
    QVERIFY(!choice->labels());
    choice->undoStack()->redo();
    QCOMPARE(sorted(choice->peaks()), three);
}

// The choice dies with its panel: a listener of its undo stack must not be called into the panel's
// destruction (the main window's undo recorder was, found by UBSan).
void DpcDecisionGraphTest::destroyingAChoiceWithHistoryTellsNoListener() {
    auto choice = std::make_unique<PeakChoice>();
    choice->setResult(m_panel->lastRun()->result);
    choice->chooseTopK(3);
    QCOMPARE(choice->undoStack()->count(), 1);
    int told = 0;
    QObject listener;
    connect(choice->undoStack(), &QUndoStack::indexChanged, &listener, [&told] { ++told; });
    connect(choice->undoStack(), &QUndoStack::canUndoChanged, &listener, [&told] { ++told; });
    choice.reset();
    QCOMPARE(told, 0);
}

void DpcDecisionGraphTest::thresholdLinesPickTheSamePeaks() {
    const DensityPeaksResult& r = *m_panel->lastRun()->result;
    const std::vector<std::int64_t> peaks = expectedPeaks();
    double rhoMin = 1e300, deltaMin = 1e300;
    for (std::int64_t p : peaks) {
        rhoMin = std::min(rhoMin, r.rho[static_cast<std::size_t>(p)]);
        deltaMin = std::min(deltaMin, r.delta[static_cast<std::size_t>(p)]);
    }
    m_panel->applyTopK(1);
    m_panel->applyThresholds(0.5 * rhoMin, 0.5 * deltaMin);
    QCOMPARE(sorted(m_panel->peakChoice()->peaks()), peaks);
    QVERIFY(m_panel->graph()->thresholds().has_value());
    QVERIFY(matchesBlobs(*m_panel->currentLabels(), m_truth));

    // Dragging the delta line far up leaves only the densest peak; the drag is one undo step.
    DecisionGraph* graph = m_panel->graph();
    const int steps = m_panel->peakChoice()->undoStack()->count();
    const QPointF line = graph->positionOf(0.5 * rhoMin, 0.5 * deltaMin);
    const QPointF grab(graph->plotRect().center().x(), line.y());
    std::vector<double> deltas = r.delta;
    std::sort(deltas.begin(), deltas.end(), std::greater<>());
    const QPointF drop(grab.x(), graph->positionOf(0.0, 0.5 * (deltas[0] + deltas[1])).y());
    sendMouse(graph, QEvent::MouseButtonPress, grab, Qt::LeftButton, Qt::LeftButton);
    sendMouse(graph, QEvent::MouseMove, drop, Qt::NoButton, Qt::LeftButton);
    sendMouse(graph, QEvent::MouseButtonRelease, drop, Qt::LeftButton, Qt::NoButton);
    QVERIFY(graph->thresholds()->y() > 0.5 * deltaMin);
    QCOMPARE(m_panel->peakChoice()->peaks().size(), std::size_t{1});
    QCOMPARE(m_panel->peakChoice()->undoStack()->count(), steps);  // merged with the threshold command
}

void DpcDecisionGraphTest::topKAndTheKneePickTheSamePeaks() {
    GammaPlot* gamma = m_panel->gammaPlot();
    QSignalSpy requested(gamma, &GammaPlot::topKRequested);
    const QPointF atRank3(gamma->xOfRank(3), gamma->height() / 2.0);
    sendMouse(gamma, QEvent::MouseButtonPress, atRank3, Qt::LeftButton, Qt::LeftButton);
    QCOMPARE(requested.count(), 1);
    QCOMPARE(requested.first().first().value<std::size_t>(), std::size_t{3});
    QCOMPARE(sorted(m_panel->peakChoice()->peaks()), expectedPeaks());
    QVERIFY(!m_panel->graph()->thresholds().has_value());
    QVERIFY(matchesBlobs(*m_panel->currentLabels(), m_truth));
}

void DpcDecisionGraphTest::stabilityAcrossDcFillsThePeakTable() {
    PeakTableModel* table = m_panel->tableModel();
    const auto stability = [table](int row) {
        return table->data(table->index(row, PeakTableModel::StabilityColumn)).toString();
    };
    QPushButton* check = nullptr;
    for (QPushButton* button : m_panel->findChildren<QPushButton*>())
        if (button->text() == QStringLiteral("Stability across dc")) check = button;
    QVERIFY(check && check->isEnabled());
    QCOMPARE(table->rowCount(), 3);
    QVERIFY(stability(0).isEmpty());
    check->click();
    // The three blob peaks keep their clusters at every cutoff from 0.5 % to 4 %.
    QTRY_COMPARE_WITH_TIMEOUT(stability(0), QStringLiteral("100 %"), kJobTimeoutMs);
    QCOMPARE(stability(1), QStringLiteral("100 %"));
    QCOMPARE(stability(2), QStringLiteral("100 %"));
    QCOMPARE(table->headerData(PeakTableModel::StabilityColumn, Qt::Horizontal).toString(),
             QStringLiteral("Stable across dc"));
    // Another choice blanks the column until it is checked again.
    m_panel->applyTopK(4);
    QCOMPARE(table->rowCount(), 4);
    QVERIFY(stability(0).isEmpty() && stability(3).isEmpty());
    m_panel->checkStability();
    QTRY_VERIFY_WITH_TIMEOUT(!stability(3).isEmpty(), kJobTimeoutMs);
    // The fourth peak lies inside a blob: lost at some cutoffs. The strip: a square per cutoff, filled
    // with the cluster's colour where the peak was kept.
    QVERIFY(stability(3) != QStringLiteral("100 %"));
    for (int row = 0; row < 4; ++row) {
        const QModelIndex cell = table->index(row, PeakTableModel::StabilityColumn);
        const QVariantList kept = cell.data(PeakTableModel::PresenceRole).toList();
        QCOMPARE(kept.size(), 8);
        const auto keptCount = std::count_if(kept.begin(), kept.end(), [](const QVariant& k) { return k.toBool(); });
        QCOMPARE(stability(row), QStringLiteral("%1 %").arg(100.0 * keptCount / 8.0, 0, 'f', 0));
        QVERIFY(cell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("dc at 0.5 %")));
        const QColor colour = table->index(row, PeakTableModel::ClusterColumn).data(Qt::DecorationRole).value<QColor>();
        const QImage strip = paintedCell(cell, QSize(160, 20));
        for (int s = 0; s < 8; ++s) {
            const int x = 4 + s * (StabilityStripDelegate::kSquare + StabilityStripDelegate::kGap) +
                          StabilityStripDelegate::kSquare / 2;
            const QColor inside = strip.pixelColor(x, 10);
            QCOMPARE(inside == colour, kept[s].toBool());
        }
    }
    // The picture of docs/screenshots/decision-graph-stability.png, when asked for.
    const QString dir = qEnvironmentVariable("CLUSTERLENS_SCREENSHOT_DIR");
    if (!dir.isEmpty()) {
        // Room for the four rows of the table under the graph.
        auto* view = m_panel->findChild<QTableView*>();
        QVERIFY(view);
        if (auto* split = qobject_cast<QSplitter*>(view->parentWidget())) {
            QList<int> sizes = split->sizes();
            const int more = 150 - std::min(sizes.back(), 150) + 60;
            sizes.front() -= more;
            sizes.back() += more;
            split->setSizes(sizes);
        }
        QCoreApplication::processEvents();
        QVERIFY(m_panel->grab().save(dir + QStringLiteral("/decision-graph-stability.png")));
    }
    m_panel->applyTopK(3);
    QCOMPARE(sorted(m_panel->peakChoice()->peaks()), expectedPeaks());
}

void DpcDecisionGraphTest::haloRunsAsAJobAndKeepsTheClusters() {
    QSignalSpy applied(m_panel, &DpcPanel::labelsApplied);
    m_panel->setHaloEnabled(true);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->labelingName() == QStringLiteral("DPC (k=3, halo)"), kJobTimeoutMs);
    const auto labels = m_panel->currentLabels();
    QCOMPARE(*m_analysis->colouringLabels(), *labels);
    // Far apart blobs have no border pairs within dc: nothing becomes noise.
    QCOMPARE(std::count(labels->begin(), labels->end(), -1), 0);
    m_panel->setHaloEnabled(false);
    QCOMPARE(m_panel->labelingName(), QStringLiteral("DPC (k=3)"));
}

void DpcDecisionGraphTest::figureExportsParse() {
    m_panel->setLogAxes(true, true);
    const QString svgPath = m_dir.filePath(QStringLiteral("decision.svg"));
    m_panel->exportFigure(svgPath, {QSize(640, 560), 96});
    QFile svg(svgPath);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&svg);
    int paths = 0, texts = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("path")) ++paths;
        if (xml.isStartElement() && xml.name() == QLatin1String("text")) ++texts;
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(paths > 0);
    QVERIFY(texts > 0);

    const QString pdfPath = m_dir.filePath(QStringLiteral("decision.pdf"));
    m_panel->exportFigure(pdfPath, {QSize(500, 400), 96});
    QFile pdf(pdfPath);
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    const QString content = QString::fromLatin1(pdf.readAll());
    const auto box =
        QRegularExpression(QStringLiteral("/MediaBox \\[\\s*0\\s+0\\s+([\\d.]+)\\s+([\\d.]+)\\s*\\]")).match(content);
    QVERIFY(box.hasMatch());
    QCOMPARE(qRound(box.captured(1).toDouble()), 500);
    QCOMPARE(qRound(box.captured(2).toDouble()), 400);

    const QString pngPath = m_dir.filePath(QStringLiteral("decision.png"));
    m_panel->exportFigure(pngPath, {QSize(900, 700), 150});
    const QImage png(pngPath);
    QCOMPARE(png.size(), QSize(900, 700));
    m_panel->setLogAxes(false, false);
}

void DpcDecisionGraphTest::labelsAndTableExportsRoundTrip() {
    const QString labelsPath = m_dir.filePath(QStringLiteral("labels.csv"));
    m_panel->exportLabels(labelsPath);
    QCOMPARE(readLabels(labelsPath.toStdString(), m_data->n), *m_panel->currentLabels());
    const QString tablePath = m_dir.filePath(QStringLiteral("DPC.csv"));
    m_panel->exportTable(tablePath);
    const DensityPeaksResult back = readDpcCsv(tablePath.toStdString());
    const DensityPeaksResult& r = *m_panel->lastRun()->result;
    QCOMPARE(back.rho, r.rho);
    QCOMPARE(back.delta, r.delta);
    QCOMPARE(back.nearestHigher, r.nearestHigher);
    QCOMPARE(back.densityOrder, r.densityOrder);
    QCOMPARE(assignFromPeaks(back, peaksTopK(back, 3)), assignFromPeaks(r, peaksTopK(r, 3)));
}

void DpcDecisionGraphTest::cancelIsANormalOutcome() {
    QSignalSpy failed(m_panel, &DpcPanel::failed);
    m_panel->run();
    QVERIFY(m_panel->isRunning());
    m_panel->cancel();
    QVERIFY(!m_panel->isRunning());
    QCOMPARE(failed.count(), 0);
    m_runner->waitForWorkers();
    QVERIFY(m_panel->lastRun());  // the previous result stays on the graph
}

void DpcDecisionGraphTest::theGaussianKernelWithoutAGpuSaysWhatItCostsOnLargeData() {
    SyntheticOptions o;
    o.n = 60000;
    o.d = 3;
    const auto data = std::make_shared<const Dataset>(makeCytometryLike(o));
    DpcPanel panel(m_runner, m_analysis);
    panel.setDataSource(data, {QStringLiteral("marker1"), QStringLiteral("marker2"), QStringLiteral("marker3")});
    const auto statusSays = [&panel](const QString& part) {
        for (const QLabel* label : panel.findChildren<QLabel*>())
            if (label->text().contains(part)) return true;
        return false;
    };
    const QString warning = QLocale().toString(qulonglong{1'799'970'000}) + QStringLiteral(" pairs of events");
    for (const DensityKernel kernel : {DensityKernel::Gaussian, DensityKernel::Cutoff}) {
        DensityPeaksOptions options;
        options.kernel = kernel;
        panel.setOptions(options, Backend::Cpu);
        panel.run();
        QVERIFY(panel.isRunning());
        QCOMPARE(statusSays(warning), kernel == DensityKernel::Gaussian);
        panel.cancel();
        m_runner->waitForWorkers();
    }
}

CLUSTERLENS_GUI_TEST_MAIN(DpcDecisionGraphTest)
#include "dpc_decision_graph_test.moc"
