// Colouring by a marker's expression (scatter and its figure), the click-by-click polygon gate, and
// colour strips under the dendrogram's leaves and along the VAT image, checked on the pixels drawn.

#include <QFile>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <random>

#include "colour_strips.hpp"
#include "dendrogram/dendrogram_figure.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dendrogram_test_trees.hpp"
#include "figure/figure.hpp"
#include "gui_test_main.hpp"
#include "marker_scale.hpp"
#include "palette.hpp"
#include "scatter/scatter_data.hpp"
#include "scatter/scatter_figure.hpp"
#include "scatter/scatter_widget.hpp"
#include "vat/vat_figure.hpp"
#include "vat/vat_run.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr int kSide = 10;

/// kSide x kSide points on a grid (features x, y) and a marker CD3 whose value at row r is r, as if
/// read with arcsinh/5: the 1st percentile is 1 and the 99th is 98 (nearest rank over 0..99).
std::shared_ptr<const Dataset> markerGrid() {
    auto d = std::make_shared<Dataset>();
    d->n = kSide * kSide;
    d->d = 3;
    d->features = {"x", "y", "CD3"};
    d->provenance.steps = {"asinh(cofactor=5)"};
    for (int r = 0; r < kSide * kSide; ++r) {
        d->values.push_back(static_cast<float>(r % kSide));
        d->values.push_back(static_cast<float>(r / kSide));
        d->values.push_back(static_cast<float>(r));
    }
    return d;
}

/// Shows the marker grid in `w` (600 x 500) coloured by `mode` (the marker CD3 in marker mode).
bool showGrid(ScatterWidget& w, ColourMode mode) {
    w.resize(600, 500);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) return false;
    w.setData(std::make_shared<const ScatterData>(prepareScatter({markerGrid(), {}, mode, nullptr, nullptr, 2})));
    return true;
}

int channelDistance(QColor a, QColor b) {
    return std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()), std::abs(a.blue() - b.blue())});
}

/// `colour` drawn with `alpha` over white.
QColor overWhite(QColor colour, double alpha) {
    const auto mix = [alpha](int c) { return static_cast<int>(std::lround(alpha * c + (1 - alpha) * 255)); };
    return QColor(mix(colour.red()), mix(colour.green()), mix(colour.blue()));
}

/// True when `pixel` is `colour` drawn over white with some opacity between 0.6 and 1 (the
/// scatter's point alpha and the stacking of its layers decide which).
bool isOverWhite(QColor pixel, QColor colour) {
    for (int percent = 60; percent <= 100; ++percent)
        if (channelDistance(pixel, overWhite(colour, percent / 100.0)) <= 16) return true;
    return false;
}

void sendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
    QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &event);
}

void click(QWidget* w, QPointF pos) {
    sendMouse(w, QEvent::MouseButtonPress, pos, Qt::LeftButton, Qt::LeftButton);
    sendMouse(w, QEvent::MouseButtonRelease, pos, Qt::LeftButton, Qt::NoButton);
}

void doubleClick(QWidget* w, QPointF pos) {
    click(w, pos);
    sendMouse(w, QEvent::MouseButtonDblClick, pos, Qt::LeftButton, Qt::LeftButton);
    sendMouse(w, QEvent::MouseButtonRelease, pos, Qt::LeftButton, Qt::NoButton);
}

void pressKey(QWidget* w, int key) {
    QKeyEvent press(QEvent::KeyPress, key, Qt::NoModifier);
    QApplication::sendEvent(w, &press);
}

/// Even-odd point in polygon, written apart from the widget's so the two can disagree.
bool insidePolygon(const QPolygonF& polygon, QPointF p) {
    bool inside = false;
    for (qsizetype i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
        const QPointF a = polygon[i], b = polygon[j];
        if ((a.y() > p.y()) != (b.y() > p.y()) && p.x() < (b.x() - a.x()) * (p.y() - a.y()) / (b.y() - a.y()) + a.x())
            inside = !inside;
    }
    return inside;
}

/// The colours along row `y`, runs of at least `minRun` equal pixels, equal neighbours merged.
std::vector<QRgb> rowRuns(const QImage& image, int y, int minRun) {
    std::vector<QRgb> runs;
    int x = 0;
    while (x < image.width()) {
        const QRgb c = image.pixel(x, y) | 0xff000000u;
        int end = x + 1;
        while (end < image.width() && (image.pixel(end, y) | 0xff000000u) == c) ++end;
        if (end - x >= minRun && c != 0xffffffffu && (runs.empty() || runs.back() != c)) runs.push_back(c);
        x = end;
    }
    return runs;
}

/// Colours of `strip` in rank order, equal neighbours merged.
std::vector<QRgb> expectedRuns(const ColourStrip& strip, const std::vector<std::size_t>& idsInOrder) {
    std::vector<QRgb> runs;
    for (std::size_t id : idsInOrder) {
        const QRgb c = strip.colours[id] | 0xff000000u;
        if (runs.empty() || runs.back() != c) runs.push_back(c);
    }
    return runs;
}

/// First row (from `from` down) whose runs contain `expected` contiguously; -1 when none does.
int findStripRow(const QImage& image, const std::vector<QRgb>& expected, int from = 0) {
    for (int y = std::max(0, from); y < image.height(); ++y) {
        const std::vector<QRgb> runs = rowRuns(image, y, 3);
        if (std::search(runs.begin(), runs.end(), expected.begin(), expected.end()) != runs.end()) return y;
    }
    return -1;
}

std::vector<std::int32_t> moduloLabels(std::size_t n, int k) {
    std::vector<std::int32_t> labels(n);
    for (std::size_t i = 0; i < n; ++i)
        labels[i] = static_cast<std::int32_t>((i * 7 / 3) % static_cast<std::size_t>(k));
    return labels;
}

}  // namespace

class ColourByTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void markerScaleIsTheRobustRangeAndTitleNamesTheTransform();
    void markerColouringMapsLowAndHighExpressionToTheColourBarEnds();
    void scatterFigureDrawsTheMarkerColourBar();
    void polygonGateByClicksSelectsExactlyThePointsInside();
    void polygonGateClosesWithEnterAndEscapeCancels();
    void dendrogramWidgetDrawsStripsUnderTheLeavesInLeafOrder();
    void dendrogramFigureDrawsStripsUnderTheLeaves();
    void vatFigureDrawsStripsAlongTheImageInVatOrder();
};

void ColourByTest::markerScaleIsTheRobustRangeAndTitleNamesTheTransform() {
    const auto d = markerGrid();
    const MarkerScale scale = markerScale(*d, 2);
    QCOMPARE(scale.low, 1.0);
    QCOMPARE(scale.high, 98.0);
    QCOMPARE(scale.title, QStringLiteral("CD3 (arcsinh/5)"));
    QCOMPARE(scale.normalised(0.0), 0.0);
    QCOMPARE(scale.normalised(99.0), 1.0);
    QCOMPARE(scale.normalised(49.5), 0.5);
    QCOMPARE(markerColumn(*d, QStringLiteral("CD3")), std::ptrdiff_t{2});
    QCOMPARE(markerColumn(*d, QStringLiteral("CD4")), std::ptrdiff_t{-1});

    const ScatterData s = prepareScatter({d, {}, ColourMode::Marker, nullptr, nullptr, 2});
    QCOMPARE(s.mode, ColourMode::Marker);
    QCOMPARE(s.markerTitle, QStringLiteral("CD3 (arcsinh/5)"));
    // Highest expression drawn last, so positive events stay on top.
    QVERIFY(std::is_sorted(s.values.begin(), s.values.end()));
    QCOMPARE(s.values.back(), 1.0f);
    // No marker: density, as before.
    QCOMPARE(prepareScatter({d, {}, ColourMode::Marker, nullptr, nullptr, -1}).mode, ColourMode::Density);
}

void ColourByTest::markerColouringMapsLowAndHighExpressionToTheColourBarEnds() {
    ScatterWidget w;
    QSignalSpy drawn(&w, &ScatterWidget::dataDrawn);
    QVERIFY(showGrid(w, ColourMode::Marker));
    QTRY_VERIFY(drawn.count() > 0);
    QTRY_VERIFY(w.isSettled());
    QVERIFY2(w.glError().isEmpty(), qPrintable(w.glError()));
    const QImage image = w.grabFramebuffer();
    image.save(QStringLiteral("colour_by_marker_scatter.png"));
    const double dpr = image.devicePixelRatio();
    const auto at = [&](QPointF p) { return image.pixelColor(QPoint(qRound(p.x() * dpr), qRound(p.y() * dpr))); };

    const QColor low = Palette::colormap(0.0), high = Palette::colormap(1.0);
    // Rows 0 (value 0, below the 1st percentile) and 99 (above the 99th), drawn with the scatter's
    // alpha over the white background.
    const QColor lowPoint = at(w.mapFromData(0, 0)), highPoint = at(w.mapFromData(kSide - 1, kSide - 1));
    QVERIFY2(isOverWhite(lowPoint, low), qPrintable(lowPoint.name()));
    QVERIFY2(isOverWhite(highPoint, high), qPrintable(highPoint.name()));
    // A point in the middle of the range is neither end.
    const QColor middle = at(w.mapFromData(0, kSide / 2));
    QVERIFY(!isOverWhite(middle, low) && !isOverWhite(middle, high));

    // The colour bar's ends are the same colours, unblended.
    const QRectF bar = w.colourBarRect();
    QVERIFY(!bar.isEmpty());
    const QColor barLow = at(QPointF(bar.left() + 1, bar.center().y()));
    const QColor barHigh = at(QPointF(bar.right() - 1, bar.center().y()));
    QVERIFY2(channelDistance(barLow, low) <= 12, qPrintable(barLow.name()));
    QVERIFY2(channelDistance(barHigh, high) <= 12, qPrintable(barHigh.name()));
}

void ColourByTest::scatterFigureDrawsTheMarkerColourBar() {
    const auto d = markerGrid();
    auto data = std::make_shared<const ScatterData>(prepareScatter({d, {}, ColourMode::Marker, nullptr, nullptr, 2}));
    ScatterFigure figure(data, {});
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("marker.svg"));
    exportFigure(figure, svg);
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY(text.contains(QStringLiteral("CD3 (arcsinh/5)")));

    const QImage image = renderFigureImage(figure, FigureExportOptions(QSizeF(720, 600)));
    image.save(QStringLiteral("colour_by_marker_figure.png"));
    const QRectF plot = figure.plotRect(QRectF(QPointF(0, 0), QSizeF(image.size()) / image.devicePixelRatio()));
    // The bar lies outside the plot and runs from the low end's colour to the high end's.
    int lowPixels = 0, highPixels = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            if (plot.contains(x, y)) continue;
            const QColor c = image.pixelColor(x, y);
            lowPixels += channelDistance(c, Palette::colormap(0.0)) <= 6;
            highPixels += channelDistance(c, Palette::colormap(1.0)) <= 6;
        }
    QVERIFY2(lowPixels >= 4 && highPixels >= 4, qPrintable(QStringLiteral("%1 %2").arg(lowPixels).arg(highPixels)));
}

void ColourByTest::polygonGateByClicksSelectsExactlyThePointsInside() {
    ScatterWidget w;
    QVERIFY(showGrid(w, ColourMode::Density));
    QSignalSpy selected(&w, &ScatterWidget::selectionChanged);
    QSignalSpy active(&w, &ScatterWidget::polygonGateActive);

    // A concave pentagon over the grid, placed click by click after the G key.
    const QPolygonF polygon({w.mapFromData(0.5, 0.5), w.mapFromData(8.5, 1.5), w.mapFromData(4.5, 4.2),
                             w.mapFromData(8.2, 8.7), w.mapFromData(1.2, 7.4)});
    pressKey(&w, Qt::Key_G);
    QVERIFY(w.isDrawingPolygonGate());
    for (qsizetype i = 0; i + 1 < polygon.size(); ++i) click(&w, polygon[i]);
    QCOMPARE(w.polygonGateVertices().size(), polygon.size() - 1);
    QVERIFY(selected.isEmpty());
    doubleClick(&w, polygon.back());
    QVERIFY(!w.isDrawingPolygonGate());
    QCOMPARE(active.count(), 2);

    QList<qsizetype> expected;
    for (qsizetype r = 0; r < kSide * kSide; ++r)
        if (insidePolygon(polygon, w.mapFromData(static_cast<double>(r % kSide), static_cast<double>(r / kSide))))
            expected << r;
    QVERIFY(expected.size() > 10 && expected.size() < 80);
    QCOMPARE(w.selection(), expected);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.first().first().value<QList<qsizetype>>(), expected);
}

void ColourByTest::polygonGateClosesWithEnterAndEscapeCancels() {
    ScatterWidget w;
    QVERIFY(showGrid(w, ColourMode::Density));
    QSignalSpy selected(&w, &ScatterWidget::selectionChanged);

    w.beginPolygonGate();
    click(&w, w.mapFromData(-0.5, -0.5));
    click(&w, w.mapFromData(2.5, -0.5));
    pressKey(&w, Qt::Key_Escape);
    QVERIFY(!w.isDrawingPolygonGate());
    QVERIFY(selected.isEmpty());
    QVERIFY(w.selection().isEmpty());

    // A triangle closed with Enter: rows 0, 1, 2 and 10, 11 and 20 lie inside.
    w.beginPolygonGate();
    for (QPointF p : {QPointF(-0.5, -0.5), QPointF(3.2, -0.5), QPointF(-0.5, 3.2)})
        click(&w, w.mapFromData(p.x(), p.y()));
    pressKey(&w, Qt::Key_Return);
    QVERIFY(!w.isDrawingPolygonGate());
    QCOMPARE(w.selection(), (QList<qsizetype>{0, 1, 2, 10, 11, 20}));
    QCOMPARE(selected.count(), 1);
}

void ColourByTest::dendrogramWidgetDrawsStripsUnderTheLeavesInLeafOrder() {
    auto layout = std::make_shared<const DendrogramLayout>(buildDendrogramLayout(test::fourGroups()));
    const std::vector<std::int32_t> labels = moduloLabels(layout->leafCount, 3);
    auto strips = std::make_shared<ColourStrips>();
    strips->push_back(labelingStrip(QStringLiteral("class"), labels, nullptr));
    DendrogramWidget w;
    w.resize(800, 500);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setTree(layout);
    w.setStrips(strips);
    QSignalSpy drawn(&w, &DendrogramWidget::contentDrawn);
    w.update();
    QTRY_VERIFY(drawn.count() > 0);
    const QImage image = w.grabFramebuffer();
    image.save(QStringLiteral("colour_strips_dendrogram_widget.png"));
    const QRectF band = w.stripsRect(), plot = w.plotRect();
    QVERIFY(!band.isEmpty());
    QVERIFY(band.top() >= plot.bottom());
    const double dpr = image.devicePixelRatio();
    const double y = band.top() + colourStripHeight(w.font()) / 2;
    for (std::size_t r = 0; r < layout->leafCount; ++r) {
        const double x = w.view().toPixel(static_cast<double>(r) + 0.5, 0.0, plot).x();
        const QColor shown = image.pixelColor(QPoint(qRound(x * dpr), qRound(y * dpr)));
        const QColor wanted = Palette::labelColor(labels[static_cast<std::size_t>(layout->order[r])]);
        QVERIFY2(channelDistance(shown, wanted) <= 3,
                 qPrintable(QStringLiteral("rank %1: %2 instead of %3").arg(r).arg(shown.name(), wanted.name())));
    }
}

void ColourByTest::dendrogramFigureDrawsStripsUnderTheLeaves() {
    auto layout = std::make_shared<const DendrogramLayout>(buildDendrogramLayout(test::fourGroups()));
    auto marker = std::make_shared<Dataset>();
    marker->n = layout->leafCount;
    marker->d = 1;
    marker->features = {"CD8"};
    for (std::size_t i = 0; i < marker->n; ++i) marker->values.push_back(static_cast<float>((i * 5) % 11));
    auto strips = std::make_shared<ColourStrips>();
    strips->push_back(labelingStrip(QStringLiteral("class"), moduloLabels(layout->leafCount, 3), nullptr));
    strips->push_back(markerStrip(*marker, 0));
    DendrogramFigureOptions options;
    options.title = QStringLiteral("four groups");
    options.strips = strips;
    DendrogramFigure figure(layout, options);

    const QImage image = renderFigureImage(figure, FigureExportOptions(QSizeF(900, 560)));
    image.save(QStringLiteral("colour_strips_dendrogram_figure.png"));
    std::vector<std::size_t> ids;
    for (std::int32_t leaf : layout->order) ids.push_back(static_cast<std::size_t>(leaf));
    const int labelRow = findStripRow(image, expectedRuns((*strips)[0], ids));
    QVERIFY(labelRow > image.height() / 2);
    const int markerRow = findStripRow(image, expectedRuns((*strips)[1], ids), labelRow);
    QVERIFY2(markerRow > labelRow, qPrintable(QString::number(markerRow)));
    // The tree's links lie above the strips.
    bool linkAbove = false;
    for (int y = 0; y < labelRow && !linkAbove; ++y)
        for (int x = 0; x < image.width() && !linkAbove; ++x)
            linkAbove = channelDistance(image.pixelColor(x, y), Palette::linkColor()) <= 8;
    QVERIFY(linkAbove);

    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("strips.svg"));
    exportFigure(figure, svg);
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY(text.contains(QStringLiteral(">class<")));
    QVERIFY(text.contains(QStringLiteral(">CD8<")));
    QVERIFY(text.count(QStringLiteral("<image")) >= 2);
}

void ColourByTest::vatFigureDrawsStripsAlongTheImageInVatOrder() {
    auto data = std::make_shared<Dataset>();
    data->n = 40;
    data->d = 2;
    data->features = {"x", "y"};
    std::mt19937 random(29);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (std::size_t i = 0; i < data->n; ++i) {
        data->values.push_back(20.0f * static_cast<float>(i % 2) + normal(random));
        data->values.push_back(normal(random));
    }
    VatRequest request;
    request.dataset = data;
    request.columns = {0, 1};
    request.backend = Backend::Cpu;
    JobControl control;
    auto run = std::make_shared<const VatRun>(computeVatRun(request, control));

    auto strips = std::make_shared<ColourStrips>();
    strips->push_back(labelingStrip(QStringLiteral("parity"), moduloLabels(data->n, 4), nullptr));
    VatFigureOptions options;
    options.title = QStringLiteral("VAT");
    options.strips = strips;
    options.order = std::shared_ptr<const std::vector<std::int64_t>>(run->vat, &run->vat->order);
    VatFigure figure(run->renderer, options);
    const QImage image = renderFigureImage(figure, FigureExportOptions(QSizeF(760, 680)));
    image.save(QStringLiteral("colour_strips_vat_figure.png"));
    std::vector<std::size_t> ids;
    for (std::int64_t point : run->vat->order) ids.push_back(static_cast<std::size_t>(point));
    const QRectF plot = figure.plotRect(QRectF(QPointF(0, 0), QSizeF(image.size())));
    const int row = findStripRow(image, expectedRuns((*strips)[0], ids), static_cast<int>(plot.bottom()));
    QVERIFY2(row > plot.bottom() && row < plot.bottom() + 20, qPrintable(QString::number(row)));
    // Along the right edge the same colours, top to bottom.
    QImage turned(image.height(), image.width(), QImage::Format_ARGB32);
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) turned.setPixel(y, x, image.pixel(x, y));
    const int column = findStripRow(turned, expectedRuns((*strips)[0], ids), static_cast<int>(plot.right()));
    QVERIFY2(column > plot.right() && column < plot.right() + 20, qPrintable(QString::number(column)));
}

CLUSTERLENS_GUI_TEST_MAIN(ColourByTest)
#include "colour_by_test.moc"
