// The flat comparison view: matching order of a known table, the matched-pairs model (checked by
// QAbstractItemModelTester), heatmap cells painted in their colours, a cell click selecting the
// shared points in the analysis session, the matching method switch, and the exports; a 20 x 400
// table's figure keeps the matched and the largest columns and sums the rest into "other", with
// column labels that never overlap.

#include <QAbstractItemModelTester>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "analysis_session.hpp"
#include "compare/contingency_figure.hpp"
#include "compare/contingency_heatmap.hpp"
#include "compare/flat_comparison.hpp"
#include "compare/flat_view.hpp"
#include "compare/matched_pairs_model.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr int kTimeoutMs = 20'000;

// Optimal matching (engine test Agreement.MatchingMaximisesF1AndReportsFMeasure): 0<->7, 1<->3,
// 2<->noise. Table (rows A 0,1,2; columns B 7,3,-1 in matching order): 3 0 0 / 1 2 0 / 0 1 1.
std::shared_ptr<const LabelVector> labelsA() {
    return std::make_shared<const LabelVector>(LabelVector{0, 0, 0, 1, 1, 1, 2, 2});
}
std::shared_ptr<const LabelVector> labelsB() {
    return std::make_shared<const LabelVector>(LabelVector{7, 7, 7, 7, 3, 3, 3, -1});
}

struct Fixture {
    JobRunner runner;
    AnalysisSession session;
    FlatComparisonView view{&runner, &session};

    bool start() {
        view.resize(720, 760);
        view.show();
        if (!QTest::qWaitForWindowExposed(&view)) return false;
        session.addLabeling(QStringLiteral("A truth"), labelsA());
        session.addLabeling(QStringLiteral("B kmeans"), labelsB());
        // Adding the first labeling starts an A-vs-A comparison that the second supersedes.
        return QTest::qWaitFor([this] { return view.comparison() && view.comparison()->nameB == "B kmeans"; },
                               kTimeoutMs);
    }
};

bool closeColour(QRgb p, const QColor& expected, int tolerance = 3) {
    return std::abs(qRed(p) - expected.red()) <= tolerance && std::abs(qGreen(p) - expected.green()) <= tolerance &&
           std::abs(qBlue(p) - expected.blue()) <= tolerance;
}

QString readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

}  // namespace

class CompareFlatViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchedPairsLieOnTheDiagonal();
    void pairsModelShowsTheMatchedPairs();
    void viewShowsScoresForTheChosenLabelings();
    void heatmapCellsHaveTheirColours();
    void cellClickSelectsTheSharedPoints();
    void tableClickSelectsTheMatchedPair();
    void greedyMatchingRecomputes();
    void exportsParseAsSvgPdfPngAndCsv();
    void manyColumnsSumTheSmallestIntoOther();
};

void CompareFlatViewTest::matchedPairsLieOnTheDiagonal() {
    const FlatComparison c =
        compareLabelings(labelsA(), labelsB(), QStringLiteral("a"), QStringLiteral("b"), MatchingMethod::Hungarian);
    QCOMPARE(c.matchedCount, std::size_t{3});
    QCOMPARE(c.labelOfRow(0), 0);
    QCOMPARE(c.labelOfRow(1), 1);
    QCOMPARE(c.labelOfRow(2), 2);
    QCOMPARE(c.labelOfCol(0), 7);
    QCOMPARE(c.labelOfCol(1), 3);
    QCOMPARE(c.labelOfCol(2), -1);
    const std::int64_t expected[3][3] = {{3, 0, 0}, {1, 2, 0}, {0, 1, 1}};
    for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t k = 0; k < 3; ++k) QCOMPARE(c.countAt(r, k), expected[r][k]);
    QCOMPARE(c.rowShareAt(1, 1), 2.0 / 3.0);
    QCOMPARE(pointsInBoth(*labelsA(), *labelsB(), 1, 7), (std::vector<std::int64_t>{3}));

    // A rectangular table: the unmatched row comes after the matched ones.
    const FlatComparison r =
        compareLabelings(labelsA(), std::make_shared<const LabelVector>(LabelVector{5, 5, 5, 5, 9, 9, 9, 9}),
                         QStringLiteral("a"), QStringLiteral("b"), MatchingMethod::Greedy);
    QCOMPARE(r.rows(), std::size_t{3});
    QCOMPARE(r.cols(), std::size_t{2});
    QCOMPARE(r.matchedCount, std::size_t{2});
    QCOMPARE(r.rowOrder.size(), std::size_t{3});
    QCOMPARE(r.labelOfRow(2), 1);  // cluster 1 splits 1:2 and loses to 0 (->5) and 2 (->9)
}

void CompareFlatViewTest::pairsModelShowsTheMatchedPairs() {
    MatchedPairsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setComparison(std::make_shared<const FlatComparison>(
        compareLabelings(labelsA(), labelsB(), QStringLiteral("a"), QStringLiteral("b"), MatchingMethod::Hungarian)));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(MatchedPairsModel::ColumnCount));
    const auto value = [&](int row, int column) {
        return model.data(model.index(row, column), MatchedPairsModel::ValueRole);
    };
    QCOMPARE(value(0, MatchedPairsModel::ClusterA).toInt(), 0);
    QCOMPARE(value(0, MatchedPairsModel::ClusterB).toInt(), 7);
    QCOMPARE(value(0, MatchedPairsModel::SizeA).toLongLong(), 3);
    QCOMPARE(value(0, MatchedPairsModel::SizeB).toLongLong(), 4);
    QCOMPARE(value(0, MatchedPairsModel::Shared).toLongLong(), 3);
    QCOMPARE(value(0, MatchedPairsModel::F1).toDouble(), 6.0 / 7.0);
    QCOMPARE(value(1, MatchedPairsModel::F1).toDouble(), 4.0 / 6.0);
    QCOMPARE(value(2, MatchedPairsModel::ClusterB).toInt(), -1);
    QCOMPARE(model.data(model.index(2, MatchedPairsModel::ClusterB)).toString(), QStringLiteral("noise"));
    QCOMPARE(model.data(model.index(0, MatchedPairsModel::F1)).toString(), QStringLiteral("0.857"));
    QCOMPARE(model.headerData(MatchedPairsModel::F1, Qt::Horizontal).toString(), QStringLiteral("F1"));
    QCOMPARE(model.toCsv(), QStringLiteral("cluster_a,cluster_b,size_a,size_b,shared,f1\n"
                                           "0,7,3,4,3,0.8571428571428571\n"
                                           "1,3,3,3,2,0.66666666666666663\n"
                                           "2,-1,2,1,1,0.66666666666666663\n"));
    model.setComparison(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void CompareFlatViewTest::viewShowsScoresForTheChosenLabelings() {
    Fixture f;
    QVERIFY(f.start());
    QCOMPARE(f.view.labelingA(), QStringLiteral("A truth"));
    QCOMPARE(f.view.labelingB(), QStringLiteral("B kmeans"));
    const auto c = f.view.comparison();
    QVERIFY(c);
    const QString line = f.view.scoresLine();
    QVERIFY2(line.contains(QStringLiteral("ARI %1").arg(c->ari, 0, 'f', 3)), qPrintable(line));
    QVERIFY(line.contains(QStringLiteral("NMI %1").arg(c->nmi, 0, 'f', 3)));
    QVERIFY(line.contains(QStringLiteral("F-measure %1").arg(c->matching.fMeasure, 0, 'f', 3)));
    QVERIFY(line.contains(QStringLiteral("Hungarian")));
    bool onScreen = false;
    for (const QLabel* label : f.view.findChildren<QLabel*>()) onScreen = onScreen || label->text() == line;
    QVERIFY(onScreen);
    QCOMPARE(f.view.pairsTable()->model()->rowCount(), 3);
}

void CompareFlatViewTest::heatmapCellsHaveTheirColours() {
    Fixture f;
    QVERIFY(f.start());
    ContingencyHeatmap* heatmap = f.view.heatmap();
    const QImage image = heatmap->grab().toImage();
    const auto c = f.view.comparison();
    for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k) {
            const QRectF cell = heatmap->cellRect(r, k);
            QVERIFY(cell.width() > 20 && cell.height() > 20);
            // Inside the cell, away from the outline at its edge and the count at its centre.
            const QPoint probe = (cell.topLeft() + QPointF(6, 6)).toPoint();
            const QColor expected = ContingencyFigure::cellColor(c->rowShareAt(r, k), c->countAt(r, k));
            QVERIFY2(closeColour(image.pixel(probe), expected),
                     qPrintable(QStringLiteral("cell %1,%2: %3 instead of %4")
                                    .arg(r)
                                    .arg(k)
                                    .arg(QColor(image.pixel(probe)).name(), expected.name())));
        }
    QCOMPARE(ContingencyFigure::cellColor(0.0, 0), QColor(Qt::white));
    // A full row share is the dark end of the scale, so the count at its centre is written white.
    const QColor full = ContingencyFigure::cellColor(1.0, 3);
    QVERIFY(full.lightness() < 128);
    const QRectF cell = heatmap->cellRect(0, 0);
    int white = 0;
    for (int y = int(cell.center().y()) - 6; y <= int(cell.center().y()) + 6; ++y)
        for (int x = int(cell.center().x()) - 6; x <= int(cell.center().x()) + 6; ++x)
            white += qGray(image.pixel(x, y)) > 180 ? 1 : 0;
    QVERIFY2(white > 0, "the count 3 is drawn in the first cell");
}

void CompareFlatViewTest::cellClickSelectsTheSharedPoints() {
    Fixture f;
    QVERIFY(f.start());
    QSignalSpy changed(&f.session, &AnalysisSession::selectionChanged);
    ContingencyHeatmap* heatmap = f.view.heatmap();
    QTest::mouseClick(heatmap, Qt::LeftButton, {}, heatmap->cellRect(1, 0).center().toPoint());
    QCOMPARE(*f.session.selection(), (IndexVector{3}));  // A cluster 1 and B cluster 7
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).value<const QObject*>(), static_cast<const QObject*>(&f.view));
    QCOMPARE(heatmap->highlightedCell(), (HeatmapCell{1, 0}));
    const QImage image = heatmap->grab().toImage();
    const QRectF clicked = heatmap->cellRect(1, 0);
    bool outlined = false;
    for (int x = int(clicked.left()) - 2; x <= int(clicked.left()) + 2; ++x) {
        const QRgb p = image.pixel(x, int(clicked.center().y()));
        outlined = outlined || (qRed(p) > 180 && qGreen(p) < 100 && qBlue(p) < 100);
    }
    QVERIFY2(outlined, "the clicked cell is outlined");
    QTest::mouseClick(heatmap, Qt::LeftButton, {}, heatmap->cellRect(2, 2).center().toPoint());
    QCOMPARE(*f.session.selection(), (IndexVector{7}));
    // Another view passing the same points on keeps the outline; other points drop it.
    QObject other;
    f.session.setSelection(std::make_shared<const IndexVector>(IndexVector{7}), &other);
    QCOMPARE(heatmap->highlightedCell(), (HeatmapCell{2, 2}));
    f.session.setSelection(std::make_shared<const IndexVector>(IndexVector{0}), &other);
    QVERIFY(!heatmap->highlightedCell().isValid());
    // Outside the cells nothing happens.
    QTest::mouseClick(heatmap, Qt::LeftButton, {}, QPoint(2, 2));
    QCOMPARE(*f.session.selection(), (IndexVector{0}));
}

void CompareFlatViewTest::tableClickSelectsTheMatchedPair() {
    Fixture f;
    QVERIFY(f.start());
    QTableView* table = f.view.pairsTable();
    const QModelIndex second = table->model()->index(1, MatchedPairsModel::F1);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(second).center());
    QCOMPARE(*f.session.selection(), (IndexVector{4, 5}));  // A cluster 1 and B cluster 3
    QCOMPARE(f.view.heatmap()->highlightedCell(), (HeatmapCell{1, 1}));
}

void CompareFlatViewTest::greedyMatchingRecomputes() {
    Fixture f;
    QVERIFY(f.start());
    f.view.setMatchingMethod(MatchingMethod::Greedy);
    QTRY_VERIFY_WITH_TIMEOUT(f.view.comparison()->method == MatchingMethod::Greedy, kTimeoutMs);
    QCOMPARE(f.view.comparison()->method, MatchingMethod::Greedy);
    QVERIFY(f.view.scoresLine().contains(QStringLiteral("greedy")));
    // Swapping the labelings transposes the table.
    f.view.setLabelings(QStringLiteral("B kmeans"), QStringLiteral("A truth"));
    QTRY_COMPARE_WITH_TIMEOUT(f.view.comparison()->nameA, QStringLiteral("B kmeans"), kTimeoutMs);
    QCOMPARE(f.view.comparison()->rows(), std::size_t{3});
    QCOMPARE(f.view.comparison()->labelOfRow(0), -1);
}

void CompareFlatViewTest::exportsParseAsSvgPdfPngAndCsv() {
    Fixture f;
    QVERIFY(f.start());
    QTemporaryDir dir;
    FigureExportOptions options;
    options.size = QSize(640, 480);

    const QString svg = dir.filePath(QStringLiteral("t.svg"));
    f.view.exportHeatmap(svg, options);
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    int paths = 0;
    QStringList texts;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        if (xml.name() == QLatin1String("path")) ++paths;
        if (xml.name() == QLatin1String("text")) texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(paths >= 1);  // the matched pairs' outlines
    const QString joined = texts.join(QLatin1Char(' '));
    QVERIFY2(joined.contains(QStringLiteral("ARI")) && joined.contains(QStringLiteral("noise")), qPrintable(joined));
    QVERIFY(texts.contains(QStringLiteral("3")));  // a count in a cell

    const QString pdf = dir.filePath(QStringLiteral("t.pdf"));
    f.view.exportHeatmap(pdf, options);
    const QString pdfText = QString::fromLatin1(readAll(pdf).toLatin1());
    const QRegularExpressionMatch box =
        QRegularExpression(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([\\d.]+)\\s+([\\d.]+)\\s*\\]"))
            .match(pdfText);
    QVERIFY(box.hasMatch());
    QCOMPARE(qRound(box.captured(1).toDouble()), 640);
    QCOMPARE(qRound(box.captured(2).toDouble()), 480);

    const QString png = dir.filePath(QStringLiteral("t.png"));
    f.view.exportHeatmap(png, options);
    QCOMPARE(QImage(png).size(), QSize(640, 480));

    const QString csv = dir.filePath(QStringLiteral("pairs.csv"));
    f.view.exportTable(csv);
    QCOMPARE(readAll(csv), f.view.pairsModel()->toCsv());
    QVERIFY_THROWS_EXCEPTION(std::exception, f.view.exportTable(dir.filePath(QStringLiteral("no/such/dir/x.csv"))));
}

void CompareFlatViewTest::manyColumnsSumTheSmallestIntoOther() {
    // B: 400 clusters of 5..21 points; A: 20 clusters, cluster b of B inside cluster b % 20 of A.
    auto a = std::make_shared<LabelVector>(), b = std::make_shared<LabelVector>();
    for (std::int32_t cluster = 0; cluster < 400; ++cluster)
        for (std::int32_t i = 0; i < 5 + cluster % 17; ++i) {
            a->push_back(cluster % 20);
            b->push_back(cluster);
        }
    const auto c = std::make_shared<const FlatComparison>(
        compareLabelings(a, b, QStringLiteral("A"), QStringLiteral("B"), MatchingMethod::Hungarian));
    QCOMPARE(c->rows(), std::size_t{20});
    QCOMPARE(c->cols(), std::size_t{400});
    QCOMPARE(c->matchedCount, std::size_t{20});
    const ContingencyFigure figure(c);
    QCOMPARE(figure.shownColumns(), ContingencyFigure::figureColumnLimit);
    QCOMPARE(figure.otherClusterCount(), std::size_t{400 - 39});
    QCOMPARE(figure.columnLabel(39), QStringLiteral("other"));
    // The matched columns stay first, on the diagonal; the kept unmatched ones are the largest.
    for (std::size_t i = 0; i < c->matchedCount; ++i)
        QCOMPARE(figure.columnLabel(i), QString::number(c->labelOfCol(i)));
    std::int64_t smallestKept = std::numeric_limits<std::int64_t>::max();
    QStringList kept;
    for (std::size_t k = 0; k < 39; ++k) {
        kept << figure.columnLabel(k);
        std::int64_t total = 0;
        for (std::size_t r = 0; r < c->rows(); ++r) total += figure.countAt(r, k);
        if (k >= c->matchedCount) smallestKept = std::min(smallestKept, total);
    }
    std::int64_t largestSummed = 0;
    for (std::size_t k = 0; k < c->cols(); ++k)
        if (!kept.contains(QString::number(c->labelOfCol(k))))
            largestSummed = std::max(largestSummed, c->table.colSums[c->colOrder[k]]);
    QVERIFY2(smallestKept >= largestSummed, qPrintable(QStringLiteral("%1 < %2").arg(smallestKept).arg(largestSummed)));
    QCOMPARE(largestSummed, std::int64_t{20});
    // No event is lost: each row's drawn counts add up to its cluster, its shares to one.
    for (std::size_t r = 0; r < c->rows(); ++r) {
        std::int64_t sum = 0;
        double share = 0.0;
        for (std::size_t k = 0; k < figure.shownColumns(); ++k) {
            sum += figure.countAt(r, k);
            share += figure.rowShareAt(r, k);
        }
        QCOMPARE(sum, c->table.rowSums[c->rowOrder[r]]);
        QVERIFY(std::abs(share - 1.0) < 1e-9);
    }
    // The view scrolls through every column instead.
    QCOMPARE(ContingencyFigure(c, 0).shownColumns(), std::size_t{400});

    // The exported figure (85 mm wide) names "other", says what it holds, and thins the labels.
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("wide.svg"));
    FigureExportOptions options;
    options.size = QSize(482, 400);
    exportFigure(ContingencyFigure(c), svg, options);
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QStringList texts;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY2(texts.contains(QStringLiteral("other")), qPrintable(texts.join(QLatin1Char('|'))));
    const QString joined = texts.join(QLatin1Char(' '));
    QVERIFY2(joined.contains(QStringLiteral("other: the 361 smallest clusters of B, summed")), qPrintable(joined));
}

CLUSTERLENS_GUI_TEST_MAIN(CompareFlatViewTest)
#include "compare_flat_view_test.moc"
