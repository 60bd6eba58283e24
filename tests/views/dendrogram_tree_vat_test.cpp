// The iVAT in tree order under the dendrogram: it appears when switched on (computing a VAT run of the
// tree's events, or taking one offered), each of its pixels is the VAT run's iVAT pixel of the same two
// points (against the engine's render source in VAT order), and it follows a zoom of the leaf axis with
// its leaves under the tree's. The VAT order it computes says so and can be cancelled.

#include <QSignalSpy>

#include <algorithm>
#include <cmath>

#include "analysis_session.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/vat/viewport.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dendrogram/tree_vat_strip.hpp"
#include "dpc/dpc_run.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
#include "vat/vat_run.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr int kJobTimeoutMs = 30'000;

// Three blobs of 20 points in the plane, interleaved in the file so the tree's order is not the input's.
std::shared_ptr<const Dataset> threeBlobs() {
    auto data = std::make_shared<Dataset>();
    data->n = 60;
    data->d = 2;
    data->features = {"x", "y"};
    for (std::size_t i = 0; i < 60; ++i) {
        const double blob = static_cast<double>(i % 3), k = static_cast<double>(i / 3);
        data->values.push_back(static_cast<float>(10.0 * blob + std::sin(1.7 * k)));
        data->values.push_back(static_cast<float>(5.0 * blob + std::cos(2.3 * k)));
    }
    return data;
}

/// The VAT run's iVAT value of points p and q, from a render source in the VAT's own order.
float ivatOfPoints(const VatRenderSource& vatOrder, const std::vector<std::int64_t>& rank, std::int64_t p,
                   std::int64_t q) {
    VatViewport one;
    one.row0 = static_cast<double>(rank[static_cast<std::size_t>(p)]);
    one.col0 = static_cast<double>(rank[static_cast<std::size_t>(q)]);
    one.row1 = one.row0 + 1.0;
    one.col1 = one.col0 + 1.0;
    one.width = one.height = 1;
    one.kind = VatImageKind::Ivat;
    float value = 0.0f;
    renderVatViewportCpu(vatOrder, one, &value);
    return value;
}

}  // namespace

class DendrogramTreeVatTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void stripAppearsWithTheVatRunsPixelsInLeafOrderAndFollowsAZoom();
    void anOfferedRunOfTheTreesEventsIsUsed();
    void theVatOrderSaysSoWhileItRunsAndCanBeCancelled();
    void aTreeOfAPopulationGetsTheVatOfItsMembers();

private:
    /// Every 7th pixel of the strip's image equals the iVAT of the two points at its leaf ranks.
    void checkPixelsAgainstTheVatOrder();

    std::unique_ptr<JobRunner> m_runner;
    std::unique_ptr<AnalysisSession> m_analysis;
    std::unique_ptr<DendrogramPanel> m_panel;
    std::shared_ptr<const Dataset> m_data;
};

void DendrogramTreeVatTest::init() {
    m_runner = std::make_unique<JobRunner>();
    m_analysis = std::make_unique<AnalysisSession>();
    m_panel = std::make_unique<DendrogramPanel>(m_runner.get(), m_analysis.get());
    m_panel->resize(900, 1000);
    m_data = threeBlobs();
    m_panel->setDataSource(m_data, {QStringLiteral("x"), QStringLiteral("y")});
    auto tree = std::make_shared<const Linkage>(
        classicLinkageCpu(m_data->values.data(), m_data->n, m_data->d, LinkageMethod::Average));
    m_analysis->addLinkage(QStringLiteral("average linkage"), tree);
    m_panel->showLinkage(QStringLiteral("average linkage"));
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
}

void DendrogramTreeVatTest::cleanup() {
    m_panel.reset();
    m_analysis.reset();
    m_runner.reset();
}

void DendrogramTreeVatTest::checkPixelsAgainstTheVatOrder() {
    const auto run = m_panel->treeVatRun();
    QVERIFY(run);
    const std::vector<float> x = featureMatrix(*run->request.dataset, run->request.columns);
    const VatRenderSource vatOrder = makeVatRenderSource(*run->vat, x.data(), run->request.columns.size());
    TreeVatStrip* strip = m_panel->treeVatStrip();
    strip->repaint();
    const VatImage& image = strip->image();
    QVERIFY(image.viewport.width > 10 && image.viewport.height > 10);
    const auto& order = m_panel->layout()->order;
    const std::size_t n = order.size();
    int checked = 0;
    for (int py = 0; py < image.viewport.height; py += 7)
        for (int px = 0; px < image.viewport.width; px += 7) {
            const auto& v = image.viewport;
            const std::size_t r = viewportPosition(v.row0, v.row1, v.height, py, 0, 1, n);
            const std::size_t c = viewportPosition(v.col0, v.col1, v.width, px, 0, 1, n);
            const float want = ivatOfPoints(vatOrder, run->rank, order[r], order[c]);
            const float got = image.pixels[static_cast<std::size_t>(py) * static_cast<std::size_t>(v.width) +
                                           static_cast<std::size_t>(px)];
            QCOMPARE(got, want);
            ++checked;
        }
    QVERIFY(checked > 50);
}

void DendrogramTreeVatTest::stripAppearsWithTheVatRunsPixelsInLeafOrderAndFollowsAZoom() {
    TreeVatStrip* strip = m_panel->treeVatStrip();
    QVERIFY(!strip->isVisible());
    m_panel->setTreeVatShown(true);
    QVERIFY(strip->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(strip->source() != nullptr, kJobTimeoutMs);
    QCOMPARE(strip->source()->n, std::size_t{60});
    checkPixelsAgainstTheVatOrder();

    // Zoomed to leaves 10..30 of the tree: the image is that square, its leaves under the tree's.
    DendrogramWidget* tree = m_panel->widget();
    tree->zoomAt(tree->plotRect().center(), 3.0, 1.0);
    strip->repaint();
    const DendrogramView& view = tree->view();
    const VatViewport& v = strip->image().viewport;
    QCOMPARE(v.col0, std::clamp(view.x0(), 0.0, 60.0));
    QCOMPARE(v.col1, std::clamp(view.x1(), 0.0, 60.0));
    QCOMPARE(v.row0, v.col0);
    QCOMPARE(v.row1, v.col1);
    QVERIFY(v.col1 - v.col0 < 30.0);
    const QRectF image = strip->imageRect();
    for (const double rank : {std::ceil(v.col0) + 0.5, std::floor(v.col1) - 0.5}) {
        const QPointF inTree = tree->view().toPixel(rank, 0.0, tree->plotRect());
        const double treeX = strip->mapFromGlobal(tree->mapToGlobal(inTree.toPoint())).x();
        const double stripX = image.left() + (rank - v.col0) / (v.col1 - v.col0) * image.width();
        QVERIFY2(std::abs(treeX - stripX) <= 1.5, qPrintable(QStringLiteral("%1 vs %2").arg(treeX).arg(stripX)));
    }
    checkPixelsAgainstTheVatOrder();
    m_panel->setTreeVatShown(false);
    QVERIFY(!strip->isVisible());
}

void DendrogramTreeVatTest::anOfferedRunOfTheTreesEventsIsUsed() {
    VatRequest request;
    request.dataset = m_data;
    request.columns = {0, 1};
    request.backend = Backend::Cpu;
    JobControl control;
    auto offered = std::make_shared<const VatRun>(computeVatRun(request, control));
    m_panel->offerVatRun(offered);
    m_panel->setTreeVatShown(true);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->treeVatStrip()->source() != nullptr, kJobTimeoutMs);
    QCOMPARE(m_panel->treeVatRun(), offered);
    checkPixelsAgainstTheVatOrder();
}

void DendrogramTreeVatTest::theVatOrderSaysSoWhileItRunsAndCanBeCancelled() {
    TreeVatStrip* strip = m_panel->treeVatStrip();
    m_panel->setTreeVatShown(true);
    QVERIFY2(strip->status().contains(QStringLiteral("Computing the VAT order of 60 points")),
             qPrintable(strip->status()));
    // The job's result reaches the panel through the event loop only: cancelled before it does.
    m_panel->cancelTreeVat();
    QCOMPARE(strip->status(), QStringLiteral("Cancelled."));
    QTest::qWait(200);
    QVERIFY(!strip->source());
    QVERIFY(!m_panel->treeVatRun());
    // Switched on again, it computes anew.
    m_panel->setTreeVatShown(false);
    m_panel->setTreeVatShown(true);
    QTRY_VERIFY_WITH_TIMEOUT(strip->source() != nullptr, kJobTimeoutMs);
}

void DendrogramTreeVatTest::aTreeOfAPopulationGetsTheVatOfItsMembers() {
    // The events 30..59 as a population, clustered on their own: leaf k is member k.
    auto members = std::make_shared<IndexVector>();
    for (std::int64_t i = 30; i < 60; ++i) members->push_back(i);
    m_analysis->setPopulations({{QStringLiteral("P"), members}});
    const std::vector<float> x(m_data->values.begin() + 60, m_data->values.end());
    auto tree = std::make_shared<const Linkage>(classicLinkageCpu(x.data(), 30, 2, LinkageMethod::Average));
    m_analysis->addLinkage(QStringLiteral("average linkage on P"), tree, QString(),
                           ResultScope{QStringLiteral("P"), members});
    // A run of all events does not fit the population's tree.
    VatRequest request;
    request.dataset = m_data;
    request.columns = {0, 1};
    JobControl control;
    const auto allEvents = std::make_shared<const VatRun>(computeVatRun(request, control));
    m_panel->offerVatRun(allEvents);
    m_panel->showLinkage(QStringLiteral("average linkage on P"));
    m_panel->setTreeVatShown(true);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->treeVatStrip()->source() != nullptr, kJobTimeoutMs);
    QVERIFY(m_panel->treeVatRun() != allEvents);
    QCOMPARE(m_panel->treeVatRun()->n(), std::size_t{30});
    QCOMPARE(*m_panel->treeVatRun()->scope.members, *members);
    checkPixelsAgainstTheVatOrder();
}

CLUSTERLENS_GUI_TEST_MAIN(DendrogramTreeVatTest)
#include "dendrogram_tree_vat_test.moc"
