// The Populations panel on 100 events whose two features are known (x = i, y = i mod 10): gates of the
// linked selection within a parent, populations from clusters, AND / OR / AND NOT / NOT, and undo/redo
// of every action on the one undo stack (create, rename, recolour, show/hide, delete with the
// populations inside); the tree's counts and percentages; medians; the statistics CSV; the
// "Populations" labeling that colours the views (the innermost visible population wins).

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>

#include <numeric>

#include "analysis_session.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
#include "populations/population_model.hpp"
#include "populations/populations_panel.hpp"
#include "session/session_document.hpp"
#include "session/session_recorder.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr int kJobTimeoutMs = 30'000;
constexpr std::size_t kEvents = 100;

std::shared_ptr<const Dataset> knownData() {
    auto data = std::make_shared<Dataset>();
    data->n = kEvents;
    data->d = 2;
    data->features = {"x", "y"};
    for (std::size_t i = 0; i < kEvents; ++i) {
        data->values.push_back(static_cast<float>(i));
        data->values.push_back(static_cast<float>(i % 10));
    }
    return data;
}

Members range(std::int64_t first, std::int64_t last) {
    Members members(static_cast<std::size_t>(last - first + 1));
    std::iota(members.begin(), members.end(), first);
    return members;
}

/// Names, parents, members, colours and visibility, in document order: what undo must restore.
std::vector<std::string> describe(const SessionDocument& document) {
    std::vector<std::string> lines;
    for (const Population& p : document.populations())
        lines.push_back(p.name + " < " + p.parent + " " + p.colour + (p.visible ? " shown " : " hidden ") +
                        std::to_string(p.members.size()) + " from " +
                        (p.members.empty() ? std::string("-") : std::to_string(p.members.front())));
    return lines;
}

}  // namespace

class PopulationsPanelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void gateWithinTheCurrentPopulationKeepsOnlyItsEvents();
    void countsAndPercentagesOfTheTree();
    void everyActionUndoesAndRedoes();
    void deletingAParentDeletesWhatIsInsideAndUndoRestoresTheOrder();
    void setAlgebraOfPopulations();
    void populationFromClustersOfALabeling();
    void mediansOfTheCurrentPopulation();
    void statisticsTableExportsAsCsv();
    void visiblePopulationsColourTheViewsInTheirColours();

private:
    void select(const Members& members);

    std::unique_ptr<JobRunner> m_runner;
    std::unique_ptr<SessionDocument> m_document;
    std::unique_ptr<AnalysisSession> m_analysis;
    std::unique_ptr<QUndoStack> m_undo;
    std::unique_ptr<PopulationsPanel> m_panel;
};

void PopulationsPanelTest::init() {
    m_runner = std::make_unique<JobRunner>();
    m_document = std::make_unique<SessionDocument>();
    m_analysis = std::make_unique<AnalysisSession>();
    m_undo = std::make_unique<QUndoStack>();
    Session session;
    session.data.n = kEvents;
    session.data.d = 2;
    session.data.features = {"x", "y"};
    m_document->reset(session, {});
    m_panel = std::make_unique<PopulationsPanel>(m_document.get(), m_analysis.get(), m_undo.get(), m_runner.get());
    const auto data = knownData();
    m_panel->setDataSource(data, data, {QStringLiteral("x"), QStringLiteral("y")});
    m_panel->resize(600, 500);
    m_panel->show();
}

void PopulationsPanelTest::cleanup() {
    m_panel.reset();
    m_runner->cancelAll();
    m_runner->waitForWorkers();
}

void PopulationsPanelTest::select(const Members& members) {
    m_analysis->setSelection(std::make_shared<IndexVector>(members), this);
}

void PopulationsPanelTest::gateWithinTheCurrentPopulationKeepsOnlyItsEvents() {
    select(range(0, 49));
    QCOMPARE(m_panel->gateSelection(QStringLiteral("low")), QStringLiteral("low"));
    // The new population is current: the next gate lies within it.
    QCOMPARE(m_panel->currentPopulation(), QStringLiteral("low"));
    select(range(40, 79));
    QCOMPARE(m_panel->gateSelection(QStringLiteral("band")), QStringLiteral("band"));
    const Population* band = m_document->population(QStringLiteral("band"));
    QVERIFY(band);
    QCOMPARE(band->parent, std::string("low"));
    QCOMPARE(band->members, range(40, 49));
    // An empty selection makes nothing.
    select({});
    QSignalSpy messages(m_panel.get(), &PopulationsPanel::message);
    QVERIFY(m_panel->gateSelection().isEmpty());
    QCOMPARE(messages.count(), 1);
    QCOMPARE(m_document->populations().size(), std::size_t{2});
}

void PopulationsPanelTest::countsAndPercentagesOfTheTree() {
    QAbstractItemModelTester tester(m_panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    select(range(0, 39));
    m_panel->gateSelection(QStringLiteral("parent"));
    select(range(0, 9));
    m_panel->gateSelection(QStringLiteral("child"));
    PopulationModel* model = m_panel->model();
    QCOMPARE(model->rowCount(), 1);
    const QModelIndex parent = model->index(0, PopulationModel::NameColumn);
    QCOMPARE(model->data(parent).toString(), QStringLiteral("parent"));
    QCOMPARE(model->rowCount(parent), 1);
    const QModelIndex child = model->index(0, PopulationModel::NameColumn, parent);
    QCOMPARE(model->data(child).toString(), QStringLiteral("child"));
    QCOMPARE(model->data(child.siblingAtColumn(PopulationModel::CountColumn)).toString(), QStringLiteral("10"));
    QCOMPARE(model->data(child.siblingAtColumn(PopulationModel::ParentPercentColumn)).toString(),
             QStringLiteral("25.00 %"));
    QCOMPARE(model->data(child.siblingAtColumn(PopulationModel::AllPercentColumn)).toString(),
             QStringLiteral("10.00 %"));
    QCOMPARE(model->data(parent.siblingAtColumn(PopulationModel::AllPercentColumn)).toString(),
             QStringLiteral("40.00 %"));
    QCOMPARE(model->data(child, Qt::CheckStateRole).toInt(), int(Qt::Checked));
}

void PopulationsPanelTest::everyActionUndoesAndRedoes() {
    const auto before = describe(*m_document);
    select(range(10, 29));
    m_panel->gateSelection(QStringLiteral("A"));
    const auto created = describe(*m_document);

    const auto check = [&](const std::vector<std::string>& undone, const std::vector<std::string>& done) {
        m_undo->undo();
        QCOMPARE(describe(*m_document), undone);
        m_undo->redo();
        QCOMPARE(describe(*m_document), done);
    };
    check(before, created);

    QVERIFY(m_panel->rename(QStringLiteral("A"), QStringLiteral("CD3+ / T cells")));
    const auto renamed = describe(*m_document);
    QVERIFY(m_document->population(QStringLiteral("CD3+ / T cells")));
    check(created, renamed);
    // A taken name is refused and pushes nothing.
    select(range(0, 4));
    m_panel->setCurrentPopulation({});
    m_panel->gateSelection(QStringLiteral("B"));
    const int commands = m_undo->count();
    QVERIFY(!m_panel->rename(QStringLiteral("B"), QStringLiteral("CD3+ / T cells")));
    QCOMPARE(m_undo->count(), commands);
    const auto withB = describe(*m_document);

    m_panel->recolour(QStringLiteral("B"), QColor(QStringLiteral("#123456")));
    QCOMPARE(m_document->population(QStringLiteral("B"))->colour, std::string("#123456"));
    check(withB, describe(*m_document));

    const auto recoloured = describe(*m_document);
    m_panel->setPopulationVisible(QStringLiteral("B"), false);
    QVERIFY(!m_document->population(QStringLiteral("B"))->visible);
    check(recoloured, describe(*m_document));

    // The tree's check box asks for the same command.
    const auto hidden = describe(*m_document);
    const QModelIndex b = m_panel->model()->indexOf(QStringLiteral("B"));
    QVERIFY(m_panel->model()->setData(b, Qt::Checked, Qt::CheckStateRole));
    QVERIFY(m_document->population(QStringLiteral("B"))->visible);
    check(hidden, describe(*m_document));

    const auto shown = describe(*m_document);
    m_panel->remove(QStringLiteral("B"));
    QVERIFY(!m_document->population(QStringLiteral("B")));
    check(shown, describe(*m_document));

    // Undoing everything gives the empty document back; redoing everything the last state.
    const auto last = describe(*m_document);
    while (m_undo->canUndo()) m_undo->undo();
    QCOMPARE(describe(*m_document), before);
    while (m_undo->canRedo()) m_undo->redo();
    QCOMPARE(describe(*m_document), last);
}

void PopulationsPanelTest::deletingAParentDeletesWhatIsInsideAndUndoRestoresTheOrder() {
    select(range(0, 59));
    m_panel->gateSelection(QStringLiteral("outer"));
    select(range(0, 29));
    m_panel->gateSelection(QStringLiteral("middle"));
    select(range(0, 9));
    m_panel->gateSelection(QStringLiteral("inner"));
    m_panel->setCurrentPopulation({});
    select(range(90, 99));
    m_panel->gateSelection(QStringLiteral("other"));
    const auto all = describe(*m_document);
    m_panel->remove(QStringLiteral("outer"));
    QCOMPARE(m_document->populations().size(), std::size_t{1});
    QCOMPARE(m_document->populations().front().name, std::string("other"));
    m_undo->undo();
    QCOMPARE(describe(*m_document), all);
    QCOMPARE(m_panel->model()->rowCount(), 2);
}

void PopulationsPanelTest::setAlgebraOfPopulations() {
    select(range(0, 59));
    m_panel->gateSelection(QStringLiteral("A"));
    m_panel->setCurrentPopulation({});
    select(range(40, 99));
    m_panel->gateSelection(QStringLiteral("B"));
    const QStringList ab{QStringLiteral("A"), QStringLiteral("B")};
    QCOMPARE(m_document->population(m_panel->combine(PopulationOp::And, ab))->members, range(40, 59));
    QCOMPARE(m_document->population(m_panel->combine(PopulationOp::Or, ab))->members, range(0, 99));
    const Population* aNotB = m_document->population(m_panel->combine(PopulationOp::AndNot, ab));
    QCOMPARE(aNotB->members, range(0, 39));
    QCOMPARE(aNotB->definition, std::string("A AND NOT B"));
    QCOMPARE(m_document->population(m_panel->combine(PopulationOp::Not, {QStringLiteral("A")}))->members,
             range(60, 99));
    // NOT within a parent is the parent's other events.
    m_panel->setCurrentPopulation(QStringLiteral("A"));
    select(range(0, 9));
    m_panel->gateSelection(QStringLiteral("A1"));
    QCOMPARE(m_document->population(m_panel->combine(PopulationOp::Not, {QStringLiteral("A1")}))->members,
             range(10, 59));
    // Each combination is one command.
    const std::size_t count = m_document->populations().size();
    m_undo->undo();
    QCOMPARE(m_document->populations().size(), count - 1);
}

void PopulationsPanelTest::populationFromClustersOfALabeling() {
    auto labels = std::make_shared<LabelVector>(kEvents);
    for (std::size_t i = 0; i < kEvents; ++i) (*labels)[i] = static_cast<std::int32_t>(i % 10 == 0 ? -1 : i / 25);
    m_analysis->addLabeling(QStringLiteral("cut"), labels);
    const QString name = m_panel->fromClusters(QStringLiteral("cut"), {1, 3});
    const Population* population = m_document->population(name);
    QVERIFY(population);
    Members expected;
    for (std::size_t i = 0; i < kEvents; ++i)
        if ((*labels)[i] == 1 || (*labels)[i] == 3) expected.push_back(static_cast<std::int64_t>(i));
    QCOMPARE(population->members, expected);
}

void PopulationsPanelTest::mediansOfTheCurrentPopulation() {
    select(range(10, 20));
    QSignalSpy shown(m_panel.get(), &PopulationsPanel::detailsShown);
    m_panel->gateSelection(QStringLiteral("G"));
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0 && shown.last().at(0).toString() == QStringLiteral("G"), kJobTimeoutMs);
    QTableWidget* details = m_panel->details();
    QCOMPARE(details->rowCount(), 2);
    QCOMPARE(details->item(0, 0)->text(), QStringLiteral("x"));
    QCOMPARE(details->item(0, 1)->text(), QStringLiteral("15"));  // median of 10..20
    // y = i mod 10 over 10..20 sorted: 0, 0, 1, ..., 9; the sixth of eleven is 4.
    QCOMPARE(details->item(1, 1)->text(), QStringLiteral("4"));
}

void PopulationsPanelTest::statisticsTableExportsAsCsv() {
    select(range(0, 3));
    m_panel->gateSelection(QStringLiteral("first, four"));
    select(range(1, 2));
    m_panel->gateSelection(QStringLiteral("two"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("stats.csv"));
    QSignalSpy exported(m_panel.get(), &PopulationsPanel::exported);
    m_panel->exportStatisticsTo(path);
    QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, kJobTimeoutMs);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], QStringLiteral("name,parent,count,percent_of_parent,percent_of_all,median x,median y"));
    QCOMPARE(lines[1], QStringLiteral("\"first, four\",,4,4,4,1.5,1.5"));
    QCOMPARE(lines[2], QStringLiteral("two,\"first, four\",2,50,2,1.5,1.5"));
}

void PopulationsPanelTest::visiblePopulationsColourTheViewsInTheirColours() {
    select(range(0, 49));
    m_panel->gateSelection(QStringLiteral("outer"));
    select(range(0, 9));
    m_panel->gateSelection(QStringLiteral("inner"));
    m_panel->recolour(QStringLiteral("outer"), QColor(QStringLiteral("#ff0000")));
    m_panel->recolour(QStringLiteral("inner"), QColor(QStringLiteral("#0000ff")));
    const QString name = SessionRecorder::populationsLabeling();
    QCOMPARE(m_analysis->colouring(), name);
    auto labels = m_analysis->labeling(name);
    auto style = m_analysis->labelingStyle(name);
    QVERIFY(labels && style);
    QCOMPARE(style->colours.size(), std::size_t{2});
    QCOMPARE(style->colours[0], QColor(QStringLiteral("#ff0000")));
    QCOMPARE(style->names, QStringList({QStringLiteral("outer"), QStringLiteral("inner")}));
    QCOMPARE((*labels)[5], 1);  // the innermost population wins
    QCOMPARE((*labels)[20], 0);
    QCOMPARE((*labels)[70], -1);  // outside every population
    // Hidden populations are not drawn.
    QSignalSpy colouring(m_analysis.get(), &AnalysisSession::colouringChanged);
    m_panel->setPopulationVisible(QStringLiteral("inner"), false);
    QVERIFY(colouring.count() > 0);
    labels = m_analysis->labeling(name);
    QCOMPARE((*labels)[5], 0);
    QCOMPARE(m_analysis->labelingStyle(name)->colours.size(), std::size_t{1});
}

CLUSTERLENS_GUI_TEST_MAIN(PopulationsPanelTest)
#include "populations_panel_test.moc"
