// GUI soak test (ctest labels gui and soak): rounds of random user actions with a fixed seed on one main
// window — open the demo or a second file, analyse, cut, pick, gate, combine, undo, redo, export, save
// and reopen, then File > New session. After every round the application must be idle (no job, no
// dialog waiting) and consistent (the populations of the document, of the analysis session and of the
// panel agree, each a sorted set of events of the data), and nothing may pile up between rounds: the
// objects of the window and the application's widgets (exactly), the bytes the heap hands out
// (liveHeapBytes) and the resident memory (coarsely), each as the lowest value of the last rounds
// against the lowest of the first ones (floorGrowth), since single rounds differ with what they did.
// LeakSanitizer finds memory nobody points at any more; this finds what stays reachable and piles up
// (an undo stack or a cache that is never emptied, a closed view that is only hidden). CI runs it in
// the ASan + UBSan build (docs/reliability.md); CLUSTERLENS_SOAK_ROUNDS runs longer.

#include <QAbstractItemModel>
#include <QApplication>
#include <QUndoStack>
#include <QtTest>

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include "analysis_session.hpp"
#include "dataset_session.hpp"
#include "gui_test_main.hpp"
#include "populations/population_model.hpp"
#include "populations/populations_panel.hpp"
#include "session/session_document.hpp"
#include "soak_actions.hpp"

#if defined(__SANITIZE_ADDRESS__)
// From <sanitizer/allocator_interface.h>, which Debian's g++ 12 does not install.
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();

// ASan keeps freed blocks in a quarantine of 256 MiB by default, which would read as growth here; a
// small one still catches a use after free of the last few thousand blocks. ASAN_OPTIONS overrides it.
extern "C" const char* __asan_default_options() {
    return "quarantine_size_mb=16";
}
#endif

using clusterlens::gui::MainWindow;

namespace {

constexpr std::uint32_t kSeed = 20261128;
constexpr int kDefaultRounds = 8;
constexpr int kActionsPerRound = 40;
// The heap after a round (a new session) differs from round to round by up to ~19 MiB without a trend
// (ASan: 127-146 MiB over 14 rounds on the 2-core VM; the floor of the last three rounds exceeded the
// first three's by 12.9 MiB in one CI run). ASan's memory profile (__sanitizer_print_memory_profile)
// puts about 110 of those MiB in Mesa's llvmpipe driver (swrast_dri.so: textures, framebuffers and
// compiled shaders of the OpenGL views), which rises and falls with what a round drew; ClusterLens's
// own blocks are the rest. So the heap is a coarse bound: the lowest heap of the last three rounds may
// exceed the lowest of the first three by this much. A leak of 5 MiB per round (a dataset's copy, a VAT
// image, an undo stack that keeps every command) raises that floor by about 25 MiB over 8 rounds and
// fails (floorGrowthSeesASteadyLeakThroughTheRoundsNoise). What the heap cannot resolve, a view or a
// dialog that is made each time and only hidden, the object counts below catch exactly.
constexpr long long kHeapGrowthToleranceBytes = 24LL << 20;
constexpr long long kSelfCheckLeakPerRoundBytes = 5LL << 20;
constexpr int kFloorRounds = 3;
// Resident memory also counts pages the allocators keep for later and, under ASan, its quarantine and
// shadow: a coarse bound that catches what the heap count cannot see (OpenGL buffers mapped by Mesa).
// Its floors start at the second round, when both files have been open once and caches and pools are
// warm (the first round ends ~30 MiB lower). Under ASan single rounds read 396-435 MiB, so a round
// against the second one (as before) came within 9 MiB of the bound without a trend.
constexpr long long kResidentGrowthToleranceBytes = 48LL << 20;
constexpr int kWarmRounds = 2;

/// Resident memory of this process (the second field of /proc/self/statm, in pages).
long long residentBytes() {
    std::ifstream statm("/proc/self/statm");
    long long size = 0, resident = 0;
    statm >> size >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

/// Bytes of the heap in use by the program now: allocated and not yet freed, without the allocator's
/// free lists (and without ASan's quarantine in the sanitizer build).
long long liveHeapBytes() {
#if defined(__SANITIZE_ADDRESS__)
    return static_cast<long long>(__sanitizer_get_current_allocated_bytes());
#else
    const struct mallinfo2 info = mallinfo2();
    return static_cast<long long>(info.uordblks + info.hblkhd);
#endif
}

// Where the self-check's block escapes to, so that the compiler cannot leave the allocation out.
void* volatile g_keptBlock = nullptr;

/// How much the lowest of the last kFloorRounds values exceeds the lowest of the kFloorRounds values
/// from `first` on; 0 when there are too few values to compare two separate floors.
long long floorGrowth(const std::vector<long long>& values, std::size_t first) {
    if (values.size() < first + 2 * kFloorRounds) return 0;
    const auto from = values.begin() + static_cast<std::ptrdiff_t>(first);
    const long long early = *std::min_element(from, from + kFloorRounds);
    const long long late = *std::min_element(values.end() - kFloorRounds, values.end());
    return late - early;
}

QString mib(long long bytes) {
    return QString::number(bytes / 1048576.0, 'f', 1);
}

/// Rows of a tree model below `parent`, at every depth (populations nest inside their parent).
int treeRows(const QAbstractItemModel& model, const QModelIndex& parent) {
    int rows = 0;
    for (int row = 0; row < model.rowCount(parent); ++row) rows += 1 + treeRows(model, model.index(row, 0, parent));
    return rows;
}

int rounds() {
    bool ok = false;
    const int fromEnvironment = qEnvironmentVariableIntValue("CLUSTERLENS_SOAK_ROUNDS", &ok);
    return ok && fromEnvironment > kWarmRounds ? fromEnvironment : kDefaultRounds;
}

}  // namespace

class SoakTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void liveHeapCountSeesABlockThatIsKeptAndItsRelease();
    void floorGrowthSeesASteadyLeakThroughTheRoundsNoise();
    void randomUserActionsLeaveTheAppIdleConsistentAndBounded();

private:
    void checkConsistent(MainWindow& window);
};

void SoakTest::checkConsistent(MainWindow& window) {
    using namespace clusterlens;
    const auto data = window.session()->current();
    QVERIFY(data);
    QCOMPARE(data->n, window.document()->session().data.n);
    QStringList documentNames;
    for (const Population& population : window.document()->populations()) {
        documentNames << QString::fromStdString(population.name);
        QVERIFY2(std::is_sorted(population.members.begin(), population.members.end()), population.name.c_str());
        QVERIFY2(std::adjacent_find(population.members.begin(), population.members.end()) == population.members.end(),
                 population.name.c_str());
        QVERIFY2(population.members.empty() || (population.members.front() >= 0 &&
                                                population.members.back() < static_cast<std::int64_t>(data->n)),
                 population.name.c_str());
    }
    QStringList analysisNames = window.analysis()->populationNames();
    documentNames.sort();
    analysisNames.sort();
    QCOMPARE(analysisNames, documentNames);
    QCOMPARE(treeRows(*window.populationsPanel()->model(), {}), static_cast<int>(documentNames.size()));
    QVERIFY(window.undoStack()->index() <= window.undoStack()->count());
}

// The growth check below is only as good as its measure: a block the size of a round's leak must show.
void SoakTest::liveHeapCountSeesABlockThatIsKeptAndItsRelease() {
    const long long before = liveHeapBytes();
    auto kept = std::make_unique<std::vector<char>>(kHeapGrowthToleranceBytes + (1 << 20), 'x');
    g_keptBlock = kept->data();
    const long long holding = liveHeapBytes();
    QVERIFY2(holding - before >= static_cast<long long>(kept->size()), qPrintable(mib(holding - before)));
    kept.reset();
    g_keptBlock = nullptr;
    QVERIFY2(holding - liveHeapBytes() >= kHeapGrowthToleranceBytes, qPrintable(mib(holding - liveHeapBytes())));
}

// The heaps two ASan runs measured after rounds 0-7 (MiB; the second is the CI run whose floor rose by
// 12.9 MiB): no leak. The same rounds with kSelfCheckLeakPerRoundBytes more kept after every round must
// fail the bound.
void SoakTest::floorGrowthSeesASteadyLeakThroughTheRoundsNoise() {
    const std::vector<std::vector<double>> runs = {{122.4, 124.1, 127.9, 123.4, 123.5, 124.6, 131.6, 127.4},
                                                   {128.8, 136.6, 126.1, 126.8, 138.5, 139.0, 143.0, 142.3}};
    for (const std::vector<double>& measured : runs) {
        std::vector<long long> noise, leaking;
        for (std::size_t round = 0; round < measured.size(); ++round) {
            noise.push_back(static_cast<long long>(measured[round] * 1048576.0));
            leaking.push_back(noise.back() + static_cast<long long>(round) * kSelfCheckLeakPerRoundBytes);
        }
        QVERIFY2(floorGrowth(noise, 0) <= kHeapGrowthToleranceBytes, qPrintable(mib(floorGrowth(noise, 0))));
        QVERIFY2(floorGrowth(leaking, 0) > kHeapGrowthToleranceBytes, qPrintable(mib(floorGrowth(leaking, 0))));
        QCOMPARE(floorGrowth(std::vector<long long>(noise.begin(), noise.begin() + 5), 0), 0LL);
    }
    // Object counts have no noise: one more object kept per round shows as growth.
    QCOMPARE(floorGrowth({1306, 1306, 1306, 1306, 1306, 1306, 1306, 1306}, 0), 0LL);
    QCOMPARE(floorGrowth({1306, 1307, 1308, 1309, 1310, 1311, 1312, 1313}, 0), 5LL);
}

void SoakTest::randomUserActionsLeaveTheAppIdleConsistentAndBounded() {
    MainWindow window;
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    clusterlens::test::SoakDriver driver(window, kSeed);

    std::vector<long long> heaps, residents, objects, widgets;
    for (int round = 0; round < rounds(); ++round) {
        // Every round starts on a file and so is independent of the last one's random end.
        round % 2 ? driver.openSecondFile() : driver.openDemo();
        QVERIFY(!QTest::currentTestFailed());
        QString last;
        for (int i = 0; i < kActionsPerRound; ++i) {
            last = driver.runRandomAction();
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("round %1, action %2: %3").arg(round).arg(i).arg(last)));
            QVERIFY2(window.isVisible(), qPrintable(last));
        }
        QVERIFY2(driver.waitUntilIdle(), qPrintable(QStringLiteral("round %1 did not come to rest").arg(round)));
        checkConsistent(window);
        QVERIFY(!QTest::currentTestFailed());
        driver.newSession();
        QVERIFY(driver.waitUntilIdle());
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);

        const long long heap = liveHeapBytes();
        const long long resident = residentBytes();
        objects.push_back(window.findChildren<QObject*>().size());
        widgets.push_back(QApplication::allWidgets().size());
        qInfo("round %d: %d actions so far, heap %s MiB, resident %s MiB, %lld objects in the window, %lld widgets",
              round, driver.actionsRun(), qPrintable(mib(heap)), qPrintable(mib(resident)), objects.back(),
              widgets.back());
        heaps.push_back(heap);
        residents.push_back(resident);
    }
    const long long heapGrowth = floorGrowth(heaps, 0);
    QVERIFY2(heapGrowth <= kHeapGrowthToleranceBytes,
             qPrintable(QStringLiteral("the heap's floor grew by %1 MiB from the first %2 rounds to the last %2")
                            .arg(mib(heapGrowth))
                            .arg(kFloorRounds)));
    const long long residentGrowth = floorGrowth(residents, kWarmRounds - 1);
    QVERIFY2(residentGrowth <= kResidentGrowthToleranceBytes,
             qPrintable(QStringLiteral("the resident memory's floor grew by %1 MiB from rounds %2-%3 to the last %4")
                            .arg(mib(residentGrowth))
                            .arg(kWarmRounds - 1)
                            .arg(kWarmRounds + kFloorRounds - 2)
                            .arg(kFloorRounds)));
    // After a new session the window holds the same objects every round, and no widget lives outside it
    // that was not there before (a dialog or a view made each time and only hidden).
    QVERIFY2(
        floorGrowth(objects, 0) == 0,
        qPrintable(QStringLiteral("the window's objects grew by %1 over the rounds").arg(floorGrowth(objects, 0))));
    QVERIFY2(floorGrowth(widgets, 0) == 0,
             qPrintable(
                 QStringLiteral("the application's widgets grew by %1 over the rounds").arg(floorGrowth(widgets, 0))));
    window.document()->setModified(false);
    window.close();
    QTRY_VERIFY(!window.isVisible());
}

CLUSTERLENS_GUI_TEST_MAIN(SoakTest)
#include "soak_test.moc"
