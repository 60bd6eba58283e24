// The command a figure's metadata carries regenerates it: the DPC panel's decision graph and γ-rank
// plot, of a run on all events and of a run on a population, and the Charts dock's cluster sizes and
// merge-height profile of a stored tree, exported through the figure dialog while the session that
// stores the result is saved; the VAT image and the dendrogram with three colour strips (a labeling,
// the populations, a marker) and the scatter's zoomed view ("only what is in view"); the
// `clusterlens-cli plot ... --session FILE --name ...`
// read back from the SVG's metadata, run as a shell command, writes the same SVG (besides the
// metadata) and, for PNG, the same pixels.

#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QCheckBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextStream>

#include <memory>

#include "analysis_session.hpp"
#include "charts/charts_panel.hpp"
#include "colour_strip_chooser.hpp"
#include "compare/flat_view.hpp"
#include "compare/heights_view.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/session/session_data.hpp"
#include "clusterlens/session/session_file.hpp"
#include "dpc/dpc_panel.hpp"
#include "dpc/peak_choice.hpp"
#include "dpc_test_support.hpp"
#include "figure/figure_export_dialog.hpp"
#include "figure/figure_export_source.hpp"
#include "gui_test_main.hpp"
#include "regenerate_support.hpp"
#include "jobs/job_runner.hpp"
#include "populations/population_ops.hpp"
#include "populations/run_on_choice.hpp"
#include "scatter/scatter_export.hpp"
#include "scatter/scatter_widget.hpp"
#include "session/session_recorder.hpp"
#include "session/session_results.hpp"
#include "vat/vat_panel.hpp"
#include "vat/vat_run.hpp"
#include "vat/vat_widget.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr int kJobTimeoutMs = 60'000;
constexpr const char* kThirds = "thirds";
/// The --strip words the three strips of chooseStrips() give the session's command.
constexpr const char* kStripWords = "--strip thirds --strip populations --strip marker:y";

/// Stores in `session` (replacing entries of the same names) the labeling "thirds" (event i in cluster
/// i % 3) and the population "blob A" (every third event from 0), and shows them in `analysis` with
/// the populations labeling the Populations dock makes.
void addStripResults(Session& session, AnalysisSession& analysis) {
    LabelingResult thirds;
    thirds.info.name = kThirds;
    for (std::size_t i = 0; i < session.data.n; ++i) thirds.labels.push_back(static_cast<std::int32_t>(i % 3));
    Population blob;
    blob.name = "blob A";
    blob.colour = "#d62728";
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(session.data.n); i += 3) blob.members.push_back(i);
    std::erase_if(session.labelings, [](const LabelingResult& l) { return l.info.name == kThirds; });
    std::erase_if(session.populations, [&](const Population& p) { return p.name == blob.name; });
    session.labelings.push_back(thirds);
    session.populations.push_back(blob);
    analysis.addLabeling(QString::fromLatin1(kThirds), std::make_shared<const LabelVector>(thirds.labels));
    PopulationLabels drawn = populationLabels(session);
    auto style = std::make_shared<LabelStyle>();
    style->colours = drawn.colours;
    style->names = drawn.names;
    analysis.setLabelingStyle(SessionRecorder::populationsLabeling(), style);
    analysis.addLabeling(SessionRecorder::populationsLabeling(), drawn.labels);
}

/// Strips of the labeling "thirds", the populations and the marker y, in this order.
void chooseStrips(ColourStripChooser* chooser) {
    chooser->setStrip(0, ColourMode::Labels, QString::fromLatin1(kThirds));
    chooser->setStrip(1, ColourMode::Labels, SessionRecorder::populationsLabeling());
    chooser->setStrip(2, ColourMode::Marker, QStringLiteral("y"));
}

}  // namespace

class FigureRegenerateTest : public clusterlens::test::DpcBlobsPanelTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { delete m_panel; }
    void decisionGraphOfAllEventsRegenerates() { checkRegenerates(QStringLiteral("all"), true); }
    void decisionGraphWithThresholdLinesRegenerates();
    void gammaPlotOfAllEventsRegenerates() { checkRegenerates(QStringLiteral("all"), false); }
    void decisionGraphOfAPopulationRegenerates();
    void chartsOfATreeRegenerate();
    void dendrogramOfAStoredTreeRegenerates();
    void comparisonsOfStoredResultsRegenerate();
    void scatterColouredByAStoredLabelingRegenerates();
    void vatImageOfAStoredOrderRegenerates();
    void vatImageWithColourStripsRegenerates();
    void dendrogramWithColourStripsRegenerates();
    void zoomedScatterRegenerates();
    void markerHistogramsOfStoredPopulationsRegenerate();

private:
    /// clusterlens-cli ARGUMENTS --session treeSession(); whether it exited 0.
    bool runCli(const QStringList& arguments);
    QString treeSession() const { return m_dir.filePath(QStringLiteral("tree.clusterlens")); }
    /// An average-linkage tree of the blobs stored as "average tree" in treeSession() by `hca --session`.
    Linkage storeTree();
    void runDpc();
    /// Stores the panel's run (and `population`) in the session file, exports the decision graph or
    /// γ plot as SVG and PNG, runs the metadata's command and compares.
    void checkRegenerates(const QString& tag, bool decision, const Population* population = nullptr);
    /// The scatter of the stored k-means labeling "k3", whole or `zoomed` in, regenerates.
    void checkScatterRegenerates(bool zoomed);
    /// A VAT panel that has ordered the blobs, its data read from m_dataPath.
    std::unique_ptr<VatPanel> vatPanel(AnalysisSession& analysis);
    /// Shows `panel`, waits for its image's contrast levels and checks "hold contrast"; false if any fails.
    static bool holdContrast(VatPanel& panel);

    QTemporaryDir m_dir;
    QString m_dataPath, m_sessionPath;
};

void FigureRegenerateTest::initTestCase() {
    showPanel();
    if (QTest::currentTestFailed()) return;
    // The blobs as a file, the session's data: 9 significant digits read back as the same floats.
    m_dataPath = m_dir.filePath(QStringLiteral("blobs.csv"));
    QVERIFY(test::writeXyCsv(*m_data, m_dataPath));
    QCOMPARE(prepareData(readDataset(m_dataPath.toStdString()), {}).values, m_data->values);
    m_sessionPath = m_dir.filePath(QStringLiteral("work.clusterlens"));
    runDpc();
}

void FigureRegenerateTest::runDpc() {
    QSignalSpy shown(m_panel, &DpcPanel::resultShown);
    m_panel->run();
    QVERIFY(shown.wait(kJobTimeoutMs));
    m_panel->peakChoice()->chooseTopK(3);
    QCOMPARE(m_panel->peakChoice()->peaks().size(), std::size_t{3});
}

void FigureRegenerateTest::checkRegenerates(const QString& tag, bool decision, const Population* population) {
    const std::shared_ptr<const DpcRun> run = m_panel->lastRun();
    QVERIFY(run);
    Session session;
    session.data = describeDataFile(m_dataPath.toStdString(), {}, *m_data);
    session.dpc.push_back(dpcResult(dpcResultName(*run), *run, m_panel->peakChoice()->peaks(),
                                    m_panel->currentLabels().get(), QString()));
    if (population) session.populations.push_back(*population);
    writeSession(m_sessionPath.toStdString(), session);
    setFigureSessionFile(m_sessionPath);
    const FigureExportSource source = decision ? m_panel->decisionExportSource() : m_panel->gammaExportSource();
    test::regenerateAndCompare(m_dir.path(), source, tag,
                               decision ? QStringLiteral("decision") : QStringLiteral("gamma"),
                               population ? QStringLiteral("--population") : QStringLiteral("--name"));
    setFigureSessionFile(QString());
}

bool FigureRegenerateTest::runCli(const QStringList& arguments) {
    QProcess cli;
    cli.start(QStringLiteral(CLUSTERLENS_CLI), arguments + QStringList{QStringLiteral("--session"), treeSession()});
    return cli.waitForFinished(kJobTimeoutMs) && cli.exitCode() == 0;
}

Linkage FigureRegenerateTest::storeTree() {
    const QString out = QStringLiteral("--out");
    if (!runCli({QStringLiteral("hca"), m_dataPath, QStringLiteral("--linkage"), QStringLiteral("average"),
                 QStringLiteral("--backend"), QStringLiteral("cpu"), out, m_dir.filePath(QStringLiteral("tree.csv")),
                 QStringLiteral("--name"), QStringLiteral("average tree")}))
        return {};
    return readSession(treeSession().toStdString()).linkages.at(0).linkage;
}

void FigureRegenerateTest::chartsOfATreeRegenerate() {
    // An average-linkage tree stored in a session by the command line, cut into 3 as the dendrogram does.
    const Linkage linkage = storeTree();
    QCOMPARE(linkage.leafCount, m_data->n);
    const auto layout = std::make_shared<const DendrogramLayout>(buildDendrogramLayout(linkage));
    const auto cut = std::make_shared<const DendrogramCut>(cutIntoPopulations(linkage, *layout, 3, 5));
    ChartsPanel charts;
    charts.setCut(layout, cut, QStringLiteral("average tree"));
    setFigureSessionFile(treeSession());
    test::regenerateAndCompare(m_dir.path(), charts.figureExportSource(ChartsPanel::SizesPage), QStringLiteral("sizes"),
                               QStringLiteral("sizes"), QStringLiteral("--cut-k 3"));
    test::regenerateAndCompare(m_dir.path(), charts.figureExportSource(ChartsPanel::ProfilePage),
                               QStringLiteral("profile"), QStringLiteral("merge-heights"),
                               QStringLiteral("--name 'average tree'"));
    setFigureSessionFile(QString());
}

void FigureRegenerateTest::dendrogramOfAStoredTreeRegenerates() {
    const Linkage linkage = storeTree();
    QCOMPARE(linkage.leafCount, m_data->n);
    AnalysisSession analysis;
    DendrogramPanel panel(m_runner, &analysis);
    panel.resize(900, 700);
    // The data as read from its file, which the clustermap's --heatmap names.
    auto read = std::make_shared<Dataset>(*m_data);
    read->provenance.path = m_dataPath.toStdString();
    panel.setDataSource(read, {QStringLiteral("x"), QStringLiteral("y")});
    analysis.addLinkage(QStringLiteral("average tree"), std::make_shared<const Linkage>(linkage));
    panel.showLinkage(QStringLiteral("average tree"));
    panel.setMinClusterSize(5);
    panel.setClusterCount(3);
    setFigureSessionFile(treeSession());
    test::regenerateAndCompare(m_dir.path(), panel.figureExportSource(), QStringLiteral("dendrogram"),
                               QStringLiteral("dendrogram"), QStringLiteral("--min-cluster-size 5"));
    // Subtrees collapsed in the view are collapsed in the command's figure too.
    const auto n = static_cast<std::int32_t>(linkage.leafCount);
    panel.widget()->toggleCollapsed(n + 10);
    panel.widget()->toggleCollapsed(2 * n - 5);
    test::regenerateAndCompare(m_dir.path(), panel.figureExportSource(), QStringLiteral("dendrogram-collapsed"),
                               QStringLiteral("dendrogram"),
                               QStringLiteral("--collapse %1,%2").arg(n + 10).arg(2 * n - 5));
    QVERIFY(test::withoutMetadata(test::readText(m_dir.filePath(QStringLiteral("dendrogram-collapsed-gui.svg")))) !=
            test::withoutMetadata(test::readText(m_dir.filePath(QStringLiteral("dendrogram-gui.svg")))));
    // An MHCA tree stored by the command line shows its threshold-size marks, and its command draws them.
    QVERIFY(runCli({QStringLiteral("hca"), m_dataPath, QStringLiteral("--linkage"), QStringLiteral("mahalanobis"),
                    QStringLiteral("--threshold"), QStringLiteral("0.3"), QStringLiteral("--backend"),
                    QStringLiteral("cpu"), QStringLiteral("--out"), m_dir.filePath(QStringLiteral("mhca.csv"))}));
    const QString mhca = QStringLiteral("MHCA full t=0.3");
    for (const LinkageResult& stored : readSession(treeSession().toStdString()).linkages)
        if (stored.info.name == mhca.toStdString())
            analysis.addLinkage(mhca, std::make_shared<const Linkage>(stored.linkage));
    panel.showLinkage(mhca);
    QVERIFY(panel.widget()->thresholdMarks());
    test::regenerateAndCompare(m_dir.path(), panel.figureExportSource(), QStringLiteral("dendrogram-marks"),
                               QStringLiteral("dendrogram"), QStringLiteral("--threshold-marks 0.3"));
    // Unmarked, the figure differs: a command without the option would not reproduce the marked one.
    panel.widget()->setThresholdMarksShown(false);
    test::regenerateAndCompare(m_dir.path(), panel.figureExportSource(), QStringLiteral("dendrogram-unmarked"),
                               QStringLiteral("dendrogram"), QStringLiteral("--name"));
    QVERIFY(test::withoutMetadata(test::readText(m_dir.filePath(QStringLiteral("dendrogram-marks-gui.svg")))) !=
            test::withoutMetadata(test::readText(m_dir.filePath(QStringLiteral("dendrogram-unmarked-gui.svg")))));
    setFigureSessionFile(QString());
}

void FigureRegenerateTest::comparisonsOfStoredResultsRegenerate() {
    // Two trees and two k-means labelings stored by the command line, compared in the views.
    QCOMPARE(storeTree().leafCount, m_data->n);
    const QString out = QStringLiteral("--out");
    QVERIFY(runCli({QStringLiteral("hca"), m_dataPath, QStringLiteral("--linkage"), QStringLiteral("ward"), out,
                    m_dir.filePath(QStringLiteral("ward.csv")), QStringLiteral("--name"), QStringLiteral("ward")}));
    for (const char* k : {"2", "3"})
        QVERIFY(runCli({QStringLiteral("kmeans"), m_dataPath, QStringLiteral("-k"), QString::fromLatin1(k),
                        QStringLiteral("--labels-out"), m_dir.filePath(QStringLiteral("k.csv")),
                        QStringLiteral("--name"), QStringLiteral("k") + QString::fromLatin1(k)}));
    const Session stored = readSession(treeSession().toStdString());
    AnalysisSession analysis;
    for (const LinkageResult& tree : stored.linkages)
        analysis.addLinkage(QString::fromStdString(tree.info.name), std::make_shared<const Linkage>(tree.linkage));
    for (const LabelingResult& labeling : stored.labelings)
        analysis.addLabeling(QString::fromStdString(labeling.info.name),
                             std::make_shared<const LabelVector>(labeling.labels));
    setFigureSessionFile(treeSession());
    HeightsView heights(m_runner, &analysis);
    QSignalSpy heightsReady(&heights, &HeightsView::comparisonReady);
    heights.setLinkages(QStringLiteral("average tree"), QStringLiteral("ward"));
    QVERIFY(heightsReady.count() > 0 || heightsReady.wait(kJobTimeoutMs));
    test::regenerateAndCompare(m_dir.path(), heights.figureExportSource(), QStringLiteral("heights"),
                               QStringLiteral("heights"), QStringLiteral("--name2 ward"));
    FlatComparisonView flat(m_runner, &analysis);
    QSignalSpy flatReady(&flat, &FlatComparisonView::comparisonReady);
    flat.setLabelings(QStringLiteral("k3"), QStringLiteral("k2"));
    QVERIFY(flatReady.count() > 0 || flatReady.wait(kJobTimeoutMs));
    test::regenerateAndCompare(m_dir.path(), flat.figureExportSource(), QStringLiteral("contingency"),
                               QStringLiteral("contingency"), QStringLiteral("--name2 k2"));
    setFigureSessionFile(QString());
}

void FigureRegenerateTest::scatterColouredByAStoredLabelingRegenerates() {
    checkScatterRegenerates(false);
}

void FigureRegenerateTest::zoomedScatterRegenerates() {
    checkScatterRegenerates(true);
}

void FigureRegenerateTest::checkScatterRegenerates(bool zoomed) {
    QVERIFY(runCli({QStringLiteral("kmeans"), m_dataPath, QStringLiteral("-k"), QStringLiteral("3"),
                    QStringLiteral("--labels-out"), m_dir.filePath(QStringLiteral("k.csv")), QStringLiteral("--name"),
                    QStringLiteral("k3")}));
    const Session stored = readSession(treeSession().toStdString());
    const LabelingResult* labeling = findNamed(stored.labelings, "k3");
    QVERIFY(labeling);
    auto read = std::make_shared<Dataset>(*m_data);
    read->provenance.path = m_dataPath.toStdString();
    ScatterWidget widget;
    widget.resize(600, 500);
    ScatterRequest request;
    request.dataset = read;
    request.labels = std::make_shared<const LabelVector>(labeling->labels);
    request.mode = ColourMode::Labels;
    widget.setData(std::make_shared<const ScatterData>(prepareScatter(request)));
    if (zoomed) {
        widget.zoomAt(QPointF(250, 220), 2.5);
        widget.panByPixels(QPointF(37, -21));
        QVERIFY(widget.viewWindow().x1() - widget.viewWindow().x0() < 0.5);
    }
    const QString tag = zoomed ? QStringLiteral("scatter-zoom") : QStringLiteral("scatter");
    setFigureSessionFile(treeSession());
    test::regenerateAndCompare(m_dir.path(), scatterExportSource(&widget, read, ScatterAxes{}, QStringLiteral("k3")),
                               tag, QStringLiteral("scatter"),
                               zoomed ? QStringLiteral("--xlim") : QStringLiteral("--name k3"), zoomed);
    setFigureSessionFile(QString());
    // The zoomed figure names the points in view, which the whole one does not.
    const QString svg = test::readText(m_dir.filePath(tag + QStringLiteral("-gui.svg")));
    QCOMPARE(svg.contains(QStringLiteral(" in view)")), zoomed);
}

std::unique_ptr<VatPanel> FigureRegenerateTest::vatPanel(AnalysisSession& analysis) {
    auto read = std::make_shared<Dataset>(*m_data);
    read->provenance.path = m_dataPath.toStdString();
    auto panel = std::make_unique<VatPanel>(m_runner, &analysis);
    panel->resize(800, 700);
    panel->setDataSource(read, {QStringLiteral("x"), QStringLiteral("y")});
    panel->setBackend(Backend::Cpu);
    QSignalSpy shown(panel.get(), &VatPanel::resultShown);
    panel->run();
    if (!shown.wait(kJobTimeoutMs) || !panel->lastRun()) return nullptr;
    return panel;
}

void FigureRegenerateTest::vatImageWithColourStripsRegenerates() {
    AnalysisSession analysis;
    const std::unique_ptr<VatPanel> panel = vatPanel(analysis);
    QVERIFY(panel);
    Session session;
    session.data = describeDataFile(m_dataPath.toStdString(), {}, *m_data);
    session.vat.push_back(vatEntry(vatEntryName(*panel->lastRun()), *panel->lastRun(), QString()));
    addStripResults(session, analysis);
    const QString path = m_dir.filePath(QStringLiteral("vat-strips.clusterlens"));
    writeSession(path.toStdString(), session);
    chooseStrips(panel->stripChooser());
    QCOMPARE(panel->stripChooser()->strips()->size(), std::size_t{3});
    setFigureSessionFile(path);
    test::regenerateAndCompare(m_dir.path(), panel->figureExportSource(), QStringLiteral("vat-strips"),
                               QStringLiteral("vat"), QString::fromLatin1(kStripWords));
    // The strips are drawn: the figure differs from the one without them.
    for (int slot = 0; slot < maxColourStrips; ++slot) panel->stripChooser()->setStrip(slot, ColourMode::Density, {});
    test::regenerateAndCompare(m_dir.path(), panel->figureExportSource(), QStringLiteral("vat-plain"),
                               QStringLiteral("vat"), QStringLiteral("--name"));
    setFigureSessionFile(QString());
    QVERIFY(test::withoutMetadata(test::readText(m_dir.filePath(QStringLiteral("vat-plain-gui.svg")))) !=
            test::withoutMetadata(test::readText(m_dir.filePath(QStringLiteral("vat-strips-gui.svg")))));
}

void FigureRegenerateTest::dendrogramWithColourStripsRegenerates() {
    const Linkage linkage = storeTree();
    QCOMPARE(linkage.leafCount, m_data->n);
    Session session = readSession(treeSession().toStdString());
    AnalysisSession analysis;
    addStripResults(session, analysis);
    writeSession(treeSession().toStdString(), session);
    DendrogramPanel panel(m_runner, &analysis);
    panel.resize(900, 700);
    auto read = std::make_shared<Dataset>(*m_data);
    read->provenance.path = m_dataPath.toStdString();
    panel.setDataSource(read, {QStringLiteral("x"), QStringLiteral("y")});
    analysis.addLinkage(QStringLiteral("average tree"), std::make_shared<const Linkage>(linkage));
    panel.showLinkage(QStringLiteral("average tree"));
    panel.setClusterCount(3);
    chooseStrips(panel.stripChooser());
    QCOMPARE(panel.stripChooser()->strips()->size(), std::size_t{3});
    setFigureSessionFile(treeSession());
    test::regenerateAndCompare(m_dir.path(), panel.figureExportSource(), QStringLiteral("dendrogram-strips"),
                               QStringLiteral("dendrogram"), QString::fromLatin1(kStripWords));
    setFigureSessionFile(QString());
}

void FigureRegenerateTest::vatImageOfAStoredOrderRegenerates() {
    AnalysisSession analysis;
    const std::unique_ptr<VatPanel> panel = vatPanel(analysis);
    QVERIFY(panel);
    const std::shared_ptr<const VatRun> run = panel->lastRun();
    Session session;
    session.data = describeDataFile(m_dataPath.toStdString(), {}, *m_data);
    session.vat.push_back(vatEntry(vatEntryName(*run), *run, QString()));
    const QString path = m_dir.filePath(QStringLiteral("vat.clusterlens"));
    writeSession(path.toStdString(), session);
    panel->setClusterCount(3);
    setFigureSessionFile(path);
    test::regenerateAndCompare(m_dir.path(), panel->figureExportSource(), QStringLiteral("vat"), QStringLiteral("vat"),
                               QStringLiteral("--cut-k 3"));
    // The view's display settings are part of the command: a VAT image (iVAT draws no block means) at
    // 40 dpi, where a pixel covers several positions.
    VatDisplay shown = panel->display();
    shown.kind = VatImageKind::Vat;
    shown.colormap = Colormap::Viridis;
    shown.mode = VatPixelMode::BlockMean;
    shown.reversed = true;
    shown.gamma = 1.7;
    shown.lowPercent = 2.5;
    shown.highPercent = 97.0;
    panel->setDisplay(shown);
    test::regenerateAndCompare(m_dir.path(), panel->figureExportSource(), QStringLiteral("vat-display"),
                               QStringLiteral("vat"),
                               QStringLiteral("--pixel mean --reverse --gamma 1.7 --clip 2.5,97"), false, 40);
    // Held contrast levels stay when the clip moves: the command carries them besides the new clip.
    QVERIFY(holdContrast(*panel));
    shown.lowPercent = 20.0;
    shown.highPercent = 80.0;
    panel->setDisplay(shown);
    test::regenerateAndCompare(m_dir.path(), panel->figureExportSource(), QStringLiteral("vat-held"),
                               QStringLiteral("vat"), QStringLiteral("--clip 20,80 --levels "));
    setFigureSessionFile(QString());
}

bool FigureRegenerateTest::holdContrast(VatPanel& panel) {
    panel.show();
    auto* widget = panel.findChild<VatWidget*>();
    if (!QTest::qWaitForWindowExposed(&panel) || !widget) return false;
    if (!QTest::qWaitFor([widget] { return widget->levels().second > widget->levels().first; }, kJobTimeoutMs))
        return false;
    for (QCheckBox* box : panel.findChildren<QCheckBox*>())
        if (box->text() == QStringLiteral("hold contrast")) {
            box->setChecked(true);
            return true;
        }
    return false;
}

void FigureRegenerateTest::markerHistogramsOfStoredPopulationsRegenerate() {
    Session session;
    session.data = describeDataFile(m_dataPath.toStdString(), {}, *m_data);
    std::vector<ChartPopulation> shown;
    for (int blob = 0; blob < 2; ++blob) {
        Population population;
        population.name = blob == 0 ? "blob A" : "blob B";
        population.colour = blob == 0 ? "#1f77b4" : "#d62728";
        for (std::int64_t i = blob; i < static_cast<std::int64_t>(m_data->n); i += 3) population.members.push_back(i);
        shown.push_back({QString::fromStdString(population.name), QColor(QString::fromStdString(population.colour)),
                         std::make_shared<const std::vector<std::int64_t>>(population.members)});
        session.populations.push_back(std::move(population));
    }
    const QString path = m_dir.filePath(QStringLiteral("gated.clusterlens"));
    writeSession(path.toStdString(), session);
    ChartsPanel charts;
    charts.setData(m_data);
    charts.setPopulations(shown);
    charts.setMarker(QStringLiteral("x"));
    charts.checkPopulations({QStringLiteral("blob A"), QStringLiteral("blob B")});
    QCOMPARE(charts.histogram().series.size(), std::size_t{2});
    setFigureSessionFile(path);
    test::regenerateAndCompare(m_dir.path(), charts.figureExportSource(ChartsPanel::HistogramPage),
                               QStringLiteral("histograms"), QStringLiteral("histograms"),
                               QStringLiteral("--populations 'blob A,blob B'"));
    setFigureSessionFile(QString());
}

void FigureRegenerateTest::decisionGraphWithThresholdLinesRegenerates() {
    const DensityPeaksResult& r = *m_panel->lastRun()->result;
    const std::vector<std::int64_t> top = peaksTopK(r, 3);
    double rhoMin = 1e300, deltaMin = 1e300;
    for (std::int64_t p : top) {
        rhoMin = std::min(rhoMin, r.rho[static_cast<std::size_t>(p)]);
        deltaMin = std::min(deltaMin, r.delta[static_cast<std::size_t>(p)]);
    }
    m_panel->applyThresholds(rhoMin * 0.9, deltaMin * 0.9);
    QVERIFY(!m_panel->peakChoice()->peaks().empty());
    checkRegenerates(QStringLiteral("thresholds"), true);
    QVERIFY(m_panel->decisionExportSource().sessionCommand.contains(QStringLiteral("--rho-min")));
    m_panel->peakChoice()->chooseTopK(3);
}

void FigureRegenerateTest::decisionGraphOfAPopulationRegenerates() {
    // The first two blobs: the run's points are whole-dataset indices 0,1,3,4,6,7,...
    Population population;
    population.name = "blobs A and B";
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(m_data->n); ++i)
        if (i % 3 != 2) population.members.push_back(i);
    m_analysis->setPopulations(
        {{QString::fromStdString(population.name), std::make_shared<const IndexVector>(population.members)}});
    QVERIFY(m_panel->runOn()->setPopulation(QString::fromStdString(population.name)));
    runDpc();
    QCOMPARE(m_panel->lastRun()->scope.population, QString::fromStdString(population.name));
    checkRegenerates(QStringLiteral("population"), true, &population);
}

CLUSTERLENS_GUI_TEST_MAIN(FigureRegenerateTest)
#include "figure_regenerate_test.moc"
