// The choice of the two results a comparison view compares: two different ones whenever two exist,
// and a new cut of a compared tree (or new k-means, new peaks) followed on its side.

#include "compare/compared_pair.hpp"
#include "gui_test_main.hpp"

using namespace clusterlens::views;

namespace {

QStringList names(std::initializer_list<const char*> list) {
    QStringList out;
    for (const char* name : list) out << QString::fromUtf8(name);
    return out;
}

}  // namespace

class ComparedPairTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void originDropsTheClusterCount() {
        QCOMPARE(resultOrigin(QStringLiteral("cut of MHCA (k=5)")), QStringLiteral("cut of MHCA"));
        QCOMPARE(resultOrigin(QStringLiteral("ground truth (class)")), QStringLiteral("ground truth (class)"));
    }
    void twoResultsAreNeverComparedWithThemselves() {
        const QStringList two = names({"DPC (k=3)", "ground truth (class)"});
        // Both arrive at once (a session opens, a file with labels and a stored run).
        QCOMPARE(chooseComparedPair(two, {}, {}, {}), std::make_pair(0, 1));
        // One arrives after the other: the first was compared with itself, the second becomes B.
        QCOMPARE(chooseComparedPair(two, names({"ground truth (class)"}), two[1], two[1]), std::make_pair(1, 0));
        QCOMPARE(chooseComparedPair(names({"only"}), {}, {}, {}), std::make_pair(0, 0));
        QCOMPARE(chooseComparedPair({}, {}, {}, {}), std::make_pair(-1, -1));
    }
    void aNewCutOfTheComparedTreeReplacesItsSide() {
        const QStringList before = names({"cut of MHCA (k=5)", "ground truth (class)"});
        const QStringList after = names({"cut of MHCA (k=5)", "cut of MHCA (k=6)", "ground truth (class)"});
        // B showed the cut: the new cut becomes B, A stays.
        QCOMPARE(chooseComparedPair(after, before, before[1], before[0]), std::make_pair(2, 1));
        // A showed the cut: the new cut becomes A.
        QCOMPARE(chooseComparedPair(after, before, before[0], before[1]), std::make_pair(1, 2));
    }
    void anUnrelatedNewResultLeavesAChosenPairAlone() {
        const QStringList before = names({"cut of MHCA (k=5)", "ground truth (class)"});
        const QStringList after = names({"cut of MHCA (k=5)", "ground truth (class)", "k-means (k=4)"});
        QCOMPARE(chooseComparedPair(after, before, before[1], before[0]), std::make_pair(1, 0));
    }
    void aRemovedChoiceFallsBackToAnotherResult() {
        const QStringList after = names({"a", "b"});
        QCOMPARE(chooseComparedPair(after, names({"a", "b", "c"}), QStringLiteral("c"), QStringLiteral("a")),
                 std::make_pair(0, 1));
    }
};

CLUSTERLENS_GUI_TEST_MAIN(ComparedPairTest)
#include "compared_pair_test.moc"
