#pragma once
// Shared by the GUI session tests: a field-by-field comparison of two sessions (QCOMPARE: call it,
// then return when QTest::currentTestFailed()), and the demo window with a little of everything done
// on it — a linkage cut into clusters, density peaks, a VAT order cut, a comparison, populations.

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
#include "session/session_document.hpp"
#include "session/session_io.hpp"
#include "vat/vat_panel.hpp"

namespace clusterlens::test {

constexpr int kGuiJobTimeoutMs = 90'000;

inline void compareInfo(const ResultInfo& a, const ResultInfo& b) {
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.description, b.description);
    QCOMPARE(a.features, b.features);
    QCOMPARE(a.transform, b.transform);
    QCOMPARE(a.population, b.population);
    QCOMPARE(a.members, b.members);
}

/// Every object of `actual` equals the one of the same position in `expected`, doubles bit for bit;
/// the view state too unless `withViewState` is false (a window that autosaves re-captures its own).
inline void compareSessions(const Session& actual, const Session& expected, bool withViewState = true) {
    QCOMPARE(actual.data.path, expected.data.path);
    QCOMPARE(actual.data.sha256, expected.data.sha256);
    QCOMPARE(actual.data.fileSize, expected.data.fileSize);
    QCOMPARE(actual.data.read.transform, expected.data.read.transform);
    QCOMPARE(actual.data.n, expected.data.n);
    QCOMPARE(actual.data.d, expected.data.d);
    QCOMPARE(actual.data.features, expected.data.features);
    QCOMPARE(actual.linkages.size(), expected.linkages.size());
    for (std::size_t i = 0; i < actual.linkages.size(); ++i) {
        compareInfo(actual.linkages[i].info, expected.linkages[i].info);
        const Linkage& a = actual.linkages[i].linkage;
        const Linkage& b = expected.linkages[i].linkage;
        QCOMPARE(a.leafCount, b.leafCount);
        QCOMPARE(a.merges.size(), b.merges.size());
        for (std::size_t m = 0; m < a.merges.size(); ++m) {
            QCOMPARE(a.merges[m].a, b.merges[m].a);
            QCOMPARE(a.merges[m].b, b.merges[m].b);
            QCOMPARE(a.merges[m].height, b.merges[m].height);
            QCOMPARE(a.merges[m].size, b.merges[m].size);
        }
    }
    QCOMPARE(actual.labelings.size(), expected.labelings.size());
    for (std::size_t i = 0; i < actual.labelings.size(); ++i) {
        compareInfo(actual.labelings[i].info, expected.labelings[i].info);
        QCOMPARE(actual.labelings[i].labels, expected.labelings[i].labels);
        QCOMPARE(actual.labelings[i].clusterNames, expected.labelings[i].clusterNames);
        QCOMPARE(actual.labelings[i].clusterColours, expected.labelings[i].clusterColours);
    }
    QCOMPARE(actual.dpc.size(), expected.dpc.size());
    for (std::size_t i = 0; i < actual.dpc.size(); ++i) {
        const DpcResult& a = actual.dpc[i];
        const DpcResult& b = expected.dpc[i];
        compareInfo(a.info, b.info);
        QCOMPARE(a.dc, b.dc);
        QCOMPARE(a.dcPercent, b.dcPercent);
        QCOMPARE(a.dcMethod, b.dcMethod);
        QCOMPARE(a.kernel, b.kernel);
        QCOMPARE(a.rho, b.rho);
        QCOMPARE(a.delta, b.delta);
        QCOMPARE(a.gamma, b.gamma);
        QCOMPARE(a.nearestHigher, b.nearestHigher);
        QCOMPARE(a.peaks, b.peaks);
        QCOMPARE(a.halo, b.halo);
    }
    QCOMPARE(actual.vat.size(), expected.vat.size());
    for (std::size_t i = 0; i < actual.vat.size(); ++i) {
        compareInfo(actual.vat[i].info, expected.vat[i].info);
        QCOMPARE(actual.vat[i].metric, expected.vat[i].metric);
        QCOMPARE(actual.vat[i].order, expected.vat[i].order);
        QCOMPARE(actual.vat[i].cut, expected.vat[i].cut);
    }
    QCOMPARE(actual.comparisons.size(), expected.comparisons.size());
    for (std::size_t i = 0; i < actual.comparisons.size(); ++i) {
        const ComparisonResult& a = actual.comparisons[i];
        const ComparisonResult& b = expected.comparisons[i];
        compareInfo(a.info, b.info);
        QCOMPARE(a.labelingA, b.labelingA);
        QCOMPARE(a.labelingB, b.labelingB);
        QCOMPARE(a.matching, b.matching);
        QCOMPARE(a.ari, b.ari);
        QCOMPARE(a.nmi, b.nmi);
        QCOMPARE(a.fMeasure, b.fMeasure);
        QCOMPARE(a.pairs.size(), b.pairs.size());
        for (std::size_t p = 0; p < a.pairs.size(); ++p) {
            QCOMPARE(a.pairs[p].a, b.pairs[p].a);
            QCOMPARE(a.pairs[p].b, b.pairs[p].b);
            QCOMPARE(a.pairs[p].f1, b.pairs[p].f1);
        }
    }
    QCOMPARE(actual.populations.size(), expected.populations.size());
    for (std::size_t i = 0; i < actual.populations.size(); ++i) {
        const Population& a = actual.populations[i];
        const Population& b = expected.populations[i];
        QCOMPARE(a.name, b.name);
        QCOMPARE(a.parent, b.parent);
        QCOMPARE(a.colour, b.colour);
        QCOMPARE(a.visible, b.visible);
        QCOMPARE(a.definition, b.definition);
        QCOMPARE(a.members, b.members);
    }
    if (withViewState) QCOMPARE(actual.viewState, expected.viewState);
}

inline std::vector<std::int64_t> indexRange(std::int64_t first, std::int64_t last) {
    std::vector<std::int64_t> members(static_cast<std::size_t>(last - first + 1));
    std::iota(members.begin(), members.end(), first);
    return members;
}

/// Shows the window and opens the demo dataset; returns once it is drawn and fingerprinted.
inline void openDemo(gui::MainWindow& window) {
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
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
    QTRY_VERIFY_WITH_TIMEOUT(flat->comparison() && flat->comparison()->nameA == window.dendrogramPanel()->cutLabeling() &&
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
