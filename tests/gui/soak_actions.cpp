#include "soak_actions.hpp"

#include <QAction>
#include <QFileInfo>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPushButton>
#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

#include <algorithm>
#include <set>

#include "analysis_session.hpp"
#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "dendrogram/clustering_panel.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dpc/dpc_panel.hpp"
#include "jobs/job_runner.hpp"
#include "kmeans/kmeans_panel.hpp"
#include "populations/population_ops.hpp"
#include "populations/populations_panel.hpp"
#include "populations/run_on_choice.hpp"
#include "scatter/scatter_widget.hpp"
#include "session/session_document.hpp"
#include "session/session_io.hpp"
#include "vat/vat_panel.hpp"

namespace clusterlens::test {

using namespace clusterlens::views;

namespace {

constexpr int kJobTimeoutMs = 90'000;
constexpr std::size_t kSmallScope = 300;
const QString kSampleName = QStringLiteral("soak sample");

QAction* findAction(gui::MainWindow& window, const QString& text) {
    for (QAction* action : window.findChildren<QAction*>())
        // (The undo stack's actions name the command after the prefix: "&Undo gate".)
        if (action->text() == text || action->text().startsWith(text + QLatin1Char(' '))) return action;
    return nullptr;
}

void sendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
    QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::ShiftModifier);
    QApplication::sendEvent(w, &event);
}

}  // namespace

SoakDriver::SoakDriver(gui::MainWindow& window, std::uint32_t seed) : m_window(window), m_rng(seed) {
    m_actions = {
        {QStringLiteral("open the demo"), 2, [this] { openDemo(); }},
        {QStringLiteral("open the second file"), 2, [this] { openSecondFile(); }},
        {QStringLiteral("run a linkage"), 6, [this] { runHca(); }},
        {QStringLiteral("cut the tree"), 8, [this] { cutTree(); }},
        {QStringLiteral("run density peaks"), 5, [this] { runDpc(); }},
        {QStringLiteral("pick peaks"), 8, [this] { pickPeaks(); }},
        {QStringLiteral("run VAT"), 4, [this] { runVat(); }},
        {QStringLiteral("cut the VAT order"), 6, [this] { cutVat(); }},
        {QStringLiteral("run k-means"), 4, [this] { runKMeans(); }},
        {QStringLiteral("gate on the scatter"), 8, [this] { gateOnScatter(); }},
        {QStringLiteral("population from clusters"), 4, [this] { gateFromClusters(); }},
        {QStringLiteral("combine populations"), 5, [this] { combinePopulations(); }},
        {QStringLiteral("undo"), 8, [this] { undoOrRedo(QStringLiteral("&Undo")); }},
        {QStringLiteral("redo"), 6, [this] { undoOrRedo(QStringLiteral("&Redo")); }},
        {QStringLiteral("export a figure"), 5, [this] { exportFigure(); }},
        {QStringLiteral("export a population"), 4, [this] { exportPopulation(); }},
        {QStringLiteral("save and reopen the session"), 2, [this] { saveAndReopen(); }},
        {QStringLiteral("new session"), 1, [this] { newSession(); }},
    };
}

QString SoakDriver::runRandomAction() {
    int total = 0;
    for (const Action& action : m_actions) total += action.weight;
    int draw = pick(0, total - 1);
    for (const Action& action : m_actions) {
        if (draw < action.weight) {
            action.run();
            ++m_actionsRun;
            return action.name;
        }
        draw -= action.weight;
    }
    return {};
}

int SoakDriver::pick(int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(m_rng);
}

QString SoakDriver::nextPath(const QString& stem, const QString& extension) {
    return m_dir.filePath(QStringLiteral("%1_%2.%3").arg(stem).arg(++m_files).arg(extension));
}

bool SoakDriver::waitUntilIdle() {
    return QTest::qWaitFor(
        [this] {
            for (QMessageBox* box : m_window.findChildren<QMessageBox*>())
                if (box->isVisible()) return false;
            return m_window.jobRunner()->runningCount() == 0;
        },
        kJobTimeoutMs);
}

void SoakDriver::discardUnsavedWork() {
    for (QMessageBox* box : m_window.findChildren<QMessageBox*>())
        if (box->isVisible() && box->objectName() == QStringLiteral("UnsavedWorkBox"))
            box->button(QMessageBox::Discard)->click();
}

void SoakDriver::waitForOpen(const std::function<void()>& open) {
    QSignalSpy current(m_window.session(), &DatasetSession::currentChanged);
    open();
    discardUnsavedWork();
    QVERIFY2(QTest::qWaitFor([&] { return current.count() > 0; }, kJobTimeoutMs), "the file was not shown");
    QVERIFY(QTest::qWaitFor([&] { return !m_window.document()->session().data.sha256.empty(); }, kJobTimeoutMs));
    QVERIFY(waitUntilIdle());
}

void SoakDriver::openDemo() {
    waitForOpen([this] { m_window.openDemo(); });
}

void SoakDriver::openSecondFile() {
    waitForOpen([this] { m_window.openFile(QStringLiteral(CLUSTERLENS_DATA_DIR "/tables/iris.csv")); });
}

void SoakDriver::newSession() {
    QAction* action = findAction(m_window, QStringLiteral("&New session"));
    QVERIFY(action);
    action->trigger();
    discardUnsavedWork();
    QTRY_VERIFY_WITH_TIMEOUT(m_window.document()->populations().empty(), kJobTimeoutMs);
}

void SoakDriver::useSmallScope(RunOnChoice* runOn) {
    const auto data = m_window.session()->current();
    QVERIFY(data);
    if (data->n <= 2 * kSmallScope) {
        runOn->setPopulation({});
        return;
    }
    if (!m_window.document()->population(kSampleName)) {
        std::set<std::int64_t> members;
        while (members.size() < kSmallScope) members.insert(pick(0, static_cast<int>(data->n) - 1));
        m_window.analysis()->setSelection(std::make_shared<IndexVector>(members.begin(), members.end()), nullptr);
        QCOMPARE(m_window.populationsPanel()->gateSelection(kSampleName), kSampleName);
    }
    QVERIFY(runOn->setPopulation(kSampleName));
}

void SoakDriver::runHca() {
    static const QStringList kLinkages = {QStringLiteral("single"), QStringLiteral("average"),
                                          QStringLiteral("complete"), QStringLiteral("ward")};
    ClusteringPanel* panel = m_window.clusteringPanel();
    useSmallScope(panel->runOn());
    panel->setLinkage(kLinkages[pick(0, static_cast<int>(kLinkages.size()) - 1)]);
    QSignalSpy added(panel, &ClusteringPanel::linkageAdded);
    panel->run();
    QVERIFY2(QTest::qWaitFor([&] { return added.count() > 0; }, kJobTimeoutMs), "no linkage arrived");
    const QString name = added.first().first().toString();
    QTRY_COMPARE_WITH_TIMEOUT(m_window.dendrogramPanel()->currentLinkage(), name, kJobTimeoutMs);
}

void SoakDriver::cutTree() {
    DendrogramPanel* panel = m_window.dendrogramPanel();
    if (panel->currentLinkage().isEmpty()) return;
    const int k = pick(2, 6);
    panel->setClusterCount(k);
    QTRY_COMPARE_WITH_TIMEOUT(panel->clusterCount(), k, kJobTimeoutMs);
}

void SoakDriver::runDpc() {
    DpcPanel* panel = m_window.dpcPanel();
    useSmallScope(panel->runOn());
    QSignalSpy shown(panel, &DpcPanel::resultShown);
    panel->run();
    QVERIFY2(QTest::qWaitFor([&] { return shown.count() > 0; }, kJobTimeoutMs), "no density peaks arrived");
}

void SoakDriver::pickPeaks() {
    DpcPanel* panel = m_window.dpcPanel();
    if (!panel->lastRun()) return;
    panel->applyTopK(static_cast<std::size_t>(pick(2, 5)));
}

void SoakDriver::runVat() {
    VatPanel* panel = m_window.vatPanel();
    useSmallScope(panel->runOn());
    QSignalSpy shown(panel, &VatPanel::resultShown);
    panel->run();
    QVERIFY2(QTest::qWaitFor([&] { return shown.count() > 0; }, kJobTimeoutMs), "no VAT order arrived");
}

void SoakDriver::cutVat() {
    VatPanel* panel = m_window.vatPanel();
    if (!panel->lastRun()) return;
    const int k = pick(2, 5);
    panel->setClusterCount(k);
    QTRY_COMPARE_WITH_TIMEOUT(panel->clusterCount(), k, kJobTimeoutMs);
}

void SoakDriver::runKMeans() {
    KMeansPanel* panel = m_window.kmeansPanel();
    KMeansOptions options;
    options.k = static_cast<std::size_t>(pick(2, 6));
    options.seed = static_cast<std::uint64_t>(pick(1, 1000));
    panel->setOptions(options, Backend::Cpu);
    useSmallScope(panel->runOn());
    QSignalSpy added(panel, &KMeansPanel::labelingAdded);
    panel->run();
    QVERIFY2(QTest::qWaitFor([&] { return added.count() > 0; }, kJobTimeoutMs), "no k-means labels arrived");
}

void SoakDriver::gateOnScatter() {
    ScatterWidget* scatter = m_window.scatter();
    const auto data = m_window.session()->current();
    const ScatterAxes axes = m_window.datasetPanel()->axes();
    if (!data || axes.embedding != -1) return;
    QVERIFY(QTest::qWaitFor([&] { return scatter->isSettled(); }, kJobTimeoutMs));
    // A rectangle spanned by two random events: it holds at least those two.
    const auto i = static_cast<std::size_t>(pick(0, static_cast<int>(data->n) - 1));
    const auto j = static_cast<std::size_t>(pick(0, static_cast<int>(data->n) - 1));
    const double x0 = std::min(data->at(i, axes.x), data->at(j, axes.x));
    const double x1 = std::max(data->at(i, axes.x), data->at(j, axes.x));
    const double y0 = std::min(data->at(i, axes.y), data->at(j, axes.y));
    const double y1 = std::max(data->at(i, axes.y), data->at(j, axes.y));
    const QPointF from = scatter->mapFromData(x0, y1) + QPointF(-2, -2),
                  to = scatter->mapFromData(x1, y0) + QPointF(2, 2);
    sendMouse(scatter, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    sendMouse(scatter, QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::LeftButton);
    sendMouse(scatter, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
    sendMouse(scatter, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window.analysis()->selection()->empty(), kJobTimeoutMs);
    const std::size_t selected = m_window.analysis()->selection()->size();
    // A gate goes inside the current population (as in FlowJo): gated from the top, it holds the selection.
    m_window.populationsPanel()->setCurrentPopulation({});
    const QString name = m_window.populationsPanel()->gateSelection(QStringLiteral("gate"));
    const Population* population = m_window.document()->population(name);
    QVERIFY(population);
    QCOMPARE(population->members.size(), selected);
}

void SoakDriver::gateFromClusters() {
    const QString labeling = m_window.dendrogramPanel()->cutLabeling();
    if (labeling.isEmpty() || !m_window.analysis()->labeling(labeling)) return;
    m_window.populationsPanel()->setCurrentPopulation({});
    m_window.populationsPanel()->fromClusters(labeling, {0});
}

void SoakDriver::combinePopulations() {
    const std::vector<Population>& populations = m_window.document()->populations();
    if (populations.size() < 2) return;
    const int a = pick(0, static_cast<int>(populations.size()) - 1);
    const int b = pick(0, static_cast<int>(populations.size()) - 1);
    if (a == b) return;
    const PopulationOp ops[] = {PopulationOp::And, PopulationOp::Or, PopulationOp::AndNot};
    const QStringList names = {QString::fromStdString(populations[static_cast<std::size_t>(a)].name),
                               QString::fromStdString(populations[static_cast<std::size_t>(b)].name)};
    m_window.populationsPanel()->combine(ops[pick(0, 2)], names);
}

void SoakDriver::undoOrRedo(const QString& text) {
    QAction* action = findAction(m_window, text);
    QVERIFY(action);
    for (int times = pick(1, 3); times > 0 && action->isEnabled(); --times) action->trigger();
}

void SoakDriver::exportFigure() {
    static const QStringList kFormats = {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")};
    const QString format = kFormats[pick(0, 2)];
    const FigureExportOptions options(QSizeF(480, 360));
    QString path;
    switch (pick(0, 2)) {
        case 0:
            if (m_window.dendrogramPanel()->currentLinkage().isEmpty()) return;
            path = nextPath(QStringLiteral("dendrogram"), format);
            m_window.dendrogramPanel()->exportFigureTo(path, options, false);
            break;
        case 1:
            if (!m_window.dpcPanel()->lastRun()) return;
            path = nextPath(QStringLiteral("decision_graph"), format);
            m_window.dpcPanel()->exportFigure(path, options);
            break;
        default:
            if (!m_window.vatPanel()->lastRun()) return;
            path = nextPath(QStringLiteral("vat"), format);
            QSignalSpy exported(m_window.vatPanel(), &VatPanel::exported);
            m_window.vatPanel()->exportFigureTo(path, options, false);
            QVERIFY2(QTest::qWaitFor([&] { return exported.count() > 0; }, kJobTimeoutMs), qPrintable(path));
    }
    QVERIFY2(QFileInfo(path).size() > 0, qPrintable(path));
}

void SoakDriver::exportPopulation() {
    const std::vector<Population>& populations = m_window.document()->populations();
    if (populations.empty()) return;
    const QString name = QString::fromStdString(
        populations[static_cast<std::size_t>(pick(0, static_cast<int>(populations.size()) - 1))].name);
    const QString path =
        nextPath(QStringLiteral("population"), pick(0, 1) ? QStringLiteral("fcs") : QStringLiteral("csv"));
    PopulationsPanel* panel = m_window.populationsPanel();
    QSignalSpy exported(panel, &PopulationsPanel::exported);
    QSignalSpy messages(panel, &PopulationsPanel::message);
    panel->exportEventsTo(name, path);
    QVERIFY(QTest::qWaitFor([&] { return exported.count() > 0 || messages.count() > 0; }, kJobTimeoutMs));
    QVERIFY2(exported.count() == 1, messages.isEmpty() ? "" : qPrintable(messages.last().at(0).toString()));
    QVERIFY(QFileInfo(path).size() > 0);
}

void SoakDriver::saveAndReopen() {
    QVERIFY(waitUntilIdle());
    const QString path = nextPath(QStringLiteral("session"), QStringLiteral("clusterlens"));
    bool done = false, ok = false;
    m_window.saveSessionTo(path, [&](bool success) {
        done = true;
        ok = success;
    });
    QVERIFY2(QTest::qWaitFor([&] { return done; }, kJobTimeoutMs) && ok, "the session was not saved");
    std::vector<std::string> saved;
    for (const Population& population : m_window.document()->populations()) saved.push_back(population.name);

    QSignalSpy shown(m_window.sessionIo(), &SessionIo::sessionShown);
    m_window.openSession(path);
    discardUnsavedWork();
    QVERIFY2(QTest::qWaitFor([&] { return shown.count() > 0; }, kJobTimeoutMs), "the session was not reopened");
    std::vector<std::string> reopened;
    for (const Population& population : m_window.document()->populations()) reopened.push_back(population.name);
    QCOMPARE(reopened, saved);
    QVERIFY(waitUntilIdle());
}

}  // namespace clusterlens::test
