// Every view's figure through the one export dialog, driven by its setters as a user would set its
// fields: data scatter, dendrogram, decision graph, γ-rank plot, VAT/iVAT, point heights, the
// contingency heatmap and the population statistics, each as PNG, TIFF, SVG and PDF at the single-column preset. Each
// file exists, has the size asked for (85 mm at 600 dpi = 2008 px; 240.9 pt; width="85mm", the title in the SVG's
// <title>), and carries the title, the `clusterlens-cli` command and the data file's SHA-256 in its
// metadata. The dialog's
// presets, its format/extension coupling, the clipboard copy and the methods text are checked too.

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <cstdio>
#include <fstream>
#include <random>

#include "analysis_session.hpp"
#include "clusterlens/io/file_hash.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "compare/flat_view.hpp"
#include "compare/heights_view.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram_test_trees.hpp"
#include "dpc/dpc_panel.hpp"
#include "figure/figure_composer_dialog.hpp"
#include "figure/figure_export_dialog.hpp"
#include "figure/figure_provenance.hpp"
#include "figure/methods_text.hpp"
#include "figure/population_stats_figure.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
#include "populations/population_stats.hpp"
#include "scatter/scatter_export.hpp"
#include "scatter/scatter_figure.hpp"
#include "scatter/scatter_widget.hpp"
#include "vat/vat_panel.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr int kJobTimeoutMs = 60'000;
constexpr std::uint64_t kSeed = 20261128;
const QString kTitle = QStringLiteral("Panel B");

/// 4 groups of 8 points in 2-D (point i in group i / 8, as fourGroups() builds the tree), with the
/// class names in the scikit-learn table layout.
void writeGroups(const QString& path) {
    std::printf("four groups, seed %llu\n", static_cast<unsigned long long>(kSeed));
    std::mt19937_64 random(kSeed);
    std::normal_distribution<double> noise(0.0, 0.3);
    std::ofstream out(path.toStdString());
    out << "32,2,north,east,south,west\n";
    for (int i = 0; i < 32; ++i) {
        const int g = i / 8;
        out << 10.0 * (g % 2) + noise(random) << ',' << 10.0 * (g / 2) + noise(random) << ',' << g << '\n';
    }
}

std::shared_ptr<const LabelVector> labels(int (*of)(int)) {
    auto out = std::make_shared<LabelVector>();
    for (int i = 0; i < 32; ++i) out->push_back(of(i));
    return out;
}

/// The tEXt/iTXt chunks of a PNG file joined, and its width.
std::pair<QByteArray, quint32> pngTextAndWidth(const QByteArray& png) {
    QByteArray text;
    const auto be32 = [&](qsizetype at) {
        return quint32(quint8(png[at])) << 24 | quint32(quint8(png[at + 1])) << 16 | quint32(quint8(png[at + 2])) << 8 |
               quint32(quint8(png[at + 3]));
    };
    for (qsizetype at = 8; at + 12 <= png.size(); at += 12 + be32(at))
        if (png.mid(at + 4, 4) == "tEXt" || png.mid(at + 4, 4) == "iTXt") text += png.mid(at + 8, be32(at)) + '\n';
    return {text, png.size() > 20 ? be32(16) : 0};
}

/// Width (tag 256) and ImageDescription (tag 270) of a little-endian TIFF.
std::pair<QByteArray, quint32> tiffTextAndWidth(const QByteArray& tiff) {
    const auto le = [&](qsizetype at, int bytes) {
        quint32 v = 0;
        for (int i = bytes - 1; i >= 0; --i) v = v << 8 | quint8(tiff[at + i]);
        return v;
    };
    if (!tiff.startsWith(QByteArray("II*\0", 4))) return {};
    const quint32 dir = le(4, 4);
    QByteArray text;
    quint32 width = 0;
    for (quint32 e = 0; e < le(dir, 2); ++e) {
        const qsizetype at = dir + 2 + 12 * e;
        if (le(at, 2) == 256) width = le(at + 8, le(at + 2, 2) == 3 ? 2 : 4);
        if (le(at, 2) == 270) text = tiff.mid(le(at + 4, 4) <= 4 ? at + 8 : le(at + 8, 4), le(at + 4, 4) - 1);
    }
    return {text, width};
}

}  // namespace

class FigureExportDialogTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void everyViewExportsEveryFormatWithItsProvenance();
    void presetsAndFormatFollowTheChoices();
    void clipboardAndMethodsText();
    void methodsTextOfAnIvatImageCitesThePapers();
    void styleChoicesReachTheCommand();
    void largeScatterIsOneImageNotAnObjectPerPoint();
    void composedFigureHasItsPanelsLettered();

private:
    std::vector<FigureExportSource> sources() const;
    void checkFile(const FigureExportSource& source, const QString& path);

    QTemporaryDir m_dir;
    QString m_dataPath;
    std::string m_hash;
    std::unique_ptr<JobRunner> m_runner;
    std::unique_ptr<AnalysisSession> m_analysis;
    std::shared_ptr<const Dataset> m_data;
    std::unique_ptr<ScatterWidget> m_scatter;
    std::unique_ptr<DendrogramPanel> m_dendrogram;
    std::unique_ptr<DpcPanel> m_dpc;
    std::unique_ptr<VatPanel> m_vat;
    std::unique_ptr<HeightsView> m_heights;
    std::unique_ptr<FlatComparisonView> m_flat;
    std::shared_ptr<const PopulationStatistics> m_statistics;
};

void FigureExportDialogTest::initTestCase() {
    m_dataPath = m_dir.filePath(QStringLiteral("groups.csv"));
    writeGroups(m_dataPath);
    m_hash = sha256File(m_dataPath.toStdString());
    m_data = std::make_shared<const Dataset>(readDataset(m_dataPath.toStdString()));
    QCOMPARE(m_data->n, std::size_t{32});
    const QStringList features = {QString::fromStdString(m_data->features[0]),
                                  QString::fromStdString(m_data->features[1])};
    m_runner = std::make_unique<JobRunner>();
    m_analysis = std::make_unique<AnalysisSession>();

    m_scatter = std::make_unique<ScatterWidget>();
    ScatterRequest request;
    request.dataset = m_data;
    request.mode = ColourMode::Labels;
    m_scatter->setData(std::make_shared<const ScatterData>(prepareScatter(request)));

    m_analysis->addLinkage(QStringLiteral("groups"), std::make_shared<const Linkage>(test::fourGroups()),
                           QStringLiteral("average linkage"));
    m_analysis->addLinkage(QStringLiteral("chain"), std::make_shared<const Linkage>(test::chainTree(32)));
    m_analysis->addLabeling(QStringLiteral("truth"), labels([](int i) { return i / 8; }));
    m_analysis->addLabeling(QStringLiteral("halves"), labels([](int i) { return i / 16; }));

    m_dendrogram = std::make_unique<DendrogramPanel>(m_runner.get(), m_analysis.get());
    m_dendrogram->setDataSource(m_data, features);
    QSignalSpy treeShown(m_dendrogram.get(), &DendrogramPanel::treeShown);
    m_dendrogram->showLinkage(QStringLiteral("groups"));
    QTRY_VERIFY_WITH_TIMEOUT(treeShown.count() > 0, kJobTimeoutMs);

    m_dpc = std::make_unique<DpcPanel>(m_runner.get(), m_analysis.get());
    m_dpc->setDataSource(m_data, features);
    m_dpc->run();
    QTRY_VERIFY_WITH_TIMEOUT(m_dpc->lastRun() != nullptr, kJobTimeoutMs);
    m_dpc->applyTopK(4);

    m_vat = std::make_unique<VatPanel>(m_runner.get(), m_analysis.get());
    m_vat->setDataSource(m_data, features);
    m_vat->setBackend(Backend::Cpu);
    m_vat->run();
    QTRY_VERIFY_WITH_TIMEOUT(m_vat->lastRun() != nullptr, kJobTimeoutMs);

    m_heights = std::make_unique<HeightsView>(m_runner.get(), m_analysis.get());
    m_heights->setDataFile(m_dataPath);
    m_heights->setLinkages(QStringLiteral("groups"), QStringLiteral("chain"));
    QTRY_VERIFY_WITH_TIMEOUT(m_heights->comparison() != nullptr, kJobTimeoutMs);

    m_flat = std::make_unique<FlatComparisonView>(m_runner.get(), m_analysis.get());
    m_flat->setDataFile(m_dataPath);
    m_flat->setLabelings(QStringLiteral("truth"), QStringLiteral("halves"));
    QTRY_VERIFY_WITH_TIMEOUT(m_flat->comparison() != nullptr, kJobTimeoutMs);

    Session gated;
    gated.data.n = m_data->n;
    gated.populations = {
        {"groups 0-1", "", "#aa3311", true, "", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
        {"group 1", "groups 0-1", "#1133aa", true, "", {8, 9, 10, 11, 12, 13, 14, 15}}};
    m_statistics = std::make_shared<const PopulationStatistics>(populationStatistics(gated, *m_data, features));
    QCOMPARE(m_statistics->rows.size(), std::size_t{2});
}

void FigureExportDialogTest::cleanupTestCase() {
    m_flat.reset();
    m_heights.reset();
    m_vat.reset();
    m_dpc.reset();
    m_dendrogram.reset();
    m_scatter.reset();
    m_runner.reset();
}

std::vector<FigureExportSource> FigureExportDialogTest::sources() const {
    return {scatterExportSource(m_scatter.get(), m_data, ScatterAxes{}, QString()),
            m_dendrogram->figureExportSource(),
            m_dpc->decisionExportSource(),
            m_dpc->gammaExportSource(),
            m_vat->figureExportSource(),
            m_heights->figureExportSource(),
            m_flat->figureExportSource(),
            populationStatisticsSource(m_statistics, *m_data, m_dir.filePath(QStringLiteral("gated.clusterlens")))};
}

void FigureExportDialogTest::checkFile(const FigureExportSource& source, const QString& path) {
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    const QByteArray bytes = file.readAll();
    const QByteArray hash = QByteArray::fromStdString(m_hash);
    const QByteArray plot = "clusterlens-cli plot " + source.command.value(2).toUtf8();
    QByteArray metadata;
    if (path.endsWith(QLatin1String(".png")) || path.endsWith(QLatin1String(".tif"))) {
        const auto [text, width] =
            path.endsWith(QLatin1String(".png")) ? pngTextAndWidth(bytes) : tiffTextAndWidth(bytes);
        QCOMPARE(width, 2008u);  // 85 mm at 600 dpi
        metadata = text;
    } else if (path.endsWith(QLatin1String(".pdf"))) {
        const auto box = QRegularExpression(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([\\d.]+)"))
                             .match(QString::fromLatin1(bytes));
        QVERIFY(box.hasMatch());
        QVERIFY(std::abs(box.captured(1).toDouble() - 240.945) < 0.05);
        metadata = bytes.mid(bytes.lastIndexOf("/Title"));
    } else {
        QXmlStreamReader xml(bytes);
        bool inMetadata = false;
        QString title;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("svg"))
                QCOMPARE(xml.attributes().value(QLatin1String("width")).toString(), QStringLiteral("85mm"));
            if (xml.isStartElement() && xml.name() == QLatin1String("title") && title.isEmpty())
                title = xml.readElementText();
            if (xml.name() == QLatin1String("metadata")) inMetadata = xml.isStartElement();
            if (inMetadata && xml.isCharacters()) metadata += xml.text().toUtf8() + '\n';
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(title, kTitle);
    }
    QVERIFY2(metadata.contains(kTitle.toUtf8()), metadata.constData());
    QVERIFY2(metadata.contains(plot), metadata.constData());
    QVERIFY2(metadata.contains(hash), metadata.constData());
}

void FigureExportDialogTest::everyViewExportsEveryFormatWithItsProvenance() {
    for (const FigureExportSource& source : sources()) {
        QVERIFY2(source.isValid(), qPrintable(source.title));
        for (const QString& suffix :
             {QStringLiteral("png"), QStringLiteral("tif"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
            FigureExportDialog dialog(source);
            dialog.setPath(m_dir.filePath(source.suggestedName + QStringLiteral(".png")));
            dialog.setFormat(suffix);
            QCOMPARE(QFileInfo(dialog.path()).suffix(), suffix);
            dialog.setSizeMillimetres(85.0, 70.0);
            dialog.setDpi(600);
            dialog.setTitleText(kTitle);
            dialog.setViewOnly(true);  // views without the choice ignore it
            QString error;
            QVERIFY2(dialog.exportNow(&error), qPrintable(source.title + QStringLiteral(": ") + error));
            checkFile(source, dialog.path());
        }
    }
}

void FigureExportDialogTest::presetsAndFormatFollowTheChoices() {
    FigureExportDialog dialog(m_dendrogram->figureExportSource());
    // The single-column preset is the default: 85 mm wide, the figure's own aspect ratio.
    QCOMPARE(dialog.options().unit, FigureUnit::Millimetres);
    QCOMPARE(dialog.options().size.width(), FigureExportDialog::singleColumnMm);
    QCOMPARE(qRound(dialog.options().size.height()), qRound(85.0 * 560 / 900));
    dialog.setPath(m_dir.filePath(QStringLiteral("tree.pdf")));
    QCOMPARE(dialog.path().right(4), QStringLiteral(".pdf"));
    dialog.setFormat(QStringLiteral("svg"));
    QCOMPARE(dialog.path().right(4), QStringLiteral(".svg"));
    dialog.setSizePixels(640, 400);
    QCOMPARE(dialog.options().unit, FigureUnit::Pixels);
    QCOMPARE(dialog.options().size, QSizeF(640, 400));
    // A folder that does not exist: a clear error, no file.
    dialog.setPath(m_dir.filePath(QStringLiteral("missing/tree.svg")));
    QString error;
    QVERIFY(!dialog.exportNow(&error));
    QVERIFY2(error.contains(QStringLiteral("tree.svg")), qPrintable(error));
    QVERIFY(!QFileInfo::exists(dialog.path()));
}

void FigureExportDialogTest::clipboardAndMethodsText() {
    FigureExportDialog dialog(m_dpc->decisionExportSource());
    dialog.setSizePixels(500, 400);
    dialog.copyToClipboard();
    const QImage copied = QApplication::clipboard()->image();
    QCOMPARE(copied.size(), QSize(500, 400));
    dialog.copyMethods();
    const QString methods = QApplication::clipboard()->text();
    QVERIFY2(methods.contains(QStringLiteral("Rodriguez A, Laio A")), qPrintable(methods));
    QVERIFY2(methods.contains(QStringLiteral("4 points of high \u03c1 and high \u03b4")), qPrintable(methods));
    QVERIFY(methods.contains(QStringLiteral("ClusterLens ")));
}

void FigureExportDialogTest::methodsTextOfAnIvatImageCitesThePapers() {
    // Checked against the VAT and iVAT papers (the references of seeds/vat-gpu-paper.txt) and DESIGN.md's
    // iVAT: the minimax path distance, from the VAT order's minimum spanning tree.
    const QString expected =
        QStringLiteral(
            "The cluster tendency of 6,062 points was shown as an iVAT image [2]: the euclidean dissimilarities "
            "reordered by VAT [1], each replaced by the largest edge on the minimum-spanning-tree path between its "
            "two points, computed from the VAT order as in [3]. Figures were drawn with %1.\n"
            "\n"
            "References\n"
            "1. Bezdek JC, Hathaway RJ. VAT: a tool for visual assessment of (cluster) tendency. Proc. IJCNN "
            "3:2225\u20132230 (2002).\n"
            "2. Wang L, Nguyen UTV, Bezdek JC, Leckie CA, Ramamohanarao K. iVAT and aVAT: enhanced visual analysis for "
            "cluster tendency assessment. Proc. PAKDD, LNCS 6118:16\u201327 (2010).\n"
            "3. Havens TC, Bezdek JC. An efficient formulation of the improved visual assessment of cluster tendency "
            "(iVAT) algorithm. IEEE Trans Knowl Data Eng 24(5):813\u2013822 (2012).")
            .arg(applicationSignature());
    QCOMPARE(vatMethods(6062, QStringLiteral("euclidean"), true), expected);
    // Point heights as the thesis defines them (def. 20), cited; a greedy matching does not cite Kuhn.
    const QString heights = pointHeightsMethods(QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("r = 0.9"));
    QVERIFY2(heights.contains(QStringLiteral("sum of the heights of all merges whose cluster contains it")),
             qPrintable(heights));
    QVERIFY2(heights.contains(QStringLiteral("\u0160melko A. Mahalanobis based hierarchical clustering accelerated on "
                                             "GPU. Master thesis, Charles University, Prague (2020).")),
             qPrintable(heights));
    const QString greedy =
        flatComparisonMethods(QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("ARI 1"), true);
    QVERIFY2(greedy.contains(QStringLiteral("greedy")) && !greedy.contains(QStringLiteral("Kuhn")), qPrintable(greedy));
    const QString mhca = hierarchicalMethods(100, QStringLiteral("MHCA FMD; threshold 0.5; cpu:2 threads"), 3);
    QVERIFY2(mhca.contains(QStringLiteral("Cytometry A 81(1):25\u201334 (2012)")), qPrintable(mhca));
    QVERIFY2(!mhca.contains(QStringLiteral("\u0160melko")), qPrintable(mhca));
    QVERIFY(hierarchicalMethods(100, QStringLiteral("MHCA CMD; cuda:NVIDIA H100"), 0)
                .contains(QStringLiteral("\u0160melko")));
}

void FigureExportDialogTest::styleChoicesReachTheCommand() {
    FigureExportDialog dialog(m_vat->figureExportSource());
    dialog.setPath(m_dir.filePath(QStringLiteral("vat.png")));
    dialog.setPalette(PaletteKind::OkabeIto);
    dialog.setLegendPosition(LegendPosition::None);
    dialog.setFontScale(1.5);
    dialog.setTransparent(true);
    dialog.setAxisLabels(QStringLiteral("order"), QStringLiteral("order"));
    const FigureStyle style = dialog.style();
    QCOMPARE(style.palette, PaletteKind::OkabeIto);
    QCOMPARE(style.legend, LegendPosition::None);
    QCOMPARE(style.fontScale, 1.5);
    QVERIFY(style.transparent);
    const QString command = dialog.options().provenance.command;
    for (const char* word : {"--palette okabe-ito", "--legend none", "--font-scale 1.5", "--background transparent",
                             "--width-mm 85", "--dpi 600", "--image ivat"})
        QVERIFY2(command.contains(QLatin1String(word)), qPrintable(command));
    QVERIFY2(command.contains(m_dataPath), qPrintable(command));
    QString error;
    QVERIFY2(dialog.exportNow(&error), qPrintable(error));
    const QImage image(dialog.path());
    QCOMPARE(qAlpha(image.pixel(0, 0)), 0);  // transparent background
}

void FigureExportDialogTest::largeScatterIsOneImageNotAnObjectPerPoint() {
    auto data = std::make_shared<Dataset>();
    data->n = 300'000;
    data->d = 2;
    data->features = {"CD3", "CD4"};
    std::mt19937_64 random(kSeed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (std::size_t i = 0; i < 2 * data->n; ++i) data->values.push_back(normal(random));
    ScatterRequest request;
    request.dataset = data;
    auto scatter = std::make_shared<const ScatterData>(prepareScatter(request));
    const ScatterFigure figure(scatter, ScatterFigureOptions{});
    QVERIFY(figure.drawsImage());
    const QString svg = m_dir.filePath(QStringLiteral("large.svg")), pdf = m_dir.filePath(QStringLiteral("large.pdf"));
    exportFigure(figure, svg, FigureExportOptions(QSizeF(85, 70), 300, FigureUnit::Millimetres));
    exportFigure(figure, pdf, FigureExportOptions(QSizeF(85, 70), 300, FigureUnit::Millimetres));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QCOMPARE(text.count("<image"), 1);
    QVERIFY2(text.count("<path") + text.count("<circle") < 100, "the points must not be vector objects");
    QVERIFY(QFileInfo(pdf).size() < 3'000'000);
}

void FigureExportDialogTest::composedFigureHasItsPanelsLettered() {
    FigureComposerDialog composer(sources());
    composer.setChosen({0, 2, 4, 7});  // scatter, decision graph, VAT, population statistics
    composer.setColumns(2);
    const FigureExportSource source = composer.composedSource();
    QVERIFY(source.isValid());
    for (const QString& suffix : {QStringLiteral("svg"), QStringLiteral("pdf")}) {
        FigureExportDialog dialog(source);
        dialog.setPath(m_dir.filePath(QStringLiteral("composed.") + suffix));
        dialog.setWidthMillimetres(FigureExportDialog::doubleColumnMm);
        QString error;
        QVERIFY2(dialog.exportNow(&error), qPrintable(error));
    }
    QFile svgFile(m_dir.filePath(QStringLiteral("composed.svg")));
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(svgFile.readAll());
    QStringList texts;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    for (const QString& expected :
         {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"), QStringLiteral("D"), QStringLiteral("groups"),
          QStringLiteral("Decision graph"), QStringLiteral("north"), QStringLiteral("Population statistics"),
          QStringLiteral("groups 0-1"), QStringLiteral("group 1")})
        QVERIFY2(texts.contains(expected),
                 qPrintable(expected + QStringLiteral(" missing from ") + texts.join(QLatin1Char('|'))));
    QVERIFY(!texts.contains(QStringLiteral("E")));
    QFile pdfFile(m_dir.filePath(QStringLiteral("composed.pdf")));
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    const QByteArray pdf = pdfFile.readAll();
    const auto box =
        QRegularExpression(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([\\d.]+)")).match(QString::fromLatin1(pdf));
    QVERIFY(box.hasMatch());
    QVERIFY(std::abs(box.captured(1).toDouble() - 180.0 / 25.4 * 72.0) < 0.05);  // 510.2 pt, double column
    QVERIFY(pdf.contains("/Subtype /Image"));                                    // the VAT panel's image
    QVERIFY(pdf.contains("(A: clusterlens-cli plot scatter"));
    QVERIFY(pdf.contains("B: clusterlens-cli dpc") && pdf.contains("clusterlens-cli plot decision"));
    QVERIFY(pdf.contains("C: clusterlens-cli plot vat"));
    QVERIFY(pdf.contains("D: clusterlens-cli plot populations"));
    // Where poppler's pdftotext is installed, the page's own text shows the three panels and their letters.
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (!pdftotext.isEmpty()) {
        QProcess process;
        process.start(pdftotext, {m_dir.filePath(QStringLiteral("composed.pdf")), QStringLiteral("-")});
        QVERIFY(process.waitForFinished(30'000));
        const QStringList words =
            QString::fromUtf8(process.readAllStandardOutput()).split(QRegularExpression(QStringLiteral("\\s+")));
        for (const QString& expected : {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"),
                                        QStringLiteral("D"), QStringLiteral("north")})
            QVERIFY2(words.contains(expected),
                     qPrintable(expected + QStringLiteral(" missing from the PDF: ") + words.join(QLatin1Char(' '))));
        // The population statistics panel: its title and its rows (a population and the one inside it).
        const QString page = words.join(QLatin1Char(' '));
        for (const QString& phrase : {QStringLiteral("Decision graph"), QStringLiteral("Population statistics"),
                                      QStringLiteral("groups 0-1"), QStringLiteral("group 1")})
            QVERIFY2(page.contains(phrase), qPrintable(phrase + QStringLiteral(" missing from the PDF: ") + page));
    }
    QVERIFY(pdf.contains(QByteArray::fromStdString("sha256:" + m_hash)));
}

CLUSTERLENS_GUI_TEST_MAIN(FigureExportDialogTest)
#include "figure_export_dialog_test.moc"
