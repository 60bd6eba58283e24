// Analyses on populations in the main window, on the demo dataset: k-means from its own dock gives the
// engine's labels for the same seed and is one undoable step; MHCA with a-priori groups from a labeling
// equals the engine run with those groups, and shows them as a labeling; "Analyse this population" runs
// k-means, density peaks (with its halo), VAT and a linkage on the population's events only, with
// whole-dataset indices in every stored result, and save -> open shows them again, the halo included.
// Results of a population stay linked to the data like whole-dataset ones: its tree, VAT order and
// decision graph select whole-dataset events in the scatter and every view, show a selection made
// elsewhere on their members, label and colour-strip the whole dataset (non-members unlabelled), and
// export whole-dataset indices (DPC.csv, ORDER.csv, the cut's labels). The DPC and VAT panels say in
// the panel when the result they show is stale.

#include <QDir>
#include <QDockWidget>
#include <QHeaderView>
#include <QListWidget>
#include <QTreeView>
#include <QTemporaryDir>
#include <QUndoStack>

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/hca/hca.hpp"
#include "clusterlens/io/dpc_csv.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/session/population.hpp"
#include "colour_strip_chooser.hpp"
#include "dataset_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dpc/decision_graph.hpp"
#include "dpc/dpc_run.hpp"
#include "dpc/peak_table_model.hpp"
#include "gui_test_main.hpp"
#include "kmeans/kmeans_panel.hpp"
#include "populations/population_model.hpp"
#include "populations/population_ops.hpp"
#include "populations/run_on_choice.hpp"
#include "populations/scope_mapping.hpp"
#include "session/result_staleness.hpp"
#include "session/session_io.hpp"
#include "session_test_support.hpp"
#include "vat/vat_widget.hpp"
#include "window_grab.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;
using clusterlens::test::kGuiJobTimeoutMs;
using clusterlens::test::openAndWait;
using clusterlens::test::saveAndWait;

namespace {

/// Columns of the active features of `window`'s current dataset, in the panel's order.
std::vector<std::size_t> activeColumns(MainWindow& window) {
    std::vector<std::size_t> columns;
    for (const QString& name : window.datasetPanel()->activeFeatures())
        if (const long c = window.session()->current()->featureIndex(name.toStdString()); c >= 0)
            columns.push_back(static_cast<std::size_t>(c));
    return columns;
}

/// The active-feature rows of `members` (all events when empty) as a dataset, as the clustering sees them.
Dataset clusteredData(MainWindow& window, const Members& members) {
    const Dataset scoped =
        members.empty() ? *window.session()->current() : selectMembers(*window.session()->current(), members);
    const std::vector<std::size_t> columns = activeColumns(window);
    Dataset data;
    data.n = scoped.n;
    data.d = columns.size();
    data.values = featureMatrix(scoped, columns);
    if (!scoped.exact.empty()) {
        data.exact.resize(data.n * data.d);
        for (std::size_t i = 0; i < data.n; ++i)
            for (std::size_t j = 0; j < data.d; ++j)
                data.exact[i * data.d + j] = scoped.exact[i * scoped.d + columns[j]];
    }
    return data;
}

QString runKMeans(MainWindow& window, std::size_t k, std::uint64_t seed) {
    KMeansPanel* panel = window.kmeansPanel();
    KMeansOptions options;
    options.k = k;
    options.seed = seed;
    panel->setOptions(options, Backend::Cpu);
    QSignalSpy added(panel, &KMeansPanel::labelingAdded);
    panel->run();
    if (!QTest::qWaitFor([&] { return added.count() > 0; }, kGuiJobTimeoutMs)) return {};
    return added.first().first().toString();
}

/// Every third event from 500 on: positions among the members differ from indices by no fixed offset.
Members spreadMembers() {
    Members members;
    for (std::int64_t i = 500; i < 5000; i += 3) members.push_back(i);
    return members;
}

/// Gates `members` as the population "spread" and chooses "Analyse this population" on it.
void analysePopulation(MainWindow& window, const Members& members) {
    window.analysis()->setSelection(std::make_shared<IndexVector>(members), nullptr);
    QCOMPARE(window.populationsPanel()->gateSelection(QStringLiteral("spread")), QStringLiteral("spread"));
    window.populationsPanel()->setCurrentPopulation(QStringLiteral("spread"));
    window.populationsPanel()->analyseCurrent();
}

/// The members at ascending positions, as the linked selection holds them.
IndexVector eventsAt(const Members& members, const std::vector<std::int64_t>& positions) {
    IndexVector events;
    for (std::int64_t p : positions) events.push_back(members[static_cast<std::size_t>(p)]);
    std::sort(events.begin(), events.end());
    return events;
}

/// Column `column` of a CSV file with a header, as integers.
std::vector<std::int64_t> csvColumn(const QString& path, std::size_t column) {
    std::ifstream in(path.toStdString());
    std::string line;
    std::getline(in, line);
    std::vector<std::int64_t> values;
    while (std::getline(in, line)) {
        std::istringstream cells(line);
        std::string cell;
        for (std::size_t c = 0; c <= column; ++c) std::getline(cells, cell, ',');
        values.push_back(std::stoll(cell));
    }
    return values;
}

/// The events of `data` inside [x0, x1] x [y0, y1] of features x and y: a rectangle gate.
Members insideRectangle(const Dataset& data, const std::string& x, const std::string& y, double x0, double x1,
                        double y0, double y1) {
    const auto cx = static_cast<std::size_t>(data.featureIndex(x));
    const auto cy = static_cast<std::size_t>(data.featureIndex(y));
    Members members;
    for (std::size_t i = 0; i < data.n; ++i) {
        const double vx = data.at(i, cx), vy = data.at(i, cy);
        if (vx >= x0 && vx <= x1 && vy >= y0 && vy <= y1) members.push_back(static_cast<std::int64_t>(i));
    }
    return members;
}

/// The count column of population `name` as the Populations panel shows it.
QString shownCount(MainWindow& window, const QString& name) {
    PopulationModel* model = window.populationsPanel()->model();
    const QModelIndex index = model->indexOf(name);
    return model->index(index.row(), PopulationModel::CountColumn, index.parent()).data().toString();
}

std::string fileText(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

class AnalysesMainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kmeansFromTheGuiEqualsTheEngineAndIsUndoable();
    void mhcaWithAprioriGroupsFromALabelingEqualsTheEngine();
    void analysesOnAPopulationKeepWholeIndicesAndSurviveSaveOpen();
    void storedHaloIsShownAgainAfterOpen();
    void stripsOfAPopulationAreItsMembersColours();
    void aPopulationsTreeIsLinkedToTheWholeDataset();
    void aPopulationsVatAndDensityPeaksAreLinkedAndExportWholeIndices();
    void densityPeaksAndVatPanelsSayTheirResultIsStale();
    void populationsPanelCountsNestedGatesAndCombinations();
};

void AnalysesMainWindowTest::kmeansFromTheGuiEqualsTheEngineAndIsUndoable() {
    MainWindow window;
    test::openDemo(window);
    const QString name = runKMeans(window, 5, 7);
    QCOMPARE(name, QStringLiteral("k-means k=5 seed 7"));
    const auto labels = window.analysis()->labeling(name);
    QVERIFY(labels);

    const Dataset data = clusteredData(window, {});
    KMeansOptions options;
    options.k = 5;
    options.seed = 7;
    const KMeansResult engine = kmeansCpu(data.values.data(), data.n, data.d, options);
    QCOMPARE(*labels, engine.labels);
    QCOMPARE(window.analysis()->colouring(), name);
    const LabelingResult* stored = findNamed(window.document()->session().labelings, name.toStdString());
    QVERIFY(stored);
    QCOMPARE(stored->labels, engine.labels);
    QVERIFY(stored->info.members.empty());

    window.undoStack()->undo();
    QVERIFY(!window.analysis()->labeling(name));
    QVERIFY(!findNamed(window.document()->session().labelings, name.toStdString()));
    QVERIFY(window.analysis()->colouring() != name);
    window.undoStack()->redo();
    QVERIFY(window.analysis()->labeling(name));
    QCOMPARE(*window.analysis()->labeling(name), engine.labels);
    QVERIFY(findNamed(window.document()->session().labelings, name.toStdString()));
    QCOMPARE(window.analysis()->colouring(), name);
}

void AnalysesMainWindowTest::mhcaWithAprioriGroupsFromALabelingEqualsTheEngine() {
    MainWindow window;
    test::openDemo(window);
    const QString groupsName = runKMeans(window, 4, 3);
    QVERIFY(!groupsName.isEmpty());
    const LabelVector groups = *window.analysis()->labeling(groupsName);

    ClusteringPanel* panel = window.clusteringPanel();
    panel->setLinkage(QStringLiteral("mahalanobis"));
    panel->setBackend(Backend::Cpu);
    panel->setAprioriLabeling(groupsName);
    QSignalSpy added(panel, &ClusteringPanel::linkageAdded);
    panel->run();
    QTRY_VERIFY_WITH_TIMEOUT(added.count() > 0, kGuiJobTimeoutMs);
    const QString name = added.first().first().toString();
    const auto linkage = window.analysis()->linkage(name);
    QVERIFY(linkage);

    HcaRequest request = panel->request();
    request.mhca.apriori.resize(groups.size());
    for (std::size_t i = 0; i < groups.size(); ++i) request.mhca.apriori[i] = groups[i] + 1;
    const Linkage engine = clusterHierarchically(clusteredData(window, {}), request, Backend::Cpu).result;
    QCOMPARE(linkage->leafCount, engine.leafCount);
    QCOMPARE(linkage->merges.size(), engine.merges.size());
    for (std::size_t m = 0; m < engine.merges.size(); ++m) {
        QCOMPARE(linkage->merges[m].a, engine.merges[m].a);
        QCOMPARE(linkage->merges[m].b, engine.merges[m].b);
        QCOMPARE(linkage->merges[m].height, engine.merges[m].height);
    }
    // The groups used are a labeling of their own, stored with the session.
    const QString shown = ClusteringPanel::aprioriLabelingName(name);
    QVERIFY(window.analysis()->labeling(shown));
    QCOMPARE(*window.analysis()->labeling(shown), groups);
    QVERIFY(findNamed(window.document()->session().labelings, shown.toStdString()));
}

void AnalysesMainWindowTest::analysesOnAPopulationKeepWholeIndicesAndSurviveSaveOpen() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("population analyses.clusterlens"));
    const QString population = QStringLiteral("gate B");
    const Members members = test::indexRange(1000, 2499);
    Session saved;
    {
        MainWindow window;
        test::openDemo(window);
        window.analysis()->setSelection(std::make_shared<IndexVector>(members), nullptr);
        QCOMPARE(window.populationsPanel()->gateSelection(population), population);
        window.populationsPanel()->setCurrentPopulation(population);
        window.populationsPanel()->analyseCurrent();
        for (RunOnChoice* choice : window.findChildren<RunOnChoice*>())
            QCOMPARE(choice->scope().population, population);

        const QString kmeans = runKMeans(window, 3, 1);
        QCOMPARE(kmeans, QStringLiteral("k-means k=3 seed 1 on gate B"));
        const LabelVector& labels = *window.analysis()->labeling(kmeans);
        QCOMPARE(labels.size(), window.session()->current()->n);
        for (std::size_t i = 0; i < labels.size(); ++i) {
            const bool member = std::binary_search(members.begin(), members.end(), static_cast<std::int64_t>(i));
            QVERIFY2(member == (labels[i] >= 0), qPrintable(QStringLiteral("event %1").arg(i)));
        }
        const Dataset data = clusteredData(window, members);
        KMeansOptions options;
        options.k = 3;
        options.seed = 1;
        QCOMPARE(gatherLabels(labels, members), kmeansCpu(data.values.data(), data.n, data.d, options).labels);

        QSignalSpy peaks(window.dpcPanel(), &DpcPanel::resultShown);
        window.dpcPanel()->run();
        QTRY_VERIFY_WITH_TIMEOUT(peaks.count() > 0, kGuiJobTimeoutMs);
        window.dpcPanel()->setHaloEnabled(true);
        window.dpcPanel()->applyTopK(3);
        QTRY_VERIFY_WITH_TIMEOUT(window.analysis()->labeling(QStringLiteral("DPC (k=3, halo) on gate B")),
                                 kGuiJobTimeoutMs);

        QSignalSpy vat(window.vatPanel(), &VatPanel::resultShown);
        window.vatPanel()->run();
        QTRY_VERIFY_WITH_TIMEOUT(vat.count() > 0, kGuiJobTimeoutMs);
        window.vatPanel()->setClusterCount(3);
        QVERIFY(window.analysis()->labeling(QStringLiteral("VAT cuts (k=3) on gate B")));

        QSignalSpy tree(window.clusteringPanel(), &ClusteringPanel::linkageAdded);
        window.clusteringPanel()->setLinkage(QStringLiteral("average"));
        window.clusteringPanel()->run();
        QTRY_VERIFY_WITH_TIMEOUT(tree.count() > 0, kGuiJobTimeoutMs);
        // The comparisons a new result starts (point heights, the contingency of two cuts) are recorded
        // when they end: the session is complete once no job runs.
        QTRY_VERIFY_WITH_TIMEOUT(window.jobRunner()->runningCount() == 0, kGuiJobTimeoutMs);

        saved = window.document()->session();
        QVERIFY(saveAndWait(window, path));
        window.document()->setModified(false);
    }
    QCOMPARE(saved.dpc.size(), std::size_t{1});
    const DpcResult& dpc = saved.dpc.front();
    QCOMPARE(dpc.info.population, population.toStdString());
    QCOMPARE(dpc.info.members, members);
    QCOMPARE(dpc.rho.size(), members.size());
    QCOMPARE(dpc.halo.size(), members.size());
    QVERIFY(std::count(dpc.halo.begin(), dpc.halo.end(), 1) > 0);
    QCOMPARE(dpc.peaks.size(), std::size_t{3});
    for (std::int64_t p : dpc.peaks) QVERIFY(std::binary_search(members.begin(), members.end(), p));
    for (std::int64_t h : dpc.nearestHigher) QVERIFY(h == -1 || std::binary_search(members.begin(), members.end(), h));
    QCOMPARE(saved.vat.size(), std::size_t{1});
    IndexVector order = saved.vat.front().order;
    std::sort(order.begin(), order.end());
    QCOMPARE(order, members);
    QCOMPARE(saved.vat.front().info.members, members);
    QCOMPARE(saved.linkages.size(), std::size_t{1});
    QCOMPARE(saved.linkages.front().linkage.leafCount, members.size());
    QCOMPARE(saved.linkages.front().info.population, population.toStdString());
    std::size_t onPopulation = 0;
    for (const LabelingResult& labeling : saved.labelings) {
        if (labeling.info.population.empty()) continue;
        ++onPopulation;
        QCOMPARE(labeling.info.population, population.toStdString());
        QCOMPARE(labeling.info.members, members);
        for (std::size_t i = 0; i < labeling.labels.size(); ++i)
            if (labeling.labels[i] >= 0)
                QVERIFY(std::binary_search(members.begin(), members.end(), static_cast<std::int64_t>(i)));
    }
    QCOMPARE(onPopulation, std::size_t{4});  // k-means, DPC, DPC with its halo, VAT cuts

    MainWindow window;
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, path));
    QTRY_VERIFY_WITH_TIMEOUT(window.vatPanel()->lastRun(), kGuiJobTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.jobRunner()->runningCount() == 0, kGuiJobTimeoutMs);
    test::compareSessions(window.document()->session(), saved, false);
    if (QTest::currentTestFailed()) return;
    QVERIFY(!window.document()->isModified());
    const auto run = window.dpcPanel()->lastRun();
    QVERIFY(run);
    QCOMPARE(run->scope.population, population);
    QCOMPARE(run->result->rho.size(), members.size());
    const QString halo = QStringLiteral("DPC (k=3, halo) on gate B");
    QVERIFY(window.analysis()->labeling(halo));
    const LabelingResult* storedHalo = findNamed(saved.labelings, halo.toStdString());
    QVERIFY(storedHalo);
    QCOMPARE(*window.analysis()->labeling(halo), storedHalo->labels);
    QCOMPARE(window.vatPanel()->lastRun()->n(), members.size());
    QCOMPARE(window.vatPanel()->lastRun()->scope.population, population);
}

void AnalysesMainWindowTest::storedHaloIsShownAgainAfterOpen() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("halo.clusterlens"));
    LabelVector shownBefore;
    {
        MainWindow window;
        test::openDemo(window);
        QSignalSpy peaks(window.dpcPanel(), &DpcPanel::resultShown);
        window.dpcPanel()->run();
        QTRY_VERIFY_WITH_TIMEOUT(peaks.count() > 0, kGuiJobTimeoutMs);
        window.dpcPanel()->setHaloEnabled(true);
        window.dpcPanel()->applyTopK(4);
        QTRY_VERIFY_WITH_TIMEOUT(window.dpcPanel()->labelingName() == QStringLiteral("DPC (k=4, halo)"),
                                 kGuiJobTimeoutMs);
        shownBefore = *window.dpcPanel()->currentLabels();
        QVERIFY(std::count(shownBefore.begin(), shownBefore.end(), -1) > 0);
        QVERIFY(saveAndWait(window, path));
        window.document()->setModified(false);
    }
    MainWindow window;
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // The halo shown again is the stored one, not a new all-pairs pass: no halo job may run.
    QSignalSpy jobs(window.jobRunner(), &JobRunner::jobStarted);
    QVERIFY(openAndWait(window, path));
    QTRY_VERIFY_WITH_TIMEOUT(window.dpcPanel()->currentLabels(), kGuiJobTimeoutMs);
    QCOMPARE(window.dpcPanel()->labelingName(), QStringLiteral("DPC (k=4, halo)"));
    QCOMPARE(*window.dpcPanel()->currentLabels(), shownBefore);
    QCOMPARE(*window.analysis()->labeling(QStringLiteral("DPC (k=4, halo)")), shownBefore);
    for (const QList<QVariant>& started : jobs)
        QVERIFY(!started.at(1).toString().startsWith(QStringLiteral("Density peaks halo")));
    QVERIFY(!window.document()->isModified());
}

void AnalysesMainWindowTest::stripsOfAPopulationAreItsMembersColours() {
    auto strips = std::make_shared<ColourStrips>();
    strips->push_back({QStringLiteral("events"), {0xff000000, 0xff000001, 0xff000002, 0xff000003, 0xff000004}});
    strips->push_back({QStringLiteral("too short"), {0xff0000ff}});
    const ResultScope scope{QStringLiteral("p"), std::make_shared<const IndexVector>(IndexVector{1, 3, 4})};
    const auto gathered = stripsInScope(strips, scope);
    QCOMPARE(gathered->size(), std::size_t{2});
    QCOMPARE(gathered->at(0).colours, (std::vector<QRgb>{0xff000001, 0xff000003, 0xff000004}));
    QCOMPARE(gathered->at(1).colours, strips->at(1).colours);
    QVERIFY(stripsInScope(strips, ResultScope{}) == strips);
    QCOMPARE(positionsInScope(scope, {0, 1, 2, 4}), (IndexVector{0, 2}));
    QCOMPARE(indicesOfPositions(scope, {0, 2}), (IndexVector{1, 4}));
    QVERIFY(scopeFitsData(scope, 3, 5));
    QVERIFY(!scopeFitsData(scope, 3, 4));
    QVERIFY(!scopeFitsData(scope, 5, 5));
}

void AnalysesMainWindowTest::aPopulationsTreeIsLinkedToTheWholeDataset() {
    MainWindow window;
    test::openDemo(window);
    const std::size_t n = window.session()->current()->n;
    const Members members = spreadMembers();
    analysePopulation(window, members);
    DendrogramPanel* panel = window.dendrogramPanel();
    QSignalSpy shown(panel, &DendrogramPanel::treeShown);
    window.clusteringPanel()->setLinkage(QStringLiteral("average"));
    window.clusteringPanel()->setBackend(Backend::Cpu);
    window.clusteringPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, kGuiJobTimeoutMs);
    const DendrogramLayout& layout = *panel->layout();
    QCOMPARE(layout.leafCount, members.size());

    // A clicked subtree selects its members, by whole-dataset index, in the session and the scatter.
    const std::int32_t node = layout.left[layout.row(layout.root())];
    const IndexVector expected = eventsAt(members, subtreeLeaves(layout, node));
    Q_EMIT panel->widget()->subtreeClicked(node);
    QCOMPARE(*window.analysis()->selection(), expected);
    QCOMPARE(window.scatter()->selection(), QList<qsizetype>(expected.begin(), expected.end()));
    QCOMPARE(panel->widget()->selectedLeafCount(), expected.size());

    // A selection made elsewhere highlights the leaves of the members among it.
    window.analysis()->setSelection(
        std::make_shared<IndexVector>(
            IndexVector{0, 499, members[0], 501, members[7], members.back(), static_cast<std::int64_t>(n) - 1}),
        nullptr);
    QCOMPARE(panel->widget()->selectedLeafCount(), std::size_t{3});

    // The cut labels the whole dataset: members as their leaves, every other event unlabelled.
    panel->setClusterCount(3);
    const QString cut = panel->cutLabeling();
    QVERIFY(!cut.isEmpty());
    const LabelVector labels = *window.analysis()->labeling(cut);
    QCOMPARE(labels.size(), n);
    QCOMPARE(gatherLabels(labels, members), panel->cut()->sharedLabels());
    for (std::size_t i = 0; i < n; ++i)
        if (!std::binary_search(members.begin(), members.end(), static_cast<std::int64_t>(i))) QCOMPARE(labels[i], -1);
    QCOMPARE(window.analysis()->labelingScope(cut).population, QStringLiteral("spread"));
    QCOMPARE(window.analysis()->colouring(), cut);

    // A whole-dataset strip is drawn under the members' leaves.
    QVERIFY(panel->widget()->stripsRect().isEmpty());
    panel->stripChooser()->setStrip(0, ColourMode::Labels, cut);
    QVERIFY(!panel->widget()->stripsRect().isEmpty());

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cut.csv"));
    QSignalSpy message(panel, &DendrogramPanel::message);
    panel->exportLabelsTo(path);
    QTRY_VERIFY_WITH_TIMEOUT(message.count() > 0, kGuiJobTimeoutMs);
    QCOMPARE(readLabels(path.toStdString(), n), labels);
}

void AnalysesMainWindowTest::aPopulationsVatAndDensityPeaksAreLinkedAndExportWholeIndices() {
    MainWindow window;
    test::openDemo(window);
    const Members members = spreadMembers();
    analysePopulation(window, members);
    QTemporaryDir dir;

    DpcPanel* dpc = window.dpcPanel();
    QSignalSpy peaks(dpc, &DpcPanel::resultShown);
    dpc->run();
    QTRY_VERIFY_WITH_TIMEOUT(peaks.count() > 0, kGuiJobTimeoutMs);
    dpc->applyTopK(3);
    const QString table = dir.filePath(QStringLiteral("DPC.csv"));
    dpc->exportTable(table);
    QCOMPARE(csvColumn(table, 0), members);
    for (std::int64_t higher : csvColumn(table, 3))
        QVERIFY(higher == -1 || std::binary_search(members.begin(), members.end(), higher));
    // The same bytes as the stored result (what `session get --dpc` writes).
    QCOMPARE(window.document()->session().dpc.size(), std::size_t{1});
    const QString stored = dir.filePath(QStringLiteral("stored DPC.csv"));
    writeDpcCsv(stored.toStdString(), window.document()->session().dpc.front());
    QCOMPARE(fileText(table), fileText(stored));
    const QString peak = dpc->tableModel()->index(0, PeakTableModel::PeakColumn).data().toString();
    QVERIFY2(std::binary_search(members.begin(), members.end(), peak.toLongLong()), qPrintable(peak));
    Q_EMIT dpc->graph()->cellsSelected({0, 1, 5});
    QCOMPARE(*window.analysis()->selection(), (IndexVector{members[0], members[1], members[5]}));

    VatPanel* vat = window.vatPanel();
    QSignalSpy ordered(vat, &VatPanel::resultShown);
    vat->run();
    QTRY_VERIFY_WITH_TIMEOUT(ordered.count() > 0, kGuiJobTimeoutMs);
    const QString order = dir.filePath(QStringLiteral("ORDER.csv"));
    QSignalSpy exported(vat, &VatPanel::exported);
    vat->exportOrderTo(order);
    QTRY_VERIFY_WITH_TIMEOUT(exported.count() > 0, kGuiJobTimeoutMs);
    QCOMPARE(window.document()->session().vat.size(), std::size_t{1});
    QCOMPARE(csvColumn(order, 1), window.document()->session().vat.front().order);
    IndexVector sorted = csvColumn(order, 1);
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(sorted, members);

    // A block of the image selects its events by whole-dataset index.
    const auto& run = *vat->lastRun();
    IndexVector block;
    for (std::size_t p = 10; p <= 20; ++p) block.push_back(members[static_cast<std::size_t>(run.vat->order[p])]);
    std::sort(block.begin(), block.end());
    Q_EMIT vat->widget()->blockSelected(10, 20);
    QCOMPARE(*window.analysis()->selection(), block);
    QCOMPARE(window.scatter()->selection(), QList<qsizetype>(block.begin(), block.end()));
    QVERIFY(vat->widget()->bottomStripsRect().isEmpty());
    vat->stripChooser()->setStrip(0, ColourMode::Labels, dpc->labelingName());
    QVERIFY(!vat->widget()->bottomStripsRect().isEmpty());
}

void AnalysesMainWindowTest::densityPeaksAndVatPanelsSayTheirResultIsStale() {
    MainWindow window;
    test::openDemo(window);
    QSignalSpy peaks(window.dpcPanel(), &DpcPanel::resultShown);
    window.dpcPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(peaks.count() > 0, kGuiJobTimeoutMs);
    QSignalSpy ordered(window.vatPanel(), &VatPanel::resultShown);
    window.vatPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(ordered.count() > 0, kGuiJobTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(window.document()->session().vat.size(), std::size_t{1}, kGuiJobTimeoutMs);
    const std::array<StaleBanner*, 2> banners = {window.dpcPanel()->staleBanner(), window.vatPanel()->staleBanner()};
    for (StaleBanner* banner : banners) QVERIFY(banner->isHidden());

    auto* features = window.datasetPanel()->findChild<QListWidget*>();
    QVERIFY(features);
    features->item(0)->setCheckState(Qt::Unchecked);
    for (StaleBanner* banner : banners) {
        QVERIFY(!banner->isHidden());
        QVERIFY2(banner->text().contains(QStringLiteral("other channels")), qPrintable(banner->text()));
    }
    // Back on the channels they were computed on, they are current again.
    features->item(0)->setCheckState(Qt::Checked);
    for (StaleBanner* banner : banners) QVERIFY(banner->isHidden());
}

void AnalysesMainWindowTest::populationsPanelCountsNestedGatesAndCombinations() {
    // Also the README's picture of the Populations panel (docs/screenshots/populations.png): saved into
    // $CLUSTERLENS_SCREENSHOT_DIR when that is set.
    MainWindow window;
    test::openDemo(window);
    window.resize(1600, 1000);
    const Dataset& data = *window.session()->current();
    PopulationsPanel* panel = window.populationsPanel();
    const auto gate = [&](const Members& members, const QString& name) {
        window.analysis()->setSelection(std::make_shared<IndexVector>(members), nullptr);
        return panel->gateSelection(name);
    };
    const Members cells = insideRectangle(data, "FSC-A", "SSC-A", 5.0, 7.6, 2.8, 4.9);
    const Members core = insideRectangle(data, "FSC-A", "SSC-A", 5.8, 6.3, 3.0, 3.7);
    const Members debris = insideRectangle(data, "FSC-A", "SSC-A", 0.0, 5.6, -1.0, 2.7);
    QVERIFY(core.size() > 100 && core.size() < cells.size());
    QCOMPARE(gate(cells, QStringLiteral("Cells")), QStringLiteral("Cells"));
    panel->setCurrentPopulation(QStringLiteral("Cells"));
    QCOMPARE(gate(core, QStringLiteral("Dense core")), QStringLiteral("Dense core"));
    panel->setCurrentPopulation({});
    QCOMPARE(gate(debris, QStringLiteral("Debris")), QStringLiteral("Debris"));
    QCOMPARE(panel->combine(PopulationOp::AndNot, {QStringLiteral("Cells"), QStringLiteral("Dense core")},
                            QStringLiteral("Cells AND NOT Dense core")),
             QStringLiteral("Cells AND NOT Dense core"));

    const QLocale locale;
    QCOMPARE(shownCount(window, QStringLiteral("Cells")), locale.toString(static_cast<qulonglong>(cells.size())));
    QCOMPARE(shownCount(window, QStringLiteral("Dense core")), locale.toString(static_cast<qulonglong>(core.size())));
    QCOMPARE(shownCount(window, QStringLiteral("Debris")), locale.toString(static_cast<qulonglong>(debris.size())));
    QCOMPARE(shownCount(window, QStringLiteral("Cells AND NOT Dense core")),
             locale.toString(static_cast<qulonglong>(cells.size() - core.size())));
    QVERIFY(window.populationsPanel()->model()->indexOf(QStringLiteral("Dense core")).parent().isValid());

    window.analysis()->setSelection(std::make_shared<IndexVector>(), nullptr);
    panel->colourByPopulations();
    panel->setCurrentPopulation(QStringLiteral("Dense core"));
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("PopulationsDock"));
    dock->raise();
    window.resizeDocks({dock}, {560}, Qt::Horizontal);
    // The picture shows the panel beside the scatter: the views' column is closed.
    for (QDockWidget* view : window.findChildren<QDockWidget*>())
        if (window.dockWidgetArea(view) == Qt::RightDockWidgetArea) view->close();
    QTest::qWait(1500);
    // The tree keeps its count and percentage columns in view in a dock narrower than its toolbar.
    QTreeView* tree = panel->tree();
    const int counts = tree->header()->sectionViewportPosition(PopulationModel::AllPercentColumn) +
                       tree->header()->sectionSize(PopulationModel::AllPercentColumn);
    const int right = tree->viewport()->mapTo(dock, QPoint(counts, 0)).x();
    QVERIFY2(right <= dock->width(), qPrintable(QStringLiteral("%1 > %2").arg(right).arg(dock->width())));
    const QString dir = qEnvironmentVariable("CLUSTERLENS_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(grabWindowWithViews(window).save(QDir(dir).filePath(QStringLiteral("populations.png"))));
}

CLUSTERLENS_GUI_TEST_MAIN(AnalysesMainWindowTest)
#include "analyses_main_window_test.moc"
