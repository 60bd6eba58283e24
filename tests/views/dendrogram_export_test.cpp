// Dendrogram exports: the figure as SVG (XML with vector paths and real text), PDF (the page size
// asked for) and PNG (the pixel size asked for); the panel's Newick, labels and linkage exports,
// the import of a linkage CSV and the cut stored as a labeling of the analysis session.

#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <algorithm>

#include <fstream>
#include <sstream>

#include "analysis_session.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/io/labels.hpp"
#include "dendrogram/cluster_table_model.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_figure.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dendrogram_test_trees.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::test::fourGroups;

namespace {

constexpr int kJobTimeoutMs = 30'000;

DendrogramFigure fourGroupFigure(int k) {
    auto layout = std::make_shared<const DendrogramLayout>(buildDendrogramLayout(fourGroups()));
    DendrogramFigureOptions options;
    options.title = QStringLiteral("four groups");
    options.cut = std::make_shared<const DendrogramCut>(cutIntoClusters(*layout, k));
    return DendrogramFigure(layout, options);
}

/// 32 points, one per leaf of fourGroups(): feature "x" = group, "y" = index.
std::shared_ptr<const Dataset> fourGroupData() {
    auto data = std::make_shared<Dataset>();
    data->n = 32;
    data->d = 2;
    data->features = {"x", "y"};
    for (std::size_t i = 0; i < 32; ++i) {
        data->values.push_back(static_cast<float>(i / 8));
        data->values.push_back(static_cast<float>(i));
    }
    return data;
}

}  // namespace

class DendrogramExportTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void svgIsXmlWithPathsAndText();
    void pdfHasTheRequestedPageSize();
    void pngHasTheRequestedPixelSize();
    void cutBecomesTheColouringLabeling();
    void panelWritesNewickLabelsAndLinkage();
    void importedLinkageIsAddedAndShown();

private:
    QTemporaryDir m_dir;
};

void DendrogramExportTest::svgIsXmlWithPathsAndText() {
    const QString path = m_dir.filePath(QStringLiteral("tree.svg"));
    exportFigure(fourGroupFigure(4), path, {QSize(700, 420), 96});
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    int paths = 0;
    QStringList texts;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        if (xml.name() == QLatin1String("path")) ++paths;
        if (xml.name() == QLatin1String("text")) texts << xml.readElementText();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(paths >= 5);  // the links: neutral and one colour per cluster
    QVERIFY(texts.contains(QStringLiteral("four groups")));
    QVERIFY(texts.contains(QStringLiteral("merge height")));
    QVERIFY(texts.contains(QStringLiteral("cluster 3 (8)")));
    QVERIFY(texts.contains(QStringLiteral("k = 4 clusters")));
}

void DendrogramExportTest::pdfHasTheRequestedPageSize() {
    const QString path = m_dir.filePath(QStringLiteral("tree.pdf"));
    exportFigure(fourGroupFigure(2), path, {QSize(612, 396), 96});
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray pdf = file.readAll();
    QVERIFY(pdf.startsWith("%PDF-"));
    const QRegularExpression mediaBox(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([0-9.]+)\\s+([0-9.]+)\\s*\\]"));
    const auto match = mediaBox.match(QString::fromLatin1(pdf));
    QVERIFY(match.hasMatch());
    QCOMPARE(match.captured(1).toDouble(), 612.0);
    QCOMPARE(match.captured(2).toDouble(), 396.0);
    // Real text: the font is embedded and the title is drawn with it, not as outlines.
    QVERIFY(pdf.contains("/FontFile") || pdf.contains("/FontDescriptor"));
}

void DendrogramExportTest::pngHasTheRequestedPixelSize() {
    const QString path = m_dir.filePath(QStringLiteral("tree.png"));
    exportFigure(fourGroupFigure(3), path, {QSize(1200, 700), 192});
    QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(1200, 700));
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 192);
}

void DendrogramExportTest::cutBecomesTheColouringLabeling() {
    JobRunner runner;
    AnalysisSession analysis;
    DendrogramPanel panel(&runner, &analysis);
    panel.setDataSource(fourGroupData(), {QStringLiteral("x"), QStringLiteral("y")});
    QSignalSpy shown(&panel, &DendrogramPanel::treeShown);
    analysis.addLinkage(QStringLiteral("groups"), std::make_shared<const Linkage>(fourGroups()));
    panel.showLinkage(QStringLiteral("groups"));
    QCOMPARE(shown.count(), 1);
    QSignalSpy colouring(&analysis, &AnalysisSession::colouringChanged);
    panel.setClusterCount(4);
    QCOMPARE(panel.cutLabeling(), QStringLiteral("cut of groups (k=4)"));
    QCOMPARE(analysis.colouring(), panel.cutLabeling());
    QCOMPARE(colouring.count(), 1);
    const auto labels = analysis.colouringLabels();
    QVERIFY(labels);
    for (std::size_t i = 0; i < 32; ++i) QCOMPARE((*labels)[i], static_cast<std::int32_t>(i / 8));
    QCOMPARE(panel.clusterTable()->rowCount(), 4);
    QCOMPARE(panel.clusterTable()->columnCount(), 6);  // cluster, size, %, height, mean x, mean y
    // A subtree clicked in the tree becomes the session's selection, with the widget as origin.
    std::vector<const QObject*> origins;
    connect(&analysis, &AnalysisSession::selectionChanged, this,
            [&origins](const QObject* origin) { origins.push_back(origin); });
    Q_EMIT panel.widget()->subtreeClicked(32 + 13);
    QCOMPARE(origins.size(), std::size_t{1});
    QCOMPARE(origins.front(), static_cast<const QObject*>(panel.widget()));
    QCOMPARE(*analysis.selection(), (IndexVector{8, 9, 10, 11, 12, 13, 14, 15}));
    QCOMPARE(panel.widget()->selectedLeafCount(), std::size_t{8});
}

void DendrogramExportTest::panelWritesNewickLabelsAndLinkage() {
    JobRunner runner;
    AnalysisSession analysis;
    DendrogramPanel panel(&runner, &analysis);
    panel.setDataSource(fourGroupData(), {QStringLiteral("x")});
    analysis.addLinkage(QStringLiteral("groups"), std::make_shared<const Linkage>(fourGroups()));
    panel.showLinkage(QStringLiteral("groups"));
    panel.setClusterCount(3);
    QSignalSpy messages(&panel, &DendrogramPanel::message);
    const QString newick = m_dir.filePath(QStringLiteral("tree.nwk"));
    const QString labels = m_dir.filePath(QStringLiteral("labels.csv"));
    const QString linkage = m_dir.filePath(QStringLiteral("linkage.csv"));
    panel.exportNewickTo(newick);
    panel.exportLabelsTo(labels);
    panel.exportLinkageTo(linkage);
    QTRY_COMPARE_WITH_TIMEOUT(messages.count(), 3, kJobTimeoutMs);
    for (const auto& m : messages) QVERIFY2(!m.at(1).toBool(), qPrintable(m.at(0).toString()));

    std::ifstream in(newick.toStdString());
    std::stringstream stream;
    stream << in.rdbuf();
    const std::string text = stream.str();
    QVERIFY(text.find("(0:0.10000000000000001,1:0.10000000000000001)") != std::string::npos);
    QVERIFY(text.size() > 2 && text.compare(text.size() - 2, 2, ";\n") == 0);
    QCOMPARE(std::count(text.begin(), text.end(), '('), std::ptrdiff_t{31});
    const std::vector<std::int32_t> written = readLabels(labels.toStdString(), 32);
    QCOMPARE(written, panel.cut()->labels);
    const Linkage back = readLinkageCsv(linkage.toStdString());
    QCOMPARE(back.merges.size(), std::size_t{31});
    QCOMPARE(back.merges.back().height, 20.0);
}

void DendrogramExportTest::importedLinkageIsAddedAndShown() {
    const QString path = m_dir.filePath(QStringLiteral("imported.csv"));
    writeLinkageCsv(path.toStdString(), fourGroups());
    JobRunner runner;
    AnalysisSession analysis;
    DendrogramPanel panel(&runner, &analysis);
    QSignalSpy shown(&panel, &DendrogramPanel::treeShown);
    panel.importLinkage(path);
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kJobTimeoutMs);
    QCOMPARE(shown.at(0).at(0).toString(), QStringLiteral("imported: imported.csv"));
    QVERIFY(analysis.linkage(QStringLiteral("imported: imported.csv")));
    QCOMPARE(panel.layout()->leafCount, std::size_t{32});
    // Without a dataset the cut colours the tree only: no labeling for points that are not there.
    panel.setClusterCount(2);
    QVERIFY(panel.cut());
    QVERIFY(panel.cutLabeling().isEmpty());
    QVERIFY(analysis.labelingNames().isEmpty());
}

CLUSTERLENS_GUI_TEST_MAIN(DendrogramExportTest)
#include "dendrogram_export_test.moc"
