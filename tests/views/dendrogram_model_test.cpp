// Dendrogram model: leaf order without crossings, positions, cuts against a union-find
// recomputation, inversions, the level-of-detail geometry (bounded for a chain of 10^6 merges) and
// the Newick writer.

#include <QSignalSpy>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

#include "clusterlens/hca/linkage.hpp"
#include "dendrogram_test_trees.hpp"
#include "dendrogram/dendrogram_clusters.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_geometry.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_newick.hpp"
#include "gui_test_main.hpp"
#include "palette.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::test::chainTree;
using clusterlens::test::fourGroups;
using clusterlens::test::makeLinkage;
using Row = clusterlens::test::TreeRow;

namespace {

/// Random tree: repeatedly merge two random live clusters at increasing heights.
Linkage randomTree(std::size_t n, std::mt19937_64& rng) {
    std::vector<std::int64_t> live(n);
    std::iota(live.begin(), live.end(), 0);
    std::vector<Row> rows;
    double h = 0.0;
    while (live.size() > 1) {
        std::uniform_int_distribution<std::size_t> pick(0, live.size() - 1);
        std::size_t i = pick(rng), j = pick(rng);
        while (j == i) j = pick(rng);
        h += std::uniform_real_distribution<double>(0.01, 1.0)(rng);
        rows.push_back({live[i], live[j], h});
        live[std::min(i, j)] = static_cast<std::int64_t>(n + rows.size() - 1);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(std::max(i, j)));
    }
    return makeLinkage(n, rows);
}

/// Labels after undoing the given merge rows: union-find over the rows kept, components numbered
/// by their leftmost leaf in `order`.
std::vector<std::int32_t> bruteForceCut(const Linkage& linkage, const std::set<std::size_t>& undone,
                                        const std::vector<std::int32_t>& order) {
    const std::size_t n = linkage.leafCount;
    std::vector<std::size_t> parent(2 * n - 1);
    std::iota(parent.begin(), parent.end(), 0);
    const auto find = [&](std::size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (std::size_t i = 0; i + 1 < n; ++i) {
        if (undone.count(i)) continue;
        parent[find(static_cast<std::size_t>(linkage.merges[i].a))] = n + i;
        parent[find(static_cast<std::size_t>(linkage.merges[i].b))] = n + i;
    }
    std::vector<std::int32_t> labels(n, -1);
    std::map<std::size_t, std::int32_t> ids;
    for (std::int32_t leaf : order) {
        const std::size_t root = find(static_cast<std::size_t>(leaf));
        auto it = ids.emplace(root, static_cast<std::int32_t>(ids.size())).first;
        labels[static_cast<std::size_t>(leaf)] = it->second;
    }
    return labels;
}

}  // namespace

class DendrogramModelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void leafOrderHasNoCrossings();
    void chainOfAMillionLeavesIsLaidOutWithExplicitStacks();
    void cutIntoKMatchesUnionFindAndNumbersLeftToRight();
    void cutAtHeightCountsMergesAbove();
    void inversionsAreFoundAndCutsStayNested();
    void geometryDrawsWideSubtreesAsLinksAndNarrowOnesAsStrips();
    void geometryOfAMillionLeafChainIsBoundedByTheWidth();
    void selectionCoversWholeSubtreesOnly();
    void clusterTableHasSizesAndMeans();
    void newickWritesLengthsAndQuotesNames();
};

void DendrogramModelTest::leafOrderHasNoCrossings() {
    const std::uint64_t seed = 20261121;
    qInfo("seed %llu", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    for (std::size_t n : {2u, 3u, 17u, 500u}) {
        const Linkage linkage = randomTree(n, rng);
        const DendrogramLayout layout = buildDendrogramLayout(linkage);
        std::vector<std::int32_t> sorted = layout.order;
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t i = 0; i < n; ++i) QCOMPARE(sorted[i], static_cast<std::int32_t>(i));
        // Every subtree owns exactly the ranks [first, first + size): no link can cross another.
        for (std::int32_t node = static_cast<std::int32_t>(n); node <= layout.root(); ++node) {
            const auto v = static_cast<std::size_t>(node);
            const auto a = static_cast<std::size_t>(layout.left[layout.row(node)]);
            const auto b = static_cast<std::size_t>(layout.right[layout.row(node)]);
            QCOMPARE(layout.first[a], layout.first[v]);
            QCOMPARE(layout.first[b], layout.first[v] + layout.size[a]);
            QCOMPARE(layout.size[v], layout.size[a] + layout.size[b]);
            QCOMPARE(layout.x[v], 0.5 * (layout.x[a] + layout.x[b]));
            QVERIFY(layout.x[v] > layout.first[v] && layout.x[v] < layout.first[v] + layout.size[v]);
            QCOMPARE(layout.parent[a], node);
        }
        QCOMPARE(layout.parent[static_cast<std::size_t>(layout.root())], -1);
        QCOMPARE(layout.inversionCount, std::size_t{0});
    }
}

void DendrogramModelTest::chainOfAMillionLeavesIsLaidOutWithExplicitStacks() {
    const std::size_t n = 1'000'000;
    const DendrogramLayout layout = buildDendrogramLayout(chainTree(n));
    // Row i >= 1 merges leaf i+1 (smaller id, drawn left) with the chain: the order is n-1 .. 2, 0, 1.
    QCOMPARE(layout.order.front(), static_cast<std::int32_t>(n - 1));
    QCOMPARE(layout.order[n - 2], 0);
    QCOMPARE(layout.order.back(), 1);
    QCOMPARE(layout.size[static_cast<std::size_t>(layout.root())], static_cast<std::int32_t>(n));
    const std::vector<std::int64_t> leaves = subtreeLeaves(layout, layout.root());
    QCOMPARE(leaves.size(), n);
    std::ostringstream newick;
    writeNewick(newick, layout);
    const std::string text = newick.str();
    QCOMPARE(std::count(text.begin(), text.end(), '('), static_cast<std::ptrdiff_t>(n - 1));
}

void DendrogramModelTest::cutIntoKMatchesUnionFindAndNumbersLeftToRight() {
    const std::uint64_t seed = 7;
    qInfo("seed %llu", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    const Linkage linkage = randomTree(300, rng);
    const DendrogramLayout layout = buildDendrogramLayout(linkage);
    for (int k : {1, 2, 3, 7, 50, 299, 300}) {
        const DendrogramCut cut = cutIntoClusters(layout, k);
        QCOMPARE(cut.k, k);
        QCOMPARE(cut.roots.size(), static_cast<std::size_t>(k));
        // Monotonic heights: the last k-1 rows are the highest merges.
        std::set<std::size_t> undone;
        for (int i = 0; i < k - 1; ++i) undone.insert(linkage.merges.size() - 1 - static_cast<std::size_t>(i));
        QCOMPARE(cut.labels, bruteForceCut(linkage, undone, layout.order));
        QVERIFY(cut.lower <= cut.upper);
    }
    const DendrogramCut four = cutIntoClusters(buildDendrogramLayout(fourGroups()), 4);
    for (std::size_t i = 0; i < 32; ++i) QCOMPARE(four.labels[i], static_cast<std::int32_t>(i / 8));
    QCOMPARE(four.lower, 0.7);
    QCOMPARE(four.upper, 10.0);
}

void DendrogramModelTest::cutAtHeightCountsMergesAbove() {
    const DendrogramLayout layout = buildDendrogramLayout(fourGroups());
    QCOMPARE(clustersAtHeight(layout, 25.0), 1);
    QCOMPARE(clustersAtHeight(layout, 15.0), 2);
    QCOMPARE(clustersAtHeight(layout, 11.0), 3);
    QCOMPARE(clustersAtHeight(layout, 5.0), 4);
    QCOMPARE(clustersAtHeight(layout, 0.0), 32);
    QCOMPARE(cutIntoClusters(layout, 0).k, 1);
    QCOMPARE(cutIntoClusters(layout, 99).k, 32);
}

void DendrogramModelTest::inversionsAreFoundAndCutsStayNested() {
    // Node 4 = (0,1) at 2; node 5 = (2,3) at 1; node 6 = (4,5) at 1.5, below its child at 2.
    const Linkage linkage = makeLinkage(4, {{0, 1, 2.0}, {2, 3, 1.0}, {4, 5, 1.5}});
    const DendrogramLayout layout = buildDendrogramLayout(linkage);
    QCOMPARE(layout.inversionCount, std::size_t{1});
    QCOMPARE(linkage.inversionCount(), layout.inversionCount);
    QVERIFY(layout.isInverted(6));
    QVERIFY(!layout.isInverted(4));
    QCOMPARE(layout.subtreeTop(6), 2.0);
    QCOMPARE(layout.inversionsBelow[layout.row(6)], 1);
    // The highest subtree maximum is the root's (2, through its child): cuts undo the root first.
    const DendrogramCut two = cutIntoClusters(layout, 2);
    QCOMPARE(two.labels, (std::vector<std::int32_t>{0, 0, 1, 1}));
    const DendrogramCut three = cutIntoClusters(layout, 3);
    QCOMPARE(three.labels, (std::vector<std::int32_t>{0, 1, 2, 2}));
    QCOMPARE(clustersAtHeight(layout, 1.7), 3);
}

void DendrogramModelTest::geometryDrawsWideSubtreesAsLinksAndNarrowOnesAsStrips() {
    const auto layout = std::make_shared<const DendrogramLayout>(buildDendrogramLayout(fourGroups()));
    const DendrogramCut cut = cutIntoClusters(*layout, 4);
    GeometryRequest request;
    request.layout = layout.get();
    request.cut = &cut;
    request.scale = HeightScale::forLayout(*layout, false);
    request.view.reset(*layout, request.scale);
    request.area = QRectF(0, 0, 640, 400);
    const DendrogramGeometry wide = buildDendrogramGeometry(request);
    QVERIFY(wide.strips.empty());
    QCOMPARE(wide.visitedNodes, layout->nodeCount());
    std::set<QRgb> colours;
    for (const GeometrySegment& s : wide.links) colours.insert(s.rgb);
    for (int c = 0; c < 4; ++c) QVERIFY(colours.count(Palette::labelColor(c).rgba()));
    QVERIFY(colours.count(Palette::linkColor().rgba()));
    QCOMPARE(colours.size(), std::size_t{5});
    QVERIFY(wide.cutY > 0 && wide.cutY < 400);

    // 4 pixels for 32 leaves: each group (8 leaves) is 1 pixel wide and becomes a strip.
    request.area = QRectF(0, 0, 4, 400);
    const DendrogramGeometry narrow = buildDendrogramGeometry(request);
    QVERIFY(!narrow.strips.empty());
    QVERIFY(narrow.visitedNodes < layout->nodeCount());
    std::set<QRgb> stripColours;
    for (const GeometryRect& r : narrow.strips) stripColours.insert(r.rgb | 0xff000000u);
    QCOMPARE(stripColours.size(), std::size_t{4});
}

void DendrogramModelTest::geometryOfAMillionLeafChainIsBoundedByTheWidth() {
    const std::size_t n = 1'000'000;
    const DendrogramLayout layout = buildDendrogramLayout(chainTree(n));
    GeometryRequest request;
    request.layout = &layout;
    request.scale = HeightScale::forLayout(layout, false);
    request.view.reset(layout, request.scale);
    request.area = QRectF(0, 0, 1000, 600);
    const DendrogramGeometry geometry = buildDendrogramGeometry(request);
    const std::size_t primitives = geometry.links.size() + geometry.strips.size() + geometry.marks.size();
    QVERIFY2(primitives <= 4 * 1000, qPrintable(QString::number(primitives)));
    QVERIFY(!geometry.links.empty());
}

void DendrogramModelTest::selectionCoversWholeSubtreesOnly() {
    const DendrogramLayout layout = buildDendrogramLayout(fourGroups());
    std::vector<std::int64_t> group1(8);
    std::iota(group1.begin(), group1.end(), 8);
    group1.push_back(99);  // ignored: no such leaf
    const LeafSelection selection(layout, group1);
    QCOMPARE(selection.count(), std::size_t{8});
    QVERIFY(selection.covers(layout, 32 + 13));   // root of group 1 (row 13)
    QVERIFY(!selection.covers(layout, 32 + 28));  // groups 0 and 1
    QVERIFY(selection.covers(layout, 9));
    QVERIFY(!selection.covers(layout, 0));
}

void DendrogramModelTest::clusterTableHasSizesAndMeans() {
    const auto layout = std::make_shared<const DendrogramLayout>(buildDendrogramLayout(fourGroups()));
    auto data = std::make_shared<Dataset>();
    data->n = 32;
    data->d = 2;
    data->features = {"a", "b"};
    for (std::size_t i = 0; i < 32; ++i) {
        data->values.push_back(static_cast<float>(i / 8));
        data->values.push_back(static_cast<float>(i));
    }
    const FeatureSelection features = selectFeatures(data, {QStringLiteral("b"), QStringLiteral("missing")});
    QCOMPARE(features.names, QStringList{QStringLiteral("b")});
    const DendrogramCut cut = cutIntoClusters(*layout, 2);
    const ClusterTable table = summarizeCut(*layout, cut, features);
    QCOMPARE(table.clusters.size(), std::size_t{2});
    QCOMPARE(table.clusters[0].size, std::int64_t{16});
    QCOMPARE(table.clusters[0].height, 10.0);
    QCOMPARE(table.clusters[0].means, std::vector<double>{7.5});
    QCOMPARE(table.clusters[1].means, std::vector<double>{23.5});
    QCOMPARE(subtreeMeans(*layout, 5, features), std::vector<double>{5.0});
}

void DendrogramModelTest::newickWritesLengthsAndQuotesNames() {
    // Node 3 = (0,1) at 1; root = (2,3) at 3: leaf 2 is drawn first.
    const DendrogramLayout layout = buildDendrogramLayout(makeLinkage(3, {{0, 1, 1.0}, {2, 3, 3.0}}));
    std::ostringstream plain;
    writeNewick(plain, layout);
    QCOMPARE(plain.str(), std::string("(2:3,(0:1,1:1):2);\n"));
    const std::vector<std::string> names = {"cell A", "b", "it's"};
    std::ostringstream named;
    writeNewick(named, layout, &names);
    QCOMPARE(named.str(), std::string("('it''s':3,('cell A':1,b:1):2);\n"));
}

CLUSTERLENS_GUI_TEST_MAIN(DendrogramModelTest)
#include "dendrogram_model_test.moc"
