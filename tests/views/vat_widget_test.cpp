// The VAT widget on two well separated groups (interleaved in the input): the iVAT frame shows two
// dark diagonal blocks, every checked pixel has the colour the engine's colormap gives its value,
// zooming and panning re-render the new viewport, hover names positions, point indices and the exact
// distance, the tooltip of a row names its event (index, cluster, populations), a right-drag along the
// diagonal selects one group, the VAT/iVAT toggle re-renders, the cut
// boxes are drawn in the label colours.

#include <QHelpEvent>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "analysis_session.hpp"
#include "clusterlens/vat/colormap.hpp"
#include "clusterlens/vat/metric.hpp"
#include "gui_test_main.hpp"
#include "palette.hpp"
#include "vat/vat_frame_renderer.hpp"
#include "vat/vat_run.hpp"
#include "vat/vat_widget.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr int kFrameTimeoutMs = 30'000;
constexpr std::size_t kPerGroup = 40;
constexpr std::uint64_t kSeed = 20251121;

/// Two groups of kPerGroup points (sd 0.4) 20 units apart; point i belongs to group i % 2.
std::shared_ptr<const Dataset> twoGroups() {
    std::printf("two groups, seed %llu\n", static_cast<unsigned long long>(kSeed));
    std::mt19937_64 random(kSeed);
    std::normal_distribution<double> normal(0.0, 0.4);
    auto data = std::make_shared<Dataset>();
    data->n = 2 * kPerGroup;
    data->d = 2;
    data->features = {"x", "y"};
    for (std::size_t i = 0; i < data->n; ++i) {
        data->values.push_back(static_cast<float>(20.0 * static_cast<double>(i % 2) + normal(random)));
        data->values.push_back(static_cast<float>(normal(random)));
    }
    return data;
}

std::shared_ptr<const VatRun> computeRun(std::shared_ptr<const Dataset> data) {
    VatRequest request;
    request.dataset = std::move(data);
    request.columns = {0, 1};
    request.backend = Backend::Cpu;
    JobControl control;
    return std::make_shared<const VatRun>(computeVatRun(request, control));
}

void sendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
    QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &event);
}

/// The frame pixel at image pixel (x, y) of the plot.
QRgb plotPixel(const VatWidget& widget, const QImage& frame, int x, int y) {
    const double dpr = widget.devicePixelRatioF();
    const QPoint origin(qRound(widget.plotRect().left() * dpr), qRound(widget.plotRect().top() * dpr));
    return frame.pixel(origin + QPoint(x, y));
}

int grey(QRgb c) {
    return (qRed(c) + qGreen(c) + qBlue(c)) / 3;
}

}  // namespace

class VatWidgetTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void ivatShowsTwoDarkDiagonalBlocks();
    void pixelColoursAreTheColormapOfTheValues();
    void zoomAndPanRenderTheNewViewport();
    void panShowsTheLastImageShiftedUntilItsRenderArrives();
    void hoverShowsPositionsIndicesAndDistance();
    void tooltipNamesTheEventOfTheRow();
    void diagonalDragSelectsOneGroup();
    void toggleRendersVatDistances();
    void cutBoxesAreDrawnInTheLabelColours();
    void hostPathIsNamedWithTheGlRenderer();

private:
    bool settle();
    std::vector<float> engineImage(const VatViewport& viewport) const;

    std::shared_ptr<const VatRun> m_run;
    std::unique_ptr<VatWidget> m_widget;
};

void VatWidgetTest::initTestCase() {
    m_run = computeRun(twoGroups());
    QCOMPARE(m_run->n(), 2 * kPerGroup);
}

void VatWidgetTest::init() {
    m_widget = std::make_unique<VatWidget>();
    m_widget->resize(520, 500);
    m_widget->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_widget.get()));
    m_widget->setRun(m_run);
    QVERIFY(settle());
}

void VatWidgetTest::cleanup() {
    m_widget.reset();
}

bool VatWidgetTest::settle() {
    QSignalSpy settled(m_widget.get(), &VatWidget::frameSettled);
    m_widget->update();
    return QTest::qWaitFor([&] { return settled.count() > 0 || !m_widget->glError().isEmpty(); }, kFrameTimeoutMs) &&
           m_widget->glError().isEmpty() && m_widget->isSettled();
}

std::vector<float> VatWidgetTest::engineImage(const VatViewport& viewport) const {
    std::vector<float> pixels(static_cast<std::size_t>(viewport.width) * static_cast<std::size_t>(viewport.height));
    renderVatViewportCpu(m_run->renderer->source(), viewport, pixels.data());
    return pixels;
}

void VatWidgetTest::ivatShowsTwoDarkDiagonalBlocks() {
    const QImage frame = m_widget->grabFramebuffer();
    const VatViewport shown = m_widget->shownViewport();
    QCOMPARE(shown.kind, VatImageKind::Ivat);
    QCOMPARE(shown.col1, static_cast<double>(2 * kPerGroup));
    const int side = shown.width, q = side / 4;
    // Group blocks on the diagonal: dark; the two off-diagonal blocks: bright.
    QVERIFY2(grey(plotPixel(*m_widget, frame, q, q)) < 60, "first diagonal block is dark");
    QVERIFY2(grey(plotPixel(*m_widget, frame, 3 * q, 3 * q)) < 60, "second diagonal block is dark");
    QVERIFY2(grey(plotPixel(*m_widget, frame, 3 * q, q)) > 200, "off-diagonal block is bright");
    QVERIFY2(grey(plotPixel(*m_widget, frame, q, 3 * q)) > 200, "off-diagonal block is bright");
}

void VatWidgetTest::pixelColoursAreTheColormapOfTheValues() {
    VatDisplay display = m_widget->display();
    display.colormap = Colormap::Viridis;
    display.gamma = 0.6;
    display.lowPercent = 2.0;
    display.highPercent = 95.0;
    m_widget->setDisplay(display);
    QVERIFY(settle());
    const QImage frame = m_widget->grabFramebuffer();
    const VatViewport shown = m_widget->shownViewport();
    QCOMPARE(shown.width, m_widget->wantedViewport().width);
    const std::vector<float> values = engineImage(shown);
    QVERIFY(m_widget->shownImage());
    QVERIFY(m_widget->shownImage()->pixels == values);
    const auto [lo, hi] = imagePercentiles(values.data(), values.size(), 2.0, 95.0);
    QCOMPARE(m_widget->levels(), std::make_pair(lo, hi));
    const std::vector<std::uint8_t> table = colormapTable(Colormap::Viridis, false, 256);
    int checked = 0;
    for (int y = 1; y < shown.height; y += shown.height / 13)
        for (int x = 2; x < shown.width; x += shown.width / 11) {
            const float v = values[static_cast<std::size_t>(y) * static_cast<std::size_t>(shown.width) +
                                   static_cast<std::size_t>(x)];
            const auto e = static_cast<std::size_t>(3 * colormapIndex(v, Contrast{lo, hi, 0.6}, 256));
            const QRgb got = plotPixel(*m_widget, frame, x, y);
            const bool close = std::abs(qRed(got) - table[e]) <= 3 && std::abs(qGreen(got) - table[e + 1]) <= 3 &&
                               std::abs(qBlue(got) - table[e + 2]) <= 3;
            if (!close)
                qWarning("pixel (%d, %d) value %g: got %d %d %d, expected %d %d %d", x, y, static_cast<double>(v),
                         qRed(got), qGreen(got), qBlue(got), table[e], table[e + 1], table[e + 2]);
            QVERIFY(close);
            ++checked;
        }
    QVERIFY(checked > 100);
}

void VatWidgetTest::zoomAndPanRenderTheNewViewport() {
    const int before = m_widget->renderCount();
    m_widget->zoomAt(m_widget->plotRect().center(), 4.0);
    QVERIFY(settle());
    QCOMPARE(m_widget->window().span(), 20.0);
    QCOMPARE(m_widget->shownViewport().row0, 30.0);
    QVERIFY(m_widget->renderCount() > before);
    QVERIFY(m_widget->shownImage()->pixels == engineImage(m_widget->shownViewport()));

    // A quarter of the plot to the left and up: the content follows the mouse.
    const double quarter = m_widget->plotRect().width() / 4;
    m_widget->panByPixels(QPointF(quarter, quarter));
    QVERIFY(settle());
    QCOMPARE(m_widget->shownViewport().col0, 25.0);
    QCOMPARE(m_widget->shownViewport().row0, 25.0);
    QVERIFY(m_widget->shownImage()->pixels == engineImage(m_widget->shownViewport()));

    // A drag pans as well; the window never leaves the matrix.
    const QPointF centre = m_widget->plotRect().center();
    sendMouse(m_widget.get(), QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
    sendMouse(m_widget.get(), QEvent::MouseMove, centre + QPointF(4000, 4000), Qt::NoButton, Qt::LeftButton);
    sendMouse(m_widget.get(), QEvent::MouseButtonRelease, centre + QPointF(4000, 4000), Qt::LeftButton, Qt::NoButton);
    QVERIFY(settle());
    QCOMPARE(m_widget->shownViewport().row0, 0.0);
    QCOMPARE(m_widget->shownViewport().col0, 0.0);
}

void VatWidgetTest::panShowsTheLastImageShiftedUntilItsRenderArrives() {
    m_widget->zoomAt(m_widget->plotRect().center(), 2.0);  // rows and columns 20 .. 60
    QVERIFY(settle());
    const int renders = m_widget->renderCount();
    const int side = m_widget->shownViewport().width, quarter = side / 4, shift = 30;
    // Row 30 (block of the first group): dark up to column 40 (the middle of the plot), bright after.
    const int y = quarter;
    QVERIFY(grey(plotPixel(*m_widget, m_widget->grabFramebuffer(), 2 * quarter - 3, y)) < 60);
    m_widget->panByPixels(QPointF(shift, 0));
    // This frame is drawn before the render of the new view can arrive: the old image, shifted.
    const QImage frame = m_widget->grabFramebuffer();
    QVERIFY(!m_widget->isSettled());
    QCOMPARE(m_widget->renderCount(), renders);
    QVERIFY(grey(plotPixel(*m_widget, frame, 2 * quarter + shift - 3, y)) < 60);
    QVERIFY(grey(plotPixel(*m_widget, frame, 2 * quarter + shift + 3, y)) > 200);
    QCOMPARE(grey(plotPixel(*m_widget, frame, shift / 2, y)), 217);  // not covered yet: the plot background
    QVERIFY(settle());
    QCOMPARE(m_widget->renderCount(), renders + 1);
    const QImage after = m_widget->grabFramebuffer();
    QVERIFY(grey(plotPixel(*m_widget, after, shift / 2, y)) < 60);
}

void VatWidgetTest::hoverShowsPositionsIndicesAndDistance() {
    const QPointF at = m_widget->widgetPoint(61.5, 17.5);  // column 61, row 17
    QSignalSpy hovered(m_widget.get(), &VatWidget::hoverChanged);
    sendMouse(m_widget.get(), QEvent::MouseMove, at, Qt::NoButton, Qt::NoButton);
    QCOMPARE(hovered.count(), 1);
    const VatResult& vat = *m_run->vat;
    const VatRenderSource& source = m_run->renderer->source();
    const QString text = m_widget->hoverText();
    QVERIFY2(text.contains(QStringLiteral("row 17 (point %1)").arg(vat.order[17])), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("column 61 (point %1)").arg(vat.order[61])), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("iVAT distance %1").arg(source.ivat.ivat(17, 61), 0, 'g', 6)),
             qPrintable(text));

    VatDisplay display = m_widget->display();
    display.kind = VatImageKind::Vat;
    m_widget->setDisplay(display);
    const double exact =
        metricDistance(&source.ordered[17 * source.d], &source.ordered[61 * source.d], source.d, Metric::Euclidean);
    const QString vatText = m_widget->describeAt(at);
    QVERIFY2(vatText.contains(QStringLiteral("VAT distance %1").arg(exact, 0, 'g', 6)), qPrintable(vatText));
    QVERIFY(m_widget->describeAt(QPointF(2, 2)).isEmpty());
}

void VatWidgetTest::tooltipNamesTheEventOfTheRow() {
    const VatResult& vat = *m_run->vat;
    const std::int64_t rowEvent = vat.order[17], columnEvent = vat.order[61];
    AnalysisSession analysis;
    auto groups = std::make_shared<LabelVector>(2 * kPerGroup);
    for (std::size_t i = 0; i < groups->size(); ++i) (*groups)[i] = static_cast<std::int32_t>(i % 2);
    analysis.addLabeling(QStringLiteral("groups"), groups);
    analysis.setColouring(QStringLiteral("groups"));
    analysis.setPopulations({{QStringLiteral("gate A"), std::make_shared<const IndexVector>(IndexVector{rowEvent})}});
    m_widget->setEventSource(&analysis);
    const QPointF at = m_widget->widgetPoint(61.5, 17.5);  // column 61, row 17
    const QString text = m_widget->tooltipAt(at);
    QVERIFY2(text.startsWith(QStringLiteral("Event %1\n").arg(rowEvent)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("row: 17\n")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("column event: %1\n").arg(columnEvent)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Cluster: cluster %1 (groups)").arg(rowEvent % 2)), qPrintable(text));
    QVERIFY2(text.endsWith(QStringLiteral("Populations: gate A")), qPrintable(text));
    QVERIFY2(m_widget->tooltipAt(m_widget->widgetPoint(17.5, 61.5))
                 .startsWith(QStringLiteral("Event %1\n").arg(columnEvent)),
             qPrintable(m_widget->tooltipAt(m_widget->widgetPoint(17.5, 61.5))));
    QVERIFY(m_widget->tooltipAt(QPointF(2, 2)).isEmpty());
    // Qt's tooltip request over the row shows that text.
    QHelpEvent help(QEvent::ToolTip, at.toPoint(), m_widget->mapToGlobal(at.toPoint()));
    QApplication::sendEvent(m_widget.get(), &help);
    QTRY_COMPARE(QToolTip::text(), m_widget->tooltipAt(at.toPoint()));
    m_widget->setEventSource(nullptr);
}

void VatWidgetTest::diagonalDragSelectsOneGroup() {
    QSignalSpy selected(m_widget.get(), &VatWidget::blockSelected);
    const QPointF from = m_widget->widgetPoint(0.2, 0.3), to = m_widget->widgetPoint(39.6, 39.4);
    sendMouse(m_widget.get(), QEvent::MouseButtonPress, from, Qt::RightButton, Qt::RightButton);
    sendMouse(m_widget.get(), QEvent::MouseMove, to, Qt::NoButton, Qt::RightButton);
    sendMouse(m_widget.get(), QEvent::MouseButtonRelease, to, Qt::RightButton, Qt::NoButton);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toLongLong(), 0);
    QCOMPARE(selected.at(0).at(1).toLongLong(), 39);
    // The first block of the order is one whole group.
    const std::vector<std::int64_t> indices = indicesAtPositions(*m_run->vat, 0, 39);
    QCOMPARE(indices.size(), kPerGroup);
    const auto group = indices.front() % 2;
    QVERIFY(std::all_of(indices.begin(), indices.end(), [group](std::int64_t i) { return i % 2 == group; }));
    QCOMPARE(m_widget->selectedBlock(), std::make_optional(std::make_pair(std::size_t{0}, std::size_t{39})));
}

void VatWidgetTest::toggleRendersVatDistances() {
    VatDisplay display = m_widget->display();
    display.kind = VatImageKind::Vat;
    display.mode = VatPixelMode::BlockMean;
    m_widget->setDisplay(display);
    QVERIFY(settle());
    QCOMPARE(m_widget->shownViewport().kind, VatImageKind::Vat);
    QCOMPARE(m_widget->shownViewport().mode, VatPixelMode::BlockMean);
    QVERIFY(m_widget->shownImage()->pixels == engineImage(m_widget->shownViewport()));
    display.kind = VatImageKind::Ivat;
    m_widget->setDisplay(display);
    QVERIFY(settle());
    // iVAT pixels do not depend on the pixel mode.
    QCOMPARE(m_widget->shownViewport().mode, VatPixelMode::Representative);
}

void VatWidgetTest::cutBoxesAreDrawnInTheLabelColours() {
    m_widget->setCutBoundaries(largestCutPositions(*m_run->vat, 2));
    QCOMPARE(m_widget->cutBoundaries(), (std::vector<std::size_t>{kPerGroup}));
    QVERIFY(settle());
    const QImage frame = m_widget->grabFramebuffer();
    const QRect plot = m_widget->plotRect().toAlignedRect();
    int first = 0, second = 0;
    for (int y = plot.top(); y <= plot.bottom(); ++y)
        for (int x = plot.left(); x <= plot.right(); ++x) {
            const QRgb c = frame.pixel(x, y) | 0xff000000u;
            first += c == Palette::labelColor(0).rgba() ? 1 : 0;
            second += c == Palette::labelColor(1).rgba() ? 1 : 0;
        }
    // Each box outline runs along the block's four sides.
    QVERIFY2(first > plot.width() / 2 && second > plot.width() / 2,
             qPrintable(QStringLiteral("%1 %2").arg(first).arg(second)));
}

void VatWidgetTest::hostPathIsNamedWithTheGlRenderer() {
    QVERIFY(!m_widget->usesInterop());
    QVERIFY2(m_widget->renderPath().contains(QStringLiteral("host memory")), qPrintable(m_widget->renderPath()));
    QVERIFY2(m_widget->renderPath().contains(m_widget->glRenderer()), qPrintable(m_widget->renderPath()));
}

CLUSTERLENS_GUI_TEST_MAIN(VatWidgetTest)
#include "vat_widget_test.moc"
