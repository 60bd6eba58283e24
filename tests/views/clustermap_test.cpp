// The clustermap under the dendrogram, the minimum cluster size of cuts and the Charts dock's
// charts: a tree of four groups of 8 leaves with two outlier leaves joining at the top.

#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QStackedBarSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QBarSet>

#include <algorithm>
#include <cmath>

#include "analysis_session.hpp"
#include "charts/chart_figure.hpp"
#include "charts/charts_panel.hpp"
#include "dendrogram/cluster_table_model.hpp"
#include "dendrogram/clustermap_widget.hpp"
#include "dendrogram/dendrogram_figure.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dendrogram_test_trees.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
#include "palette.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr std::size_t kLeaves = 34;

/// fourGroups() (leaves 0..31) with leaf 32 joining at 30 and leaf 33 at 40: outliers on top.
Linkage groupsWithOutliers() {
    const Linkage groups = test::fourGroups();
    std::vector<test::TreeRow> rows;
    // Internal ids shift by 2 (34 leaves instead of 32).
    const auto shift = [](std::int64_t id) { return id >= 32 ? id + 2 : id; };
    for (const Merge& m : groups.merges) rows.push_back({shift(m.a), shift(m.b), m.height});
    rows.push_back({32, 34 + 30, 30.0});
    rows.push_back({33, 34 + 31, 40.0});
    return test::makeLinkage(kLeaves, rows);
}

/// Feature "x": the group (0..3) of leaves 0..31, 100 for the outliers; "y": the index.
std::shared_ptr<const Dataset> groupData() {
    auto data = std::make_shared<Dataset>();
    data->n = kLeaves;
    data->d = 2;
    data->features = {"x", "y"};
    for (std::size_t i = 0; i < kLeaves; ++i) {
        data->values.push_back(i < 32 ? static_cast<float>(i / 8) : 100.0f);
        data->values.push_back(static_cast<float>(i));
    }
    data->provenance.path = "groups.csv";
    return data;
}

struct PanelFixture {
    JobRunner runner;
    AnalysisSession analysis;
    DendrogramPanel panel{&runner, &analysis};

    PanelFixture() {
        panel.setDataSource(groupData(), {QStringLiteral("x"), QStringLiteral("y")});
        analysis.addLinkage(QStringLiteral("groups"), std::make_shared<const Linkage>(groupsWithOutliers()));
        panel.showLinkage(QStringLiteral("groups"));
        panel.resize(900, 700);
    }

    /// The four groups as populations, the two outliers small (minimum size 2); `charts` follows.
    void cutIntoFourGroups(ChartsPanel* charts = nullptr) {
        panel.setMinClusterSize(2);
        panel.setClusterCount(4);
        if (charts) charts->setCut(panel.layout(), panel.cut(), QStringLiteral("groups"));
    }
};

bool near(QColor a, QColor b, int tolerance = 12) {
    return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance &&
           std::abs(a.blue() - b.blue()) <= tolerance;
}

}  // namespace

class ClustermapTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void plainCutKeepsTheOutliersAsClusters();
    void minimumSizeGivesFourPopulationsAndListsOutliersApart();
    void heatmapPixelsFollowTheMediansOrder();
    void figureDrawsTheClustermapUnderTheTree();
    void sizeChartHasOneBarPerClusterSmallOnesGrey();
    void profileMarksTheCurrentCut();
    void histogramsOverlayTheCheckedPopulations();
    void chartFigureExportsThroughTheFigureWriter();

private:
    QTemporaryDir m_dir;
};

void ClustermapTest::plainCutKeepsTheOutliersAsClusters() {
    PanelFixture f;
    f.panel.setMinClusterSize(1);
    f.panel.setClusterCount(4);
    QVERIFY(f.panel.cut());
    QCOMPARE(f.panel.cut()->k, 4);
    QCOMPARE(f.panel.cut()->populations, 4);
    // Two of the four clusters are single outliers.
    QCOMPARE(f.panel.clusterTable()->rowCount(), 4);
    QCOMPARE(f.panel.cutLabeling(), QStringLiteral("cut of groups (k=4)"));
}

void ClustermapTest::minimumSizeGivesFourPopulationsAndListsOutliersApart() {
    PanelFixture f;
    f.cutIntoFourGroups();
    const auto cut = f.panel.cut();
    QVERIFY(cut);
    QCOMPARE(cut->populations, 4);
    QCOMPARE(cut->k, 6);
    QCOMPARE(f.panel.cutLabeling(), QStringLiteral("cut of groups (k=4, min 2)"));
    // The rest of the application sees the four groups 0..3 and the outliers as -1.
    const auto labels = f.analysis.colouringLabels();
    QVERIFY(labels);
    for (std::size_t i = 0; i < 32; ++i) QCOMPARE((*labels)[i], static_cast<std::int32_t>(i / 8));
    QCOMPARE((*labels)[32], -1);
    QCOMPARE((*labels)[33], -1);
    // The table lists the populations first and the small clusters after them, greyed.
    auto* view = f.panel.findChild<QTableView*>();
    QVERIFY(view);
    const QAbstractItemModel* shown = view->model();
    QCOMPARE(shown->rowCount(), 6);
    for (int row = 0; row < 4; ++row)
        QCOMPARE(shown->index(row, ClusterTableModel::ClusterColumn).data().toString(),
                 QStringLiteral("cluster %1").arg(row));
    for (int row = 4; row < 6; ++row) {
        QVERIFY(
            shown->index(row, ClusterTableModel::ClusterColumn).data().toString().startsWith(QStringLiteral("small")));
        QCOMPARE(shown->index(row, ClusterTableModel::SizeColumn).data(Qt::UserRole).toDouble(), 1.0);
        QCOMPARE(shown->index(row, ClusterTableModel::ClusterColumn).data(Qt::DecorationRole).value<QColor>(),
                 Palette::noiseColor());
    }
}

void ClustermapTest::heatmapPixelsFollowTheMediansOrder() {
    PanelFixture f;
    f.cutIntoFourGroups();
    f.panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&f.panel));
    ClustermapWidget* band = f.panel.clustermapWidget();
    QVERIFY(band->isVisible());
    const auto map = band->clustermap();
    QVERIFY(map && map->perCluster);
    QCOMPARE(map->columnCount(), std::size_t{6});
    QCOMPARE(map->markers, (QStringList{QStringLiteral("x"), QStringLiteral("y")}));
    // Leaf order: outlier 33, outlier 32, then the groups 0..3: medians of x 100, 100, 0, 1, 2, 3.
    const std::vector<double> expectedX{100, 100, 0, 1, 2, 3};
    for (std::size_t c = 0; c < 6; ++c) QCOMPARE(map->medians.at(c, 0), expectedX[c]);
    QTest::qWait(50);
    const QImage image = band->grab().toImage();
    const QRectF cells = band->bandRect();
    const double rowY = cells.top() + cells.height() * 0.25;  // the row of x
    const qreal ratio = image.devicePixelRatio();
    const auto colourAt = [&](std::size_t column) {
        const QRectF plot(cells.left(), 0, cells.width(), 1);
        const double x = f.panel.widget()->view().toPixel(map->first[column] + 0.5 * map->size[column], 0, plot).x();
        return image.pixelColor(QPoint(qRound(x * ratio), qRound(rowY * ratio)));
    };
    QVERIFY(near(colourAt(0), Palette::noiseColor(), 3));
    QVERIFY(near(colourAt(1), Palette::noiseColor(), 3));
    // z-scores of 0, 1, 2, 3 over the four groups: blue to red, left to right.
    for (std::size_t c = 2; c < 6; ++c)
        QVERIFY2(near(colourAt(c), clustermapColor(map->scaledAt(c, 0), MarkerScaling::ZScore)),
                 qPrintable(QStringLiteral("column %1: %2").arg(c).arg(colourAt(c).name())));
    for (std::size_t c = 3; c < 6; ++c) QVERIFY(map->scaledAt(c, 0) > map->scaledAt(c - 1, 0));
    // The lowest median is blue, the highest red.
    QVERIFY(colourAt(2).blue() > colourAt(2).red() + 60);
    QVERIFY(colourAt(5).red() > colourAt(5).blue() + 60);
    image.save(m_dir.filePath(QStringLiteral("band.png")));
    f.panel.grab().save(QDir::temp().filePath(QStringLiteral("clusterlens_clustermap_panel.png")));
}

void ClustermapTest::figureDrawsTheClustermapUnderTheTree() {
    PanelFixture f;
    f.cutIntoFourGroups();
    const auto figure = f.panel.figure(false);
    QVERIFY(figure);
    const QString path = m_dir.filePath(QStringLiteral("clustermap.png"));
    exportFigure(*figure, path, {QSize(900, 600), 96});
    QImage image(path);
    QVERIFY(!image.isNull());
    image.save(QDir::temp().filePath(QStringLiteral("clusterlens_clustermap_figure.png")));
    const auto map = f.panel.clustermapWidget()->clustermap();
    const QColor lowest = clustermapColor(map->scaledAt(2, 0), MarkerScaling::ZScore);
    const QColor highest = clustermapColor(map->scaledAt(5, 0), MarkerScaling::ZScore);
    // The x row's extreme cells are in the lower part of the figure, lowest left of highest.
    int lowX = -1, highX = -1, lowY = -1;
    for (int y = image.height() / 2; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            if (lowX < 0 && near(image.pixelColor(x, y), lowest, 2)) lowX = x, lowY = y;
            if (highX < 0 && near(image.pixelColor(x, y), highest, 2)) highX = x;
        }
    QVERIFY(lowX >= 0 && highX >= 0);
    QVERIFY(lowX < highX);
    QVERIFY(lowY > image.height() / 2);
}

void ClustermapTest::sizeChartHasOneBarPerClusterSmallOnesGrey() {
    PanelFixture f;
    ChartsPanel charts;
    f.cutIntoFourGroups(&charts);
    const QList<QAbstractSeries*> series = charts.chartView(ChartsPanel::SizesPage)->chart()->series();
    QCOMPARE(series.size(), 1);
    auto* bars = qobject_cast<QStackedBarSeries*>(series.front());
    QVERIFY(bars);
    QCOMPARE(bars->count(), 6);
    const std::vector<double> sizes{1, 1, 8, 8, 8, 8};
    for (int b = 0; b < 6; ++b) {
        QBarSet* set = bars->barSets()[b];
        QCOMPARE(set->at(b), sizes[static_cast<std::size_t>(b)]);
        QCOMPARE(set->sum(), sizes[static_cast<std::size_t>(b)]);
        QCOMPARE(set->color(), b < 2 ? Palette::noiseColor() : Palette::labelColor(b - 2));
    }
    QCOMPARE(bars->barSets()[2]->label(), QStringLiteral("0"));
    QCOMPARE(bars->barSets()[0]->label(), QStringLiteral("s1"));
    QCOMPARE(bars->barSets()[1]->label(), QStringLiteral("s2"));
}

void ClustermapTest::profileMarksTheCurrentCut() {
    PanelFixture f;
    ChartsPanel charts;
    f.cutIntoFourGroups(&charts);
    QChart* chart = charts.chartView(ChartsPanel::ProfilePage)->chart();
    auto* line = qobject_cast<QLineSeries*>(chart->series()[0]);
    auto* mark = qobject_cast<QScatterSeries*>(chart->series()[1]);
    QVERIFY(line && mark);
    QCOMPARE(line->count(), 33);
    // One cluster: the root at 40; two: 30; three: 20 (the merge of the groups); then 12, 10, 0.7.
    const std::vector<double> heights{40, 30, 20, 12, 10, 0.7};
    for (int c = 0; c < 6; ++c) {
        QCOMPARE(line->at(c).x(), c + 1.0);
        QCOMPARE(line->at(c).y(), heights[static_cast<std::size_t>(c)]);
    }
    QCOMPARE(mark->count(), 1);
    QCOMPARE(mark->at(0), QPointF(6.0, 0.7));
}

void ClustermapTest::histogramsOverlayTheCheckedPopulations() {
    ChartsPanel charts;
    charts.setData(groupData());
    const auto first = std::make_shared<const std::vector<std::int64_t>>(std::vector<std::int64_t>{0, 1, 2, 3});
    const auto second =
        std::make_shared<const std::vector<std::int64_t>>(std::vector<std::int64_t>{8, 9, 16, 17, 18, 33});
    const auto third = std::make_shared<const std::vector<std::int64_t>>(std::vector<std::int64_t>{24});
    charts.setPopulations({{QStringLiteral("A"), Qt::red, first},
                           {QStringLiteral("B"), Qt::blue, second},
                           {QStringLiteral("C"), Qt::green, third}});
    // The first two are checked by default.
    QCOMPARE(charts.histogram().series.size(), std::size_t{2});
    charts.setMarker(QStringLiteral("x"));
    charts.checkPopulations({QStringLiteral("B")});
    const HistogramData& h = charts.histogram();
    QCOMPARE(h.marker, QStringLiteral("x"));
    QCOMPARE(h.series.size(), std::size_t{1});
    QCOMPARE(h.series[0].count, std::size_t{6});
    // x of B: 1, 1, 2, 2, 2, 100 over bins of (100 - 0) / 64.
    QCOMPARE(h.series[0].fractions[0], 2.0 / 6.0);
    QCOMPARE(h.series[0].fractions[1], 3.0 / 6.0);
    QCOMPARE(h.series[0].fractions[63], 1.0 / 6.0);
    QChart* chart = charts.chartView(ChartsPanel::HistogramPage)->chart();
    QCOMPARE(chart->series().size(), 1);
    QCOMPARE(chart->series()[0]->name(), QStringLiteral("B (6)"));
    charts.checkPopulations({QStringLiteral("A"), QStringLiteral("C")});
    QCOMPARE(charts.chartView(ChartsPanel::HistogramPage)->chart()->series().size(), 2);
}

void ClustermapTest::chartFigureExportsThroughTheFigureWriter() {
    PanelFixture f;
    ChartsPanel charts;
    f.cutIntoFourGroups(&charts);
    const FigureExportSource source = charts.figureExportSource(ChartsPanel::SizesPage);
    QVERIFY(source.isValid());
    const auto figure = source.figure(false);
    for (const QString& suffix : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
        const QString path = m_dir.filePath(QStringLiteral("sizes.") + suffix);
        exportFigure(*figure, path, {QSize(640, 420), 96});
        QVERIFY(QFile(path).size() > 1000);
    }
    QImage png(m_dir.filePath(QStringLiteral("sizes.png")));
    png.save(QDir::temp().filePath(QStringLiteral("clusterlens_cluster_sizes_chart.png")));
    // The bars of the four groups are drawn in their colours.
    for (int g = 0; g < 4; ++g) {
        bool found = false;
        for (int y = 0; y < png.height() && !found; ++y)
            for (int x = 0; x < png.width() && !found; ++x)
                found = near(png.pixelColor(x, y), Palette::labelColor(g), 2);
        QVERIFY2(found, qPrintable(QStringLiteral("bar of group %1").arg(g)));
    }
    QFile svg(m_dir.filePath(QStringLiteral("sizes.svg")));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("Cluster sizes: groups"));
}

CLUSTERLENS_GUI_TEST_MAIN(ClustermapTest)
#include "clustermap_test.moc"
