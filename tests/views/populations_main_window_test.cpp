// Populations and the one undo stack in the main window, on the demo dataset: a rectangle dragged on
// the scatter gates a population with exactly the events inside it (counted from the data), which
// exports as FCS with that many events, each with its values as read; Edit > Undo and Redo walk back
// and forth over population actions, dendrogram and VAT cuts and density-peak choices alike.

#include <QAction>
#include <QMouseEvent>
#include <QTemporaryDir>
#include <QUndoStack>

#include <algorithm>
#include <set>

#include "clusterlens/io/read_dataset.hpp"
#include "dataset_panel.hpp"
#include "dpc/decision_graph.hpp"
#include "dpc/peak_choice.hpp"
#include "gui_test_main.hpp"
#include "session_test_support.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;
using clusterlens::test::kGuiJobTimeoutMs;

namespace {

void sendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
    QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::ShiftModifier);
    QApplication::sendEvent(w, &event);
}

/// A boundary between two neighbouring distinct values of `column` near its quantile `q`, so that no
/// event lies on it.
double cutBetween(const Dataset& data, std::size_t column, double q) {
    std::set<float> values;
    for (std::size_t i = 0; i < data.n; ++i) values.insert(data.at(i, column));
    auto it = values.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(q * static_cast<double>(values.size() - 1)));
    const float low = *it;
    return 0.5 * (static_cast<double>(low) + static_cast<double>(*std::next(it)));
}

QAction* editAction(MainWindow& window, const QString& text) {
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text().startsWith(text)) return action;
    return nullptr;
}

}  // namespace

class PopulationsMainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rectangleGateOnTheScatterCountsAndExportsItsEvents();
    void undoAndRedoWalkOverPopulationsCutsAndPeaks();
};

void PopulationsMainWindowTest::rectangleGateOnTheScatterCountsAndExportsItsEvents() {
    MainWindow window;
    test::openDemo(window);
    QTRY_VERIFY_WITH_TIMEOUT(window.scatter()->isSettled(), kGuiJobTimeoutMs);
    const Dataset& shown = *window.session()->current();
    const ScatterAxes axes = window.datasetPanel()->axes();
    QCOMPARE(axes.embedding, -1);
    const double x0 = cutBetween(shown, axes.x, 0.3), x1 = cutBetween(shown, axes.x, 0.7);
    const double y0 = cutBetween(shown, axes.y, 0.2), y1 = cutBetween(shown, axes.y, 0.8);
    std::vector<std::int64_t> inside;
    for (std::size_t i = 0; i < shown.n; ++i) {
        const double x = shown.at(i, axes.x), y = shown.at(i, axes.y);
        if (x > x0 && x < x1 && y > y0 && y < y1) inside.push_back(static_cast<std::int64_t>(i));
    }
    QVERIFY(inside.size() > 100);

    ScatterWidget* scatter = window.scatter();
    const QPointF from = scatter->mapFromData(x0, y1), to = scatter->mapFromData(x1, y0);
    sendMouse(scatter, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    sendMouse(scatter, QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::LeftButton);
    sendMouse(scatter, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
    sendMouse(scatter, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
    QTRY_COMPARE(window.analysis()->selection()->size(), inside.size());

    PopulationsPanel* panel = window.populationsPanel();
    const QString name = panel->gateSelection(QStringLiteral("lymphocytes?"));
    const Population* population = window.document()->population(name);
    QVERIFY(population);
    QCOMPARE(population->members, inside);

    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("gate.fcs"));
    QSignalSpy exported(panel, &PopulationsPanel::exported);
    QSignalSpy messages(panel, &PopulationsPanel::message);
    panel->exportEventsTo(name, out);
    QTRY_VERIFY_WITH_TIMEOUT(exported.count() > 0 || messages.count() > 0, kGuiJobTimeoutMs);
    QVERIFY2(exported.count() == 1, messages.isEmpty() ? "" : qPrintable(messages.last().at(0).toString()));
    const Dataset written = readDataset(out.toStdString());
    QCOMPARE(written.n, inside.size());
    // The values as read from the file, untransformed, every column.
    const Dataset& raw = *window.session()->raw();
    QCOMPARE(written.d, raw.d);
    for (std::size_t row : {std::size_t{0}, written.n / 2, written.n - 1})
        for (std::size_t column = 0; column < raw.d; ++column)
            QCOMPARE(written.at(row, column), raw.at(static_cast<std::size_t>(inside[row]), column));
}

void PopulationsMainWindowTest::undoAndRedoWalkOverPopulationsCutsAndPeaks() {
    MainWindow window;
    test::openDemo(window);
    QSignalSpy shown(window.dendrogramPanel(), &DendrogramPanel::treeShown);
    window.clusteringPanel()->setLinkage(QStringLiteral("average"));
    window.clusteringPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, kGuiJobTimeoutMs);
    QUndoStack* undo = window.undoStack();
    const int start = undo->count();
    const int uncut = window.dendrogramPanel()->clusterCount();
    window.dendrogramPanel()->setClusterCount(4);
    window.dendrogramPanel()->setClusterCount(6);
    QTRY_COMPARE(window.dendrogramPanel()->clusterCount(), 6);

    QSignalSpy ran(window.dpcPanel(), &DpcPanel::resultShown);
    window.dpcPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(ran.count() > 0, kGuiJobTimeoutMs);
    window.dpcPanel()->applyTopK(3);
    window.dpcPanel()->applyTopK(5);

    window.analysis()->setSelection(std::make_shared<IndexVector>(test::indexRange(0, 99)), nullptr);
    window.populationsPanel()->gateSelection(QStringLiteral("gate"));
    const std::string colour = window.document()->population(QStringLiteral("gate"))->colour;
    window.populationsPanel()->recolour(QStringLiteral("gate"), QColor(QStringLiteral("#336699")));
    QCOMPARE(undo->count(), start + 6);

    QAction* undoAction = editAction(window, QStringLiteral("&Undo"));
    QAction* redoAction = editAction(window, QStringLiteral("&Redo"));
    QVERIFY(undoAction && redoAction);
    QCOMPARE(undoAction->shortcut(), QKeySequence(QKeySequence::Undo));
    QVERIFY(redoAction->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));

    undoAction->trigger();  // the colour
    QCOMPARE(window.document()->population(QStringLiteral("gate"))->colour, colour);
    undoAction->trigger();  // the gate
    QVERIFY(!window.document()->population(QStringLiteral("gate")));
    undoAction->trigger();  // five peaks -> three
    QCOMPARE(window.dpcPanel()->peakChoice()->peaks().size(), std::size_t{3});
    undoAction->trigger();  // three peaks -> none
    QVERIFY(window.dpcPanel()->peakChoice()->peaks().empty());
    undoAction->trigger();  // cut 6 -> 4
    QCOMPARE(window.dendrogramPanel()->clusterCount(), 4);
    undoAction->trigger();  // cut 4 -> as shown first
    QCOMPARE(window.dendrogramPanel()->clusterCount(), uncut);
    QCOMPARE(undo->index(), start);

    for (int i = 0; i < 6; ++i) redoAction->trigger();
    QCOMPARE(window.dendrogramPanel()->clusterCount(), 6);
    QCOMPARE(window.dpcPanel()->peakChoice()->peaks().size(), std::size_t{5});
    QCOMPARE(window.document()->population(QStringLiteral("gate"))->colour, std::string("#336699"));

    // Ctrl+Z and Ctrl+Shift+Z reach the one stack from inside any panel, the decision graph's included.
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QWidget* graph = window.dpcPanel()->graph();
    graph->setFocus();
    QTest::keyClick(graph, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(window.document()->population(QStringLiteral("gate"))->colour, colour);
    QTest::keyClick(graph, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(window.document()->population(QStringLiteral("gate"))->colour, std::string("#336699"));
    window.document()->setModified(false);
}

CLUSTERLENS_GUI_TEST_MAIN(PopulationsMainWindowTest)
#include "populations_main_window_test.moc"
