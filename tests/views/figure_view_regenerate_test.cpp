// The command a figure of "only what is in view" carries regenerates that part: a zoomed VAT image
// (`plot vat --rows --cols`) and a zoomed dendrogram on a linear and a logarithmic axis
// (`plot dendrogram --leaves --heights`), exported through the figure dialog while the session that
// stores the result is saved, read back from the SVG's metadata and run: the same SVG (besides the
// metadata) and the same PNG pixels. A composed figure of a zoomed scatter, a zoomed VAT image and a
// dendrogram lists each panel's command with its part in view, its own file and its cell's size; the
// scatter's and the VAT image's commands run and write their panels.

#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <memory>

#include "analysis_session.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/session/session_data.hpp"
#include "clusterlens/session/session_file.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dpc_test_support.hpp"
#include "figure/composed_figure.hpp"
#include "figure/figure_composer_dialog.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
#include "regenerate_support.hpp"
#include "scatter/scatter_export.hpp"
#include "scatter/scatter_widget.hpp"
#include "session/session_results.hpp"
#include "vat/vat_panel.hpp"
#include "vat/vat_run.hpp"
#include "vat/vat_widget.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr int kJobTimeoutMs = 60'000;

}  // namespace

class FigureViewRegenerateTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void zoomedVatImageRegenerates();
    void zoomedDendrogramRegenerates() { checkDendrogramRegenerates(false); }
    void zoomedDendrogramOnALogAxisRegenerates() { checkDendrogramRegenerates(true); }
    void composedPanelsCarryTheirPartInView();

private:
    /// A VAT panel that has ordered the blobs, its data read from m_dataPath, zoomed into a block.
    std::unique_ptr<VatPanel> zoomedVatPanel();
    /// The average-linkage tree of the blobs stored as "average tree" in treeSession() by the CLI.
    Linkage storeTree();
    void checkDendrogramRegenerates(bool logHeights);
    QString treeSession() const { return m_dir.filePath(QStringLiteral("tree.clusterlens")); }
    std::shared_ptr<Dataset> readData() const;

    QTemporaryDir m_dir;
    QString m_dataPath;
    std::vector<int> m_truth;
    std::shared_ptr<const Dataset> m_data;
    JobRunner* m_runner = nullptr;
    AnalysisSession* m_analysis = nullptr;
};

void FigureViewRegenerateTest::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_data = test::threeBlobs(m_truth);
    m_runner = new JobRunner(this);
    m_analysis = new AnalysisSession(this);
    // The blobs as a file: 9 significant digits read back as the same floats.
    m_dataPath = m_dir.filePath(QStringLiteral("blobs.csv"));
    QVERIFY(test::writeXyCsv(*m_data, m_dataPath));
    QCOMPARE(prepareData(readDataset(m_dataPath.toStdString()), {}).values, m_data->values);
}

std::shared_ptr<Dataset> FigureViewRegenerateTest::readData() const {
    auto read = std::make_shared<Dataset>(*m_data);
    read->provenance.path = m_dataPath.toStdString();
    return read;
}

std::unique_ptr<VatPanel> FigureViewRegenerateTest::zoomedVatPanel() {
    auto panel = std::make_unique<VatPanel>(m_runner, m_analysis);
    panel->resize(800, 700);
    panel->setDataSource(readData(), {QStringLiteral("x"), QStringLiteral("y")});
    panel->setBackend(Backend::Cpu);
    QSignalSpy shown(panel.get(), &VatPanel::resultShown);
    panel->run();
    if (!shown.wait(kJobTimeoutMs) || !panel->lastRun()) return nullptr;
    // A fractional window across the first two blocks of the order, as zoom and pan leave it.
    panel->widget()->setWindow(97.31, 61.877, 151.4);
    return panel;
}

void FigureViewRegenerateTest::zoomedVatImageRegenerates() {
    const std::unique_ptr<VatPanel> panel = zoomedVatPanel();
    QVERIFY(panel);
    QVERIFY(!panel->widget()->window().isWhole());
    Session session;
    session.data = describeDataFile(m_dataPath.toStdString(), {}, *m_data);
    session.vat.push_back(vatEntry(vatEntryName(*panel->lastRun()), *panel->lastRun(), QString()));
    const QString path = m_dir.filePath(QStringLiteral("vat.clusterlens"));
    writeSession(path.toStdString(), session);
    panel->setClusterCount(3);
    setFigureSessionFile(path);
    test::regenerateAndCompare(m_dir.path(), panel->figureExportSource(), QStringLiteral("vat-zoom"),
                               QStringLiteral("vat"), QStringLiteral("--rows 97.31:"), true);
    test::regenerateAndCompare(m_dir.path(), panel->figureExportSource(), QStringLiteral("vat-whole"),
                               QStringLiteral("vat"), QStringLiteral("--cut-k 3"), false);
    setFigureSessionFile(QString());
    const QString zoomed = test::readText(m_dir.filePath(QStringLiteral("vat-zoom-gui.svg")));
    QVERIFY(test::metadataCommand(zoomed).contains(QStringLiteral("--cols 61.877:")));
    QVERIFY(!test::metadataCommand(test::readText(m_dir.filePath(QStringLiteral("vat-whole-gui.svg"))))
                 .contains(QStringLiteral("--rows")));
    QVERIFY(QImage(m_dir.filePath(QStringLiteral("vat-zoom-gui.png"))) !=
            QImage(m_dir.filePath(QStringLiteral("vat-whole-gui.png"))));
}

Linkage FigureViewRegenerateTest::storeTree() {
    QProcess cli;
    cli.start(QStringLiteral(CLUSTERLENS_CLI),
              {QStringLiteral("hca"), m_dataPath, QStringLiteral("--linkage"), QStringLiteral("average"),
               QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--out"),
               m_dir.filePath(QStringLiteral("tree.csv")), QStringLiteral("--name"), QStringLiteral("average tree"),
               QStringLiteral("--session"), treeSession()});
    if (!cli.waitForFinished(kJobTimeoutMs) || cli.exitCode() != 0) return {};
    return readSession(treeSession().toStdString()).linkages.at(0).linkage;
}

void FigureViewRegenerateTest::checkDendrogramRegenerates(bool logHeights) {
    const Linkage linkage = storeTree();
    QCOMPARE(linkage.leafCount, m_data->n);
    AnalysisSession analysis;
    DendrogramPanel panel(m_runner, &analysis);
    panel.resize(900, 700);
    panel.setDataSource(readData(), {QStringLiteral("x"), QStringLiteral("y")});
    analysis.addLinkage(QStringLiteral("average tree"), std::make_shared<const Linkage>(linkage));
    panel.showLinkage(QStringLiteral("average tree"));
    panel.setClusterCount(3);
    panel.setLogHeights(logHeights);
    DendrogramWidget* widget = panel.widget();
    widget->resize(800, 500);
    const QRectF plot = widget->plotRect();
    // Into the lower left of the tree: some of the first blob's leaves and its lower merges.
    widget->zoomAt(QPointF(plot.left() + 0.2 * plot.width(), plot.bottom() - 0.1 * plot.height()), 4.3, 2.7);
    const DendrogramView& view = widget->view();
    QVERIFY(view.x1() - view.x0() < 0.5 * static_cast<double>(linkage.leafCount));
    // On the log axis, a subtree in view is collapsed too: the part in view is drawn with its triangle.
    std::int32_t collapsed = -1;
    if (logHeights) {
        const DendrogramLayout& layout = *widget->tree();
        const auto middle = static_cast<std::size_t>(0.5 * (view.x0() + view.x1()));
        collapsed = layout.parent[static_cast<std::size_t>(layout.parent[layout.order.at(middle)])];
        widget->toggleCollapsed(collapsed);
    }
    setFigureSessionFile(treeSession());
    const QString tag = logHeights ? QStringLiteral("dendrogram-log-zoom") : QStringLiteral("dendrogram-zoom");
    test::regenerateAndCompare(m_dir.path(), panel.figureExportSource(), tag, QStringLiteral("dendrogram"),
                               QStringLiteral("--heights"), true);
    setFigureSessionFile(QString());
    const QString command = test::metadataCommand(test::readText(m_dir.filePath(tag + QStringLiteral("-gui.svg"))));
    QVERIFY2(command.contains(QStringLiteral("--leaves ")), qPrintable(command));
    QCOMPARE(command.contains(QStringLiteral("--log")), logHeights);
    QCOMPARE(command.contains(QStringLiteral("--collapse %1").arg(collapsed)), logHeights);
}

void FigureViewRegenerateTest::composedPanelsCarryTheirPartInView() {
    auto read = readData();
    ScatterWidget scatter;
    scatter.resize(600, 500);
    ScatterRequest request;
    request.dataset = read;
    scatter.setData(std::make_shared<const ScatterData>(prepareScatter(request)));
    scatter.zoomAt(QPointF(300, 90), 2.5);  // about the top blob
    const std::unique_ptr<VatPanel> vat = zoomedVatPanel();
    QVERIFY(vat);
    const Linkage linkage = storeTree();
    AnalysisSession analysis;
    DendrogramPanel tree(m_runner, &analysis);
    tree.resize(900, 700);
    tree.setDataSource(read, {QStringLiteral("x"), QStringLiteral("y")});
    analysis.addLinkage(QStringLiteral("average tree"), std::make_shared<const Linkage>(linkage));
    tree.showLinkage(QStringLiteral("average tree"));
    FigureComposerDialog composer({scatterExportSource(&scatter, read, ScatterAxes{}, QString()),
                                   vat->figureExportSource(), tree.figureExportSource()});
    composer.setColumns(2);
    const QString svg = m_dir.filePath(QStringLiteral("composed.svg"));
    FigureExportDialog dialog(composer.composedSource());
    dialog.setPath(svg);
    dialog.setWidthMillimetres(FigureExportDialog::doubleColumnMm);
    dialog.setDpi(300);
    dialog.setViewOnly(true);
    QString error;
    QVERIFY2(dialog.exportNow(&error), qPrintable(error));
    const QStringList lines = test::metadataCommand(test::readText(svg)).split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 3);
    QVERIFY2(lines[0].startsWith(QStringLiteral("A: clusterlens-cli plot scatter ")), qPrintable(lines[0]));
    QVERIFY2(lines[1].startsWith(QStringLiteral("B: clusterlens-cli plot vat ")), qPrintable(lines[1]));
    QVERIFY2(lines[2].startsWith(QStringLiteral("C: clusterlens-cli plot dendrogram ")), qPrintable(lines[2]));
    for (const char* words : {"--xlim ", "--ylim "})
        QVERIFY2(lines[0].contains(QLatin1String(words)), qPrintable(lines[0]));
    QVERIFY2(lines[1].contains(QStringLiteral("--rows 97.31:")), qPrintable(lines[1]));
    QVERIFY2(lines[2].contains(QStringLiteral("--leaves ")), qPrintable(lines[2]));
    // Each panel writes a file of its own at its cell's size, in the composed figure's look.
    for (const QString& line : lines) {
        QVERIFY2(line.contains(QStringLiteral("--background transparent")), qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("--width-mm ")) && line.contains(QStringLiteral("--dpi 300")),
                 qPrintable(line));
    }
    // The scatter's and the VAT image's commands read the data file and run as they stand.
    for (int panel = 0; panel < 2; ++panel) {
        const QString letter = ComposedFigure::panelLetter(static_cast<std::size_t>(panel));
        QString command = lines[panel].mid(3);
        QVERIFY2(command.contains(m_dir.filePath(QStringLiteral("composed_%1.svg").arg(letter))), qPrintable(command));
        command.replace(QStringLiteral("composed_%1.svg").arg(letter), QStringLiteral("composed_%1.png").arg(letter));
        command.replace(0, QStringLiteral("clusterlens-cli").size(), QStringLiteral(CLUSTERLENS_CLI));
        QProcess shell;
        shell.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command});
        QVERIFY(shell.waitForFinished(kJobTimeoutMs));
        QVERIFY2(shell.exitCode() == 0, qPrintable(command + QLatin1Char('\n') + shell.readAllStandardError()));
        // Two panels a row across 180 mm at 300 dpi: each a little under 90 mm, 1063 pixels.
        const QImage image(m_dir.filePath(QStringLiteral("composed_%1.png").arg(letter)));
        QVERIFY(image.width() > 950 && image.width() < 1063);
    }
}

CLUSTERLENS_GUI_TEST_MAIN(FigureViewRegenerateTest)

#include "figure_view_regenerate_test.moc"
