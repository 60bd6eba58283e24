#pragma once
// Shared by the GUI session tests: a field-by-field comparison of two sessions (session_fixture.hpp,
// checked with QVERIFY2: call it, then return when QTest::currentTestFailed()), and the demo window with
// a little of everything done on it — a linkage cut into clusters, density peaks, a VAT order cut, a comparison,
// populations.

#include <QDockWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include <numeric>

#include "analysis_session.hpp"
#include "clusterlens/session/session.hpp"
#include "compare/flat_view.hpp"
#include "dataset_session.hpp"
#include "dendrogram/clustering_panel.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dpc/dpc_panel.hpp"
#include "main_window.hpp"
#include "populations/populations_panel.hpp"
#include "scatter/scatter_widget.hpp"
#include "session_fixture.hpp"
#include "session/session_document.hpp"
#include "session/session_io.hpp"
#include "vat/vat_panel.hpp"

namespace clusterlens::test {

constexpr int kGuiJobTimeoutMs = 90'000;

/// Every object of `actual` equals the one of the same position in `expected`, doubles bit for bit;
/// the view state too unless `withViewState` is false (a window that autosaves re-captures its own).
inline void compareSessions(const Session& actual, const Session& expected, bool withViewState = true) {
    const std::string difference = sessionDifference(actual, expected, withViewState);
    QVERIFY2(difference.empty(), difference.c_str());
}

inline std::vector<std::int64_t> indexRange(std::int64_t first, std::int64_t last) {
    std::vector<std::int64_t> members(static_cast<std::size_t>(last - first + 1));
    std::iota(members.begin(), members.end(), first);
    return members;
}

/// Shows the window at the size of the session tests (1500 x 950) and waits until it is exposed.
inline void showWindow(gui::MainWindow& window) {
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
}

/// Shows the window and opens the demo dataset; returns once it is drawn and fingerprinted.
inline void openDemo(gui::MainWindow& window) {
    showWindow(window);
    if (QTest::currentTestFailed()) return;
    QSignalSpy drawn(window.scatter(), &views::ScatterWidget::dataDrawn);
    window.openDemo();
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kGuiJobTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!window.document()->session().data.sha256.empty(), kGuiJobTimeoutMs);
}

/// Saves `window`'s session to `path` and waits for the write.
inline bool saveAndWait(gui::MainWindow& window, const QString& path) {
    bool done = false, ok = false;
    window.saveSessionTo(path, [&](bool success) {
        done = true;
        ok = success;
    });
    return QTest::qWaitFor([&] { return done; }, kGuiJobTimeoutMs) && ok;
}

/// Opens `path` in `window` and waits until its data and results are shown.
inline bool openAndWait(gui::MainWindow& window, const QString& path) {
    QSignalSpy shown(window.sessionIo(), &views::SessionIo::sessionShown);
    window.openSession(path);
    return QTest::qWaitFor([&] { return shown.count() > 0; }, kGuiJobTimeoutMs);
}

/// An average linkage cut into 4 clusters, density peaks (top 3), a VAT order cut into 3, the
/// comparison of the cut with the peaks, and three populations (a gate, a gate inside it, clusters).
inline void doSomeOfEverything(gui::MainWindow& window) {
    using namespace clusterlens::views;
    QSignalSpy cut(window.dendrogramPanel(), &DendrogramPanel::cutApplied);
    QSignalSpy shown(window.dendrogramPanel(), &DendrogramPanel::treeShown);
    window.clusteringPanel()->setLinkage(QStringLiteral("average"));
    window.clusteringPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, kGuiJobTimeoutMs);
    window.dendrogramPanel()->setClusterCount(4);
    QTRY_VERIFY_WITH_TIMEOUT(cut.count() > 0, kGuiJobTimeoutMs);

    QSignalSpy peaks(window.dpcPanel(), &DpcPanel::resultShown);
    window.dpcPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(peaks.count() > 0, kGuiJobTimeoutMs);
    window.dpcPanel()->applyTopK(3);

    QSignalSpy vat(window.vatPanel(), &VatPanel::resultShown);
    window.vatPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(vat.count() > 0, kGuiJobTimeoutMs);
    window.vatPanel()->setClusterCount(3);

    // The view may have compared these two already, as they arrived.
    FlatComparisonView* flat = window.flatComparisonView();
    flat->setLabelings(window.dendrogramPanel()->cutLabeling(), window.dpcPanel()->labelingName());
    QTRY_VERIFY_WITH_TIMEOUT(flat->comparison() &&
                                 flat->comparison()->nameA == window.dendrogramPanel()->cutLabeling() &&
                                 flat->comparison()->nameB == window.dpcPanel()->labelingName(),
                             kGuiJobTimeoutMs);

    PopulationsPanel* populations = window.populationsPanel();
    window.analysis()->setSelection(std::make_shared<IndexVector>(indexRange(0, 2999)), nullptr);
    QCOMPARE(populations->gateSelection(QStringLiteral("first half")), QStringLiteral("first half"));
    window.analysis()->setSelection(std::make_shared<IndexVector>(indexRange(1000, 4999)), nullptr);
    QCOMPARE(populations->gateSelection(QStringLiteral("CD3+ / T ü")), QStringLiteral("CD3+ / T ü"));
    populations->setCurrentPopulation({});
    QVERIFY(!populations->fromClusters(window.dendrogramPanel()->cutLabeling(), {0}).isEmpty());
    populations->recolour(QStringLiteral("first half"), QColor(QStringLiteral("#aa3311")));
}

}  // namespace clusterlens::test
