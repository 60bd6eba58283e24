// The data scatter: preparation, tick arithmetic, drawing, pan without re-upload, and rubber-band
// selection of exactly the points inside the band.

#include <QMouseEvent>
#include <QSignalSpy>

#include <algorithm>
#include <cmath>

#include "gui_test_main.hpp"
#include "scatter/scatter_data.hpp"
#include "scatter/scatter_widget.hpp"
#include "scatter/view_window.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

/// side x side points on the integer grid: row i*side + j is at (i, j).
std::shared_ptr<const Dataset> gridDataset(int side) {
    auto d = std::make_shared<Dataset>();
    d->n = static_cast<std::size_t>(side * side);
    d->d = 2;
    d->features = {"x", "y"};
    for (int i = 0; i < side; ++i)
        for (int j = 0; j < side; ++j) {
            d->values.push_back(static_cast<float>(i));
            d->values.push_back(static_cast<float>(j));
        }
    return d;
}

void sendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons,
               Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, modifiers);
    QApplication::sendEvent(w, &event);
}

bool sameTicks(const std::vector<double>& actual, const std::vector<double>& expected) {
    if (actual.size() != expected.size()) return false;
    for (std::size_t i = 0; i < actual.size(); ++i)
        if (std::abs(actual[i] - expected[i]) > 1e-12) return false;
    return true;
}

/// Pixels whose colour differs by more than 2/255 in a channel. Antialiased sprite edges may move
/// by one step when the same point is rasterised at another place of a layer.
int differingPixels(const QImage& a, const QImage& b) {
    if (a.size() != b.size()) return -1;
    int differing = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            const int delta =
                std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q))});
            differing += delta > 2 ? 1 : 0;
        }
    return differing;
}

bool isColoured(QRgb p) {
    const int hi = std::max({qRed(p), qGreen(p), qBlue(p)});
    const int lo = std::min({qRed(p), qGreen(p), qBlue(p)});
    return hi - lo > 40;
}

}  // namespace

class ScatterWidgetTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void preparationNormalisesAndDrawsDensestLast();
    void labelsModeDrawsNoiseFirst();
    void nonFiniteCoordinatesAreLeftOut();
    void embeddingCoordinatesAreUsedWhenChosen();
    void ticksAreRoundAndCoverTheRange();
    void drawsPointsInsideThePlotAreaOnly();
    void panningAndZoomingDoNotReuploadData();
    void retainedLayerMatchesAFreshRenderAfterPanAndZoom();
    void rubberBandSelectsExactlyThePointsInside();
    void shiftDragSelectsAndRightClickClears();

private:
    void renderFresh(ScatterWidget& w, const std::shared_ptr<const ScatterData>& data, QImage* out);
};

void ScatterWidgetTest::preparationNormalisesAndDrawsDensestLast() {
    auto d = std::make_shared<Dataset>();
    d->n = 5;
    d->d = 2;
    d->features = {"a", "b"};
    // Four points in one corner, one far away.
    d->values = {0, 0, 0.01f, 0, 0, 0.01f, 0.01f, 0.01f, 10, 20};
    const ScatterData s = prepareScatter({d, {}, ColourMode::Density, nullptr});
    QCOMPARE(s.pointCount, std::size_t{5});
    QCOMPARE(s.xMin, 0.0);
    QCOMPARE(s.xMax, 10.0);
    QCOMPARE(s.yMax, 20.0);
    QCOMPARE(s.xName, QStringLiteral("a"));
    std::vector<std::uint32_t> rows(s.indices.begin(), s.indices.end());
    std::sort(rows.begin(), rows.end());
    QCOMPARE(rows, (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
    QCOMPARE(s.indices.front(), 4u);  // the lonely point is drawn first, under the dense ones
    QVERIFY(s.values.back() > 0.999f);
    QVERIFY(s.values.front() < 0.5f);
    for (float p : s.positions) QVERIFY(p >= 0.0f && p <= 1.0f);
}

void ScatterWidgetTest::labelsModeDrawsNoiseFirst() {
    auto d = gridDataset(2);
    auto labels = std::make_shared<const std::vector<std::int32_t>>(std::vector<std::int32_t>{3, -1, 0, -1});
    const ScatterData s = prepareScatter({d, {}, ColourMode::Labels, labels});
    QCOMPARE(s.mode, ColourMode::Labels);
    QCOMPARE(s.values[0], -1.0f);
    QCOMPARE(s.values[1], -1.0f);
    QCOMPARE(s.indices[2], 0u);
    QCOMPARE(s.values[2], 3.0f);
    // Without labels anywhere, colouring falls back to density.
    QCOMPARE(prepareScatter({d, {}, ColourMode::Labels, nullptr}).mode, ColourMode::Density);
}

void ScatterWidgetTest::nonFiniteCoordinatesAreLeftOut() {
    auto d = std::make_shared<Dataset>(*gridDataset(2));
    d->values[2] = std::numeric_limits<float>::quiet_NaN();
    const ScatterData s = prepareScatter({d, {}, ColourMode::Density, nullptr});
    QCOMPARE(s.datasetSize, std::size_t{4});
    QCOMPARE(s.pointCount, std::size_t{3});
    QVERIFY(std::find(s.indices.begin(), s.indices.end(), 1u) == s.indices.end());
}

void ScatterWidgetTest::embeddingCoordinatesAreUsedWhenChosen() {
    auto d = std::make_shared<Dataset>(*gridDataset(2));
    Embedding umap;
    umap.name = "X_umap";
    umap.n = 4;
    umap.d = 2;
    umap.values = {10, -1, 20, -2, 30, -3, 40, -4};
    d->embeddings.push_back(umap);
    const ScatterAxes axes{0, 0, 1};
    QVERIFY(axesValid(*d, axes));
    QVERIFY(!axesValid(*d, ScatterAxes{1, 0, 1}));
    const ScatterData s = prepareScatter({d, axes, ColourMode::Density, nullptr});
    QCOMPARE(s.xName, QStringLiteral("X_umap 1"));
    QCOMPARE(s.yName, QStringLiteral("X_umap 2"));
    QCOMPARE(s.xMin, 10.0);
    QCOMPARE(s.xMax, 40.0);
    QCOMPARE(s.yMin, -4.0);
    QCOMPARE(s.yMax, -1.0);
}

void ScatterWidgetTest::ticksAreRoundAndCoverTheRange() {
    QVERIFY(sameTicks(niceTicks(0.0, 10.0, 5), {0, 2, 4, 6, 8, 10}));
    QVERIFY(sameTicks(niceTicks(-0.13, 0.47, 6), {-0.1, 0.0, 0.1, 0.2, 0.3, 0.4}));
    QVERIFY(sameTicks(niceTicks(31000, 79000, 5), {40000, 50000, 60000, 70000}));
    QCOMPARE(niceTicks(1.0, 1.0, 5).size(), std::size_t{0});
    QCOMPARE(formatTick(0.2, 0.1), QStringLiteral("0.2"));
    QCOMPARE(formatTick(30000.0, 10000.0), QStringLiteral("30000"));
    QCOMPARE(formatTick(2e6, 1e6), QStringLiteral("2e+06"));
}

void ScatterWidgetTest::drawsPointsInsideThePlotAreaOnly() {
    ScatterWidget w;
    w.setLegendVisible(false);  // the density colour bar sits outside the plot area, above it
    w.resize(640, 480);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy drawn(&w, &ScatterWidget::dataDrawn);
    w.setData(std::make_shared<const ScatterData>(prepareScatter({gridDataset(30), {}, ColourMode::Density, nullptr})));
    QTRY_VERIFY(drawn.count() > 0);
    QVERIFY2(w.glError().isEmpty(), qPrintable(w.glError()));

    const QImage image = w.grabFramebuffer();
    const QRect plot = w.plotRect().toAlignedRect().adjusted(-1, -1, 1, 1);
    int inside = 0, outside = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (isColoured(image.pixel(x, y))) ++(plot.contains(x, y) ? inside : outside);
    QVERIFY2(inside > 900 * 10, qPrintable(QString::number(inside)));
    QCOMPARE(outside, 0);
}

void ScatterWidgetTest::panningAndZoomingDoNotReuploadData() {
    ScatterWidget w;
    w.resize(400, 300);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy drawn(&w, &ScatterWidget::dataDrawn);
    w.setData(std::make_shared<const ScatterData>(prepareScatter({gridDataset(10), {}, ColourMode::Density, nullptr})));
    QTRY_VERIFY(drawn.count() > 0);
    const int uploads = w.dataUploads();
    QCOMPARE(uploads, 1);
    const QPointF before = w.mapFromData(5, 5);
    w.panByPixels(QPointF(30, -20));
    w.zoomAt(w.plotRect().center(), 2.0);
    w.grabFramebuffer();
    QCOMPARE(w.dataUploads(), uploads);
    QVERIFY(w.mapFromData(5, 5) != before);
    w.resetView();
    QCOMPARE(w.mapFromData(5, 5), before);
}

void ScatterWidgetTest::retainedLayerMatchesAFreshRenderAfterPanAndZoom() {
    ScatterWidget w;
    w.resize(500, 400);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy drawn(&w, &ScatterWidget::dataDrawn);
    const auto data =
        std::make_shared<const ScatterData>(prepareScatter({gridDataset(40), {}, ColourMode::Density, nullptr}));
    w.setData(data);
    QTRY_VERIFY(drawn.count() > 0);

    // Frames from the cached layer must equal a layer rendered from scratch for the same view.
    QImage fresh;
    w.panByPixels(QPointF(37, -23));
    const QImage panned = w.grabFramebuffer();
    QVERIFY(w.isSettled());
    renderFresh(w, data, &fresh);
    QCOMPARE(differingPixels(panned, fresh), 0);

    w.zoomAt(w.plotRect().center() + QPointF(20, 10), 1.7);
    QTRY_VERIFY_WITH_TIMEOUT(w.isSettled(), 10'000);  // the sharp layer replaces the scaled one
    const QImage zoomed = w.grabFramebuffer();
    renderFresh(w, data, &fresh);
    QCOMPARE(differingPixels(zoomed, fresh), 0);

    w.panByPixels(QPointF(-2000, 900));  // far beyond the layer's margin
    QTRY_VERIFY_WITH_TIMEOUT(w.isSettled(), 10'000);
    const QImage far = w.grabFramebuffer();
    renderFresh(w, data, &fresh);
    QCOMPARE(differingPixels(far, fresh), 0);
}

void ScatterWidgetTest::renderFresh(ScatterWidget& w, const std::shared_ptr<const ScatterData>& data, QImage* out) {
    w.setData(data, true);  // same view: forces a layer rendered from scratch
    QTRY_VERIFY_WITH_TIMEOUT(w.isSettled(), 10'000);
    *out = w.grabFramebuffer();
}

void ScatterWidgetTest::rubberBandSelectsExactlyThePointsInside() {
    ScatterWidget w;
    w.resize(600, 500);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setData(std::make_shared<const ScatterData>(prepareScatter({gridDataset(10), {}, ColourMode::Density, nullptr})));
    QSignalSpy changed(&w, &ScatterWidget::selectionChanged);

    // Band from data (2.5, 4.5) to (6.5, 1.5): x in {3..6}, y in {2, 3, 4}.
    const QPointF from = w.mapFromData(2.5, 4.5), to = w.mapFromData(6.5, 1.5);
    sendMouse(&w, QEvent::MouseButtonPress, from, Qt::RightButton, Qt::RightButton);
    sendMouse(&w, QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::RightButton);
    sendMouse(&w, QEvent::MouseMove, to, Qt::NoButton, Qt::RightButton);
    sendMouse(&w, QEvent::MouseButtonRelease, to, Qt::RightButton, Qt::NoButton);

    QList<qsizetype> expected;
    for (int i = 3; i <= 6; ++i)
        for (int j = 2; j <= 4; ++j) expected << i * 10 + j;
    QCOMPARE(w.selection(), expected);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).value<QList<qsizetype>>(), expected);
}

void ScatterWidgetTest::shiftDragSelectsAndRightClickClears() {
    ScatterWidget w;
    w.resize(600, 500);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setData(std::make_shared<const ScatterData>(prepareScatter({gridDataset(10), {}, ColourMode::Density, nullptr})));
    const QPointF from = w.mapFromData(-0.5, 0.5), to = w.mapFromData(0.5, -0.5);
    sendMouse(&w, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton, Qt::ShiftModifier);
    sendMouse(&w, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
    sendMouse(&w, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton, Qt::ShiftModifier);
    QCOMPARE(w.selection(), QList<qsizetype>{0});

    const QPointF p = w.mapFromData(5, 5);
    sendMouse(&w, QEvent::MouseButtonPress, p, Qt::RightButton, Qt::RightButton);
    sendMouse(&w, QEvent::MouseButtonRelease, p, Qt::RightButton, Qt::NoButton);
    QVERIFY(w.selection().isEmpty());
}

CLUSTERLENS_GUI_TEST_MAIN(ScatterWidgetTest)
#include "scatter_widget_test.moc"
