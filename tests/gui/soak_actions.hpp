#pragma once
// The user actions of the GUI soak test (soak_test.cpp): each does one thing a user does in the main
// window — open a file, run an analysis, cut, pick peaks, gate on the scatter, combine populations,
// undo, redo, export, save and reopen, start a new session — through the window's actions, panels and
// widgets, and waits until its effect is shown. An action that does not apply now (nothing to cut yet)
// does nothing. Failures are QTest failures: check QTest::currentTestFailed() after each call.

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "main_window.hpp"

namespace clusterlens::views {
class RunOnChoice;
}

namespace clusterlens::test {

class SoakDriver {
public:
    struct Action {
        QString name;
        int weight;
        std::function<void()> run;
    };

    SoakDriver(gui::MainWindow& window, std::uint32_t seed);

    /// Opens the bundled demo dataset (6052 events), or the second file (iris, 150 events).
    void openDemo();
    void openSecondFile();
    /// File > New session, discarding unsaved work: the data stays, the results go.
    void newSession();

    /// One action drawn at random (by weight) from all of them; returns its name.
    QString runRandomAction();

    /// Waits until no job runs and no dialog waits for an answer; false on a timeout.
    bool waitUntilIdle();

    int actionsRun() const { return m_actionsRun; }

private:
    void runHca();
    void cutTree();
    void runDpc();
    void pickPeaks();
    void runVat();
    void cutVat();
    void runKMeans();
    void gateOnScatter();
    void gateFromClusters();
    void combinePopulations();
    void undoOrRedo(const QString& text);
    void exportFigure();
    void exportPopulation();
    void saveAndReopen();

    /// Runs of the demo use a small random population ("soak sample", 300 events) so that every
    /// analysis is quick under the sanitizers; it is gated again when undo removed it.
    void useSmallScope(views::RunOnChoice* runOn);
    void discardUnsavedWork();
    void waitForOpen(const std::function<void()>& open);
    int pick(int low, int high);
    QString nextPath(const QString& stem, const QString& extension);

    gui::MainWindow& m_window;
    std::mt19937 m_rng;
    QTemporaryDir m_dir;
    std::vector<Action> m_actions;
    int m_actionsRun = 0;
    int m_files = 0;
};

}  // namespace clusterlens::test
