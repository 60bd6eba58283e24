// The point-height comparison view: heights and correlations of two known linkages, points drawn
// on and off the diagonal, rubber-band selection reaching the analysis session and a selection
// from elsewhere highlighted here, the most discordant points selected everywhere, linkage import,
// and the figure exports (SVG, PDF, PNG).

#include <QFile>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolButton>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>

#include "analysis_session.hpp"
#include "clusterlens/compare/correlation.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "compare/heights_figure.hpp"
#include "compare/heights_view.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
#include "palette.hpp"
#include "scatter/scatter_widget.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr int kTimeoutMs = 20'000;

Linkage makeLinkage(std::size_t leaves, std::vector<Merge> merges) {
    Linkage linkage;
    linkage.leafCount = leaves;
    linkage.merges = std::move(merges);
    return linkage;
}

// Six leaves, ((0,1) (2,3)) and (4,5) under the root. In A leaf heights are 10,10,11,11,8,8; B
// raises the merge of (2,3) from 2 to 6, so leaves 2 and 3 move off the diagonal to (11, 15).
std::shared_ptr<const Linkage> linkageA() {
    return std::make_shared<const Linkage>(makeLinkage(
        6, {Merge{0, 1, 1, 2}, Merge{2, 3, 2, 2}, Merge{4, 5, 3, 2}, Merge{6, 7, 4, 4}, Merge{8, 9, 5, 6}}));
}
std::shared_ptr<const Linkage> linkageB() {
    return std::make_shared<const Linkage>(makeLinkage(
        6, {Merge{0, 1, 1, 2}, Merge{4, 5, 3, 2}, Merge{2, 3, 6, 2}, Merge{6, 8, 4, 4}, Merge{7, 9, 5, 6}}));
}

// As A, but (4,5) merges at 9, above the (0,1)-(2,3) cluster's merge at 4: leaves 4 and 5 rise from the
// lowest heights (8) to the highest (14), 0..3 keep theirs (10, 11) and so drop two ranks each.
std::shared_ptr<const Linkage> linkageC() {
    return std::make_shared<const Linkage>(makeLinkage(
        6, {Merge{0, 1, 1, 2}, Merge{2, 3, 2, 2}, Merge{4, 5, 9, 2}, Merge{6, 7, 4, 4}, Merge{8, 9, 5, 6}}));
}

bool isPointColour(QRgb p) {
    const int hi = std::max({qRed(p), qGreen(p), qBlue(p)}), lo = std::min({qRed(p), qGreen(p), qBlue(p)});
    const bool diagonalRed = qRed(p) > 150 && qGreen(p) < 120 && qBlue(p) < 120;
    return hi - lo > 40 && !diagonalRed;
}

bool isDiagonalColour(QRgb p) {
    return qRed(p) > 150 && qGreen(p) < 140 && qBlue(p) < 140;
}

/// Pixels of point colour within `radius` of `centre`.
int pointPixelsNear(const QImage& image, QPointF centre, int radius) {
    int found = 0;
    for (int dy = -radius; dy <= radius; ++dy)
        for (int dx = -radius; dx <= radius; ++dx) {
            const QPoint p = centre.toPoint() + QPoint(dx, dy);
            if (image.rect().contains(p) && isPointColour(image.pixel(p))) ++found;
        }
    return found;
}

void sendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
    QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &event);
}

/// A session with the two known linkages and a view comparing them.
struct Fixture {
    JobRunner runner;
    AnalysisSession session;
    HeightsView view{&runner, &session};

    bool start() {
        view.resize(700, 600);
        view.show();
        if (!QTest::qWaitForWindowExposed(&view)) return false;
        session.addLinkage(QStringLiteral("A"), linkageA(), QStringLiteral("hand-built A"));
        session.addLinkage(QStringLiteral("B"), linkageB(), QStringLiteral("hand-built B"));
        view.setEqualAxes(true);  // both axes 8..15: the diagonal runs corner to corner
        // Each step supersedes the job of the one before; wait for the last one's plot. A job
        // that finishes quickly may even report before start() returns, so no signal is awaited.
        return QTest::qWaitFor(
            [this] {
                const auto c = view.comparison();
                const auto d = view.scatter()->data();
                return c && c->nameB == "B" && d && d->xMin == d->yMin && d->xMax == d->yMax;
            },
            kTimeoutMs);
    }
};

QString readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll()) : QString();
}

}  // namespace

class CompareHeightsViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void comparisonHasTheHeightsAndCorrelations();
    void drawsPointsOnAndOffTheDiagonal();
    void rubberBandSelectsInTheSession();
    void selectionFromElsewhereIsHighlighted();
    void mostDiscordantPointsAreSelectedEverywhere();
    void colourByRankDifferenceReachesTheScatterTheFigureAndItsCommand();
    void importedLinkageJoinsTheSession();
    void importOfAnotherSizeIsRefused();
    void exportsParseAsSvgPdfAndPng();
    void largeComparisonsExportADensityImage();
};

void CompareHeightsViewTest::comparisonHasTheHeightsAndCorrelations() {
    Fixture f;
    QVERIFY(f.start());
    const auto comparison = f.view.comparison();
    QVERIFY(comparison);
    QCOMPARE(comparison->heightsA, (std::vector<double>{10, 10, 11, 11, 8, 8}));
    QCOMPARE(comparison->heightsB, (std::vector<double>{10, 10, 15, 15, 8, 8}));
    const double pearson = pearsonCorrelation(comparison->heightsA, comparison->heightsB);
    const double spearman = spearmanCorrelation(comparison->heightsA, comparison->heightsB);
    QCOMPARE(comparison->pearson, pearson);
    QCOMPARE(comparison->spearman, spearman);
    QCOMPARE(spearman, 1.0);  // the order of the heights is the same in both
    const QString shown = f.view.statsText();
    QVERIFY2(shown.contains(QStringLiteral("Pearson r = %1").arg(pearson, 0, 'f', 3)), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("Spearman \u03c1 = 1.000")), qPrintable(shown));
    QVERIFY(shown.contains(QStringLiteral("N = 6")));
    // The label on screen shows the same text.
    bool onScreen = false;
    for (const QLabel* label : f.view.findChildren<QLabel*>()) onScreen = onScreen || label->text() == shown;
    QVERIFY(onScreen);
}

void CompareHeightsViewTest::drawsPointsOnAndOffTheDiagonal() {
    Fixture f;
    QVERIFY(f.start());
    ScatterWidget* scatter = f.view.scatter();
    QTRY_VERIFY_WITH_TIMEOUT(scatter->isSettled(), kTimeoutMs);
    const QImage image = scatter->grabFramebuffer();
    // The three distinct points: (10,10) and (8,8) on the diagonal, (11,15) above it.
    for (const QPointF& h : {QPointF(10, 10), QPointF(8, 8), QPointF(11, 15)}) {
        const QPointF pixel = scatter->mapFromData(h.x(), h.y());
        QVERIFY2(pointPixelsNear(image, pixel, 3) >= 4,
                 qPrintable(QStringLiteral("no point at (%1, %2)").arg(h.x()).arg(h.y())));
    }
    // Where the heights were equal for (11, 15) there is nothing but the diagonal and background.
    QCOMPARE(pointPixelsNear(image, scatter->mapFromData(11, 11), 4), 0);
    QCOMPARE(pointPixelsNear(image, scatter->mapFromData(15, 11), 4), 0);
    // The diagonal y = x runs through (12, 12) .. (14, 14), between the points.
    int diagonal = 0;
    for (double t = 12.0; t <= 14.0; t += 0.05) {
        const QPoint p = scatter->mapFromData(t, t).toPoint();
        for (int d = -1; d <= 1; ++d) diagonal += isDiagonalColour(image.pixel(p + QPoint(d, 0))) ? 1 : 0;
    }
    QVERIFY2(diagonal > 10, qPrintable(QString::number(diagonal)));
    // Without the diagonal the same place is background.
    scatter->setDiagonalVisible(false);
    const QImage plain = scatter->grabFramebuffer();
    const QRgb mid = plain.pixel(scatter->mapFromData(13.5, 13.5).toPoint());  // between grid lines
    QVERIFY2(qRed(mid) > 245 && qGreen(mid) > 245 && qBlue(mid) > 245, qPrintable(QColor(mid).name()));
}

void CompareHeightsViewTest::rubberBandSelectsInTheSession() {
    Fixture f;
    QVERIFY(f.start());
    QSignalSpy changed(&f.session, &AnalysisSession::selectionChanged);
    ScatterWidget* scatter = f.view.scatter();
    const QPointF from = scatter->mapFromData(10.5, 15.1), to = scatter->mapFromData(11.5, 14.5);
    sendMouse(scatter, QEvent::MouseButtonPress, from, Qt::RightButton, Qt::RightButton);
    sendMouse(scatter, QEvent::MouseMove, to, Qt::NoButton, Qt::RightButton);
    sendMouse(scatter, QEvent::MouseButtonRelease, to, Qt::RightButton, Qt::NoButton);
    QCOMPARE(*f.session.selection(), (IndexVector{2, 3}));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).value<const QObject*>(), static_cast<const QObject*>(&f.view));
}

void CompareHeightsViewTest::selectionFromElsewhereIsHighlighted() {
    Fixture f;
    QVERIFY(f.start());
    QSignalSpy changed(&f.session, &AnalysisSession::selectionChanged);
    QObject otherView;
    f.session.setSelection(std::make_shared<const IndexVector>(IndexVector{0, 4}), &otherView);
    QCOMPARE(f.view.scatter()->selection(), (QList<qsizetype>{0, 4}));
    QCOMPARE(changed.count(), 1);  // no echo back into the session
    f.session.setSelection(nullptr, &otherView);
    QVERIFY(f.view.scatter()->selection().isEmpty());
}

void CompareHeightsViewTest::mostDiscordantPointsAreSelectedEverywhere() {
    Fixture f;
    QVERIFY(f.start());
    QToolButton* select = nullptr;
    for (QToolButton* b : f.view.findChildren<QToolButton*>())
        if (b->text() == QStringLiteral("Select most discordant:")) select = b;
    QVERIFY(select);
    // A and B order every point alike (Spearman 1): nothing to select.
    QCOMPARE(f.view.comparison()->rankDifference, std::vector<double>(6, 0.0));
    QVERIFY(!select->isEnabled());
    QVERIFY2(f.view.statsText().contains(QStringLiteral("0 placed differently")), qPrintable(f.view.statsText()));

    f.session.addLinkage(QStringLiteral("C"), linkageC(), QStringLiteral("hand-built C"));
    f.view.setLinkages(QStringLiteral("A"), QStringLiteral("C"));
    QTRY_VERIFY_WITH_TIMEOUT(f.view.comparison() && f.view.comparison()->nameB == "C", kTimeoutMs);
    QCOMPARE(f.view.comparison()->rankDifference, (std::vector<double>{2, 2, 2, 2, -4, -4}));
    QVERIFY2(f.view.statsText().contains(QStringLiteral("6 placed differently")), qPrintable(f.view.statsText()));
    QTRY_VERIFY(select->isEnabled());
    auto* count = f.view.findChild<QSpinBox*>();
    QVERIFY(count);
    QCOMPARE(count->maximum(), 6);
    count->setValue(2);
    QSignalSpy changed(&f.session, &AnalysisSession::selectionChanged);
    select->click();
    QCOMPARE(*f.session.selection(), (IndexVector{4, 5}));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(f.view.scatter()->selection(), (QList<qsizetype>{4, 5}));
    f.view.selectMostDiscordant(100);
    QCOMPARE(*f.session.selection(), (IndexVector{0, 1, 2, 3, 4, 5}));
}

void CompareHeightsViewTest::colourByRankDifferenceReachesTheScatterTheFigureAndItsCommand() {
    Fixture f;
    QVERIFY(f.start());
    f.session.addLinkage(QStringLiteral("C"), linkageC(), QStringLiteral("hand-built C"));
    f.view.setLinkages(QStringLiteral("A"), QStringLiteral("C"));
    QTRY_VERIFY_WITH_TIMEOUT(f.view.comparison() && f.view.comparison()->nameB == "C", kTimeoutMs);
    QVERIFY(!f.view.figureExportSource().command.contains(QStringLiteral("--colour")));
    f.view.setColour(HeightsColour::RankDifference);
    QTRY_VERIFY_WITH_TIMEOUT(f.view.scatter()->data() && f.view.scatter()->data()->mode == ColourMode::Marker,
                             kTimeoutMs);
    const auto data = f.view.scatter()->data();
    QCOMPARE(data->markerTitle, QStringLiteral("|rank in A \u2212 rank in B|"));
    // |differences| 2, 2, 2, 2, 4, 4: the two raised leaves are the most discordant, drawn last.
    QCOMPARE(data->markerLow, 2.0);
    QCOMPARE(data->markerHigh, 4.0);
    QCOMPARE(data->values.back(), 1.0f);
    QVERIFY(data->indices.back() == 4 || data->indices.back() == 5);
    const QStringList command = f.view.figureExportSource().command;
    QVERIFY2(command.join(QLatin1Char(' ')).endsWith(QStringLiteral("--colour rank-difference")),
             qPrintable(command.join(QLatin1Char(' '))));
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("d.svg"));
    f.view.exportFigure(svg);
    const QString text = readAll(svg);
    QVERIFY2(text.contains(QStringLiteral("rank in A")) && !text.contains(QStringLiteral("point density")),
             qPrintable(text.left(400)));
    // The figure draws the same colours: the two raised leaves share the brightest one.
    const HeightsFigure figure(f.view.comparison(), false, HeightsColour::RankDifference);
    QImage image(500, 420, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    figure.paint(painter, image.rect());
    painter.end();
    const QRectF plot = figure.plotRect(image.rect());
    // Points are drawn with alpha 210 over white, and the kept ones lie on the dashed diagonal: colours are
    // compared within a few levels, anywhere on the point's disc.
    const auto onDisc = [&](QPointF centre, const QColor& colour) {
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx) {
                const QRgb p = image.pixel(centre.toPoint() + QPoint(dx, dy));
                if (std::abs(qRed(p) - colour.red()) <= 12 && std::abs(qGreen(p) - colour.green()) <= 12 &&
                    std::abs(qBlue(p) - colour.blue()) <= 12)
                    return true;
            }
        return false;
    };
    const QPointF raised = figure.mapToPlot(8, 14, plot), kept = figure.mapToPlot(10, 10, plot);
    QVERIFY(onDisc(raised, Palette::colormap(1.0)));
    QVERIFY(!onDisc(raised, Palette::colormap(0.0)));
    QVERIFY(onDisc(kept, Palette::colormap(0.0)));
    QVERIFY(!onDisc(kept, Palette::colormap(1.0)));
}

void CompareHeightsViewTest::importedLinkageJoinsTheSession() {
    Fixture f;
    QVERIFY(f.start());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("gpu.csv"));
    writeLinkageCsv(path.toStdString(), *linkageB());
    f.view.setDatasetSize(6);
    f.view.importLinkage(path);
    QTRY_COMPARE_WITH_TIMEOUT(f.view.comparison()->nameB, QStringLiteral("imported: gpu.csv"), kTimeoutMs);
    QVERIFY(f.session.linkageNames().contains(QStringLiteral("imported: gpu.csv")));
    QCOMPARE(f.view.linkageB(), QStringLiteral("imported: gpu.csv"));
    QCOMPARE(f.view.comparison()->heightsB, (std::vector<double>{10, 10, 15, 15, 8, 8}));
}

void CompareHeightsViewTest::importOfAnotherSizeIsRefused() {
    Fixture f;
    QVERIFY(f.start());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("other.csv"));
    writeLinkageCsv(path.toStdString(), makeLinkage(3, {Merge{0, 1, 1, 2}, Merge{2, 3, 2, 3}}));
    f.view.setDatasetSize(6);
    QSignalSpy failed(&f.view, &HeightsView::failed);
    f.view.importLinkage(path);
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() > 0, kTimeoutMs);
    const QString message = failed.at(0).at(0).toString();
    QVERIFY2(message.contains(QStringLiteral("other.csv")) && message.contains(QStringLiteral("3 points")),
             qPrintable(message));
    QCOMPARE(f.session.linkageNames(), (QStringList{QStringLiteral("A"), QStringLiteral("B")}));
}

void CompareHeightsViewTest::exportsParseAsSvgPdfAndPng() {
    Fixture f;
    QVERIFY(f.start());
    QTemporaryDir dir;
    FigureExportOptions options;
    options.size = QSize(500, 420);

    const QString svg = dir.filePath(QStringLiteral("h.svg"));
    f.view.exportFigure(svg, options);
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    int paths = 0, texts = 0, circles = 0;
    QStringList allText;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        if (xml.name() == QLatin1String("path")) ++paths;
        if (xml.name() == QLatin1String("circle")) ++circles;
        if (xml.name() == QLatin1String("text")) {
            ++texts;
            allText << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(paths >= 1);   // the diagonal
    QCOMPARE(circles, 6);  // one vector mark per point
    QVERIFY(texts >= 5);
    const QString joined = allText.join(QLatin1Char(' '));
    QVERIFY2(joined.contains(QStringLiteral("Pearson")) && joined.contains(QStringLiteral("Spearman")),
             qPrintable(joined));

    const QString pdf = dir.filePath(QStringLiteral("h.pdf"));
    f.view.exportFigure(pdf, options);
    const QString pdfText = readAll(pdf);
    QVERIFY(pdfText.startsWith(QStringLiteral("%PDF-")));
    const QRegularExpressionMatch box =
        QRegularExpression(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([\\d.]+)\\s+([\\d.]+)\\s*\\]"))
            .match(pdfText);
    QVERIFY(box.hasMatch());
    QCOMPARE(qRound(box.captured(1).toDouble()), 500);
    QCOMPARE(qRound(box.captured(2).toDouble()), 420);

    const QString png = dir.filePath(QStringLiteral("h.png"));
    options.dpi = 192;
    f.view.exportFigure(png, options);
    const QImage image(png);
    QCOMPARE(image.size(), QSize(500, 420));
}

void CompareHeightsViewTest::largeComparisonsExportADensityImage() {
    auto comparison = std::make_shared<HeightsComparison>();
    comparison->nameA = QStringLiteral("a");
    comparison->nameB = QStringLiteral("b");
    const std::size_t n = HeightsFigure::vectorPointLimit + 1;
    for (std::size_t i = 0; i < n; ++i) {
        comparison->heightsA.push_back(static_cast<double>(i % 1000));
        comparison->heightsB.push_back(static_cast<double>(i % 1000) + static_cast<double>(i % 7));
    }
    comparison->pearson = pearsonCorrelation(comparison->heightsA, comparison->heightsB);
    comparison->spearman = spearmanCorrelation(comparison->heightsA, comparison->heightsB);
    const HeightsFigure figure(comparison);
    QVERIFY(figure.drawsDensityImage());
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("big.svg"));
    exportFigure(figure, svg);
    const QString text = readAll(svg);
    QVERIFY(text.contains(QStringLiteral("<image")));
    QVERIFY(!text.contains(QStringLiteral("<circle")));
    QVERIFY(text.contains(QStringLiteral("<text")));
    QVERIFY(QFileInfo(svg).size() < 4'000'000);
}

CLUSTERLENS_GUI_TEST_MAIN(CompareHeightsViewTest)
#include "compare_heights_view_test.moc"
