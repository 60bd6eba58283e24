// Analyses on populations in the main window, on the demo dataset: k-means from its own dock gives the
// engine's labels for the same seed and is one undoable step; MHCA with a-priori groups from a labeling
// equals the engine run with those groups, and shows them as a labeling; "Analyse this population" runs
// k-means, density peaks (with its halo), VAT and a linkage on the population's events only, with
// whole-dataset indices in every stored result, and save -> open shows them again, the halo included.

#include <QTemporaryDir>
#include <QUndoStack>

#include <algorithm>

#include "clusterlens/cluster/kmeans.hpp"
#include "clusterlens/hca/hca.hpp"
#include "clusterlens/session/population.hpp"
#include "dataset_panel.hpp"
#include "dpc/dpc_run.hpp"
#include "gui_test_main.hpp"
#include "kmeans/kmeans_panel.hpp"
#include "populations/run_on_choice.hpp"
#include "session/session_io.hpp"
#include "session_test_support.hpp"

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
    const Dataset scoped = members.empty() ? *window.session()->current() : selectMembers(*window.session()->current(), members);
    const std::vector<std::size_t> columns = activeColumns(window);
    Dataset data;
    data.n = scoped.n;
    data.d = columns.size();
    data.values = featureMatrix(scoped, columns);
    if (!scoped.exact.empty()) {
        data.exact.resize(data.n * data.d);
        for (std::size_t i = 0; i < data.n; ++i)
            for (std::size_t j = 0; j < data.d; ++j) data.exact[i * data.d + j] = scoped.exact[i * scoped.d + columns[j]];
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

}  // namespace

class AnalysesMainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kmeansFromTheGuiEqualsTheEngineAndIsUndoable();
    void mhcaWithAprioriGroupsFromALabelingEqualsTheEngine();
    void analysesOnAPopulationKeepWholeIndicesAndSurviveSaveOpen();
    void storedHaloIsShownAgainAfterOpen();
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
        for (RunOnChoice* choice : window.findChildren<RunOnChoice*>()) QCOMPARE(choice->scope().population, population);

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
        QTRY_VERIFY_WITH_TIMEOUT(window.analysis()->labeling(QStringLiteral("DPC (k=3, halo) on gate B")), kGuiJobTimeoutMs);

        QSignalSpy vat(window.vatPanel(), &VatPanel::resultShown);
        window.vatPanel()->run();
        QTRY_VERIFY_WITH_TIMEOUT(vat.count() > 0, kGuiJobTimeoutMs);
        window.vatPanel()->setClusterCount(3);
        QVERIFY(window.analysis()->labeling(QStringLiteral("VAT cuts (k=3) on gate B")));

        QSignalSpy tree(window.clusteringPanel(), &ClusteringPanel::linkageAdded);
        window.clusteringPanel()->setLinkage(QStringLiteral("average"));
        window.clusteringPanel()->run();
        QTRY_VERIFY_WITH_TIMEOUT(tree.count() > 0, kGuiJobTimeoutMs);

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
            if (labeling.labels[i] >= 0) QVERIFY(std::binary_search(members.begin(), members.end(), static_cast<std::int64_t>(i)));
    }
    QCOMPARE(onPopulation, std::size_t{4});  // k-means, DPC, DPC with its halo, VAT cuts

    MainWindow window;
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, path));
    QTRY_VERIFY_WITH_TIMEOUT(window.vatPanel()->lastRun(), kGuiJobTimeoutMs);
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
        QTRY_VERIFY_WITH_TIMEOUT(window.dpcPanel()->labelingName() == QStringLiteral("DPC (k=4, halo)"), kGuiJobTimeoutMs);
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
    for (const QList<QVariant>& started : jobs) QVERIFY(!started.at(1).toString().startsWith(QStringLiteral("Density peaks halo")));
    QVERIFY(!window.document()->isModified());
}

CLUSTERLENS_GUI_TEST_MAIN(AnalysesMainWindowTest)
#include "analyses_main_window_test.moc"
