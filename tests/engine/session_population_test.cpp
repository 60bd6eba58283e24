// Populations: set algebra, statistics, invariants of the session model, and the dataset reference.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/session/population.hpp"
#include "clusterlens/session/session_data.hpp"
#include "session_fixture.hpp"
#include "test_support.hpp"

namespace clusterlens {
namespace {

/// The brute-force answer of a set operation on 0..n-1, by membership flags.
Members byFlags(std::size_t n, const Members& a, const Members& b, bool (*op)(bool, bool)) {
    std::vector<bool> inA(n), inB(n);
    for (auto i : a) inA[static_cast<std::size_t>(i)] = true;
    for (auto i : b) inB[static_cast<std::size_t>(i)] = true;
    Members out;
    for (std::size_t i = 0; i < n; ++i)
        if (op(inA[i], inB[i])) out.push_back(static_cast<std::int64_t>(i));
    return out;
}

Members randomMembers(std::size_t n, std::mt19937_64& rng) {
    Members out;
    for (std::size_t i = 0; i < n; ++i)
        if (rng() % 3 == 0) out.push_back(static_cast<std::int64_t>(i));
    return out;
}

TEST(Population, AndOrNotEqualMembershipFlagsOnRandomSets) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    for (int trial = 0; trial < 50; ++trial) {
        const std::size_t n = 1 + rng() % 200;
        const Members a = randomMembers(n, rng), b = randomMembers(n, rng);
        EXPECT_EQ(intersectMembers(a, b), byFlags(n, a, b, [](bool x, bool y) { return x && y; }));
        EXPECT_EQ(uniteMembers(a, b), byFlags(n, a, b, [](bool x, bool y) { return x || y; }));
        EXPECT_EQ(subtractMembers(a, b), byFlags(n, a, b, [](bool x, bool y) { return x && !y; }));
        EXPECT_EQ(complementMembers(a, n), byFlags(n, a, b, [](bool x, bool) { return !x; }));
        EXPECT_EQ(complementMembers(intersectMembers(a, b), b),
                  byFlags(n, a, b, [](bool x, bool y) { return y && !x; }));
        EXPECT_TRUE(isSubset(intersectMembers(a, b), a));
        EXPECT_TRUE(isSubset(a, uniteMembers(a, b)));
    }
}

TEST(Population, NotRelativeToTheParentStaysInsideTheParent) {
    const Members parent = {2, 4, 6, 8, 10};
    EXPECT_EQ(complementMembers({4, 8}, parent), (Members{2, 6, 10}));
    EXPECT_EQ(complementMembers({4, 8}, 12), (Members{0, 1, 2, 3, 5, 6, 7, 9, 10, 11}));
    EXPECT_EQ(allMembers(3), (Members{0, 1, 2}));
    EXPECT_FALSE(isSubset({3}, parent));
}

TEST(Population, MembersOfChosenClusters) {
    const std::vector<std::int32_t> labels = {0, 1, 2, 3, 1, -1, 3, 0};
    EXPECT_EQ(membersOfClusters(labels, {3, 1}), (Members{1, 3, 4, 6}));
    EXPECT_EQ(membersOfClusters(labels, {-1}), (Members{5}));
    EXPECT_TRUE(membersOfClusters(labels, {7}).empty());
}

TEST(Population, ValidateMembersRefusesUnsortedRepeatedOrOutOfRange) {
    EXPECT_NO_THROW(validateMembers({0, 3, 9}, 10, "p"));
    EXPECT_THROW(validateMembers({3, 2}, 10, "p"), InvalidInput);
    EXPECT_THROW(validateMembers({2, 2}, 10, "p"), InvalidInput);
    EXPECT_THROW(validateMembers({10}, 10, "p"), InvalidInput);
    EXPECT_THROW(validateMembers({-1}, 10, "p"), InvalidInput);
}

TEST(Population, CountsArePercentOfParentAndOfAll) {
    Session s;
    s.data.n = 200;
    s.populations.push_back({"parent", "", "#000000", true, "", allMembers(50)});
    s.populations.push_back({"child", "parent", "#000000", true, "", {1, 2, 3, 4, 5}});
    const PopulationCounts root = populationCounts(s, s.populations[0]);
    EXPECT_EQ(root.count, 50u);
    EXPECT_EQ(root.parentCount, 200u);
    EXPECT_DOUBLE_EQ(root.percentOfParent, 25.0);
    const PopulationCounts child = populationCounts(s, s.populations[1]);
    EXPECT_EQ(child.parentCount, 50u);
    EXPECT_DOUBLE_EQ(child.percentOfParent, 10.0);
    EXPECT_DOUBLE_EQ(child.percentOfAll, 2.5);
    EXPECT_EQ(parentMembers(s, s.populations[1]), allMembers(50));
    s.populations[1].parent = "gone";
    EXPECT_THROW(populationCounts(s, s.populations[1]), InvalidInput);
}

TEST(Population, MediansPerMarkerOfTheMembersOnly) {
    // 6 events x 2 markers; members 0, 2, 3, 5.
    const std::vector<float> x = {1, 10, 100, 100, 3, 30, 2, NAN, 100, 100, 4, 20};
    const std::vector<double> medians = memberMedians(x.data(), 6, 2, {0, 2, 3, 5});
    ASSERT_EQ(medians.size(), 2u);
    EXPECT_DOUBLE_EQ(medians[0], 2.5);   // 1, 3, 2, 4
    EXPECT_DOUBLE_EQ(medians[1], 20.0);  // 10, 30, NaN skipped, 20
    const std::vector<double> none = memberMedians(x.data(), 6, 2, {});
    EXPECT_TRUE(std::isnan(none[0]) && std::isnan(none[1]));
    EXPECT_THROW(memberMedians(x.data(), 6, 2, {6}), InvalidInput);
}

TEST(Population, GatherScatterAndPositionsKeepWholeDatasetIndices) {
    const std::vector<float> x = {0, 1, 10, 11, 20, 21, 30, 31};
    EXPECT_EQ(gatherRows(x.data(), 4, 2, {1, 3}), (std::vector<float>{10, 11, 30, 31}));
    EXPECT_EQ(scatterLabels({5, 6}, {1, 3}, 4), (std::vector<std::int32_t>{-1, 5, -1, 6}));
    EXPECT_EQ(positionsToIndices({1, -1, 0}, {4, 9}), (std::vector<std::int64_t>{9, -1, 4}));
    EXPECT_THROW(positionsToIndices({2}, {4, 9}), InvalidInput);
    EXPECT_THROW(scatterLabels({1}, {1, 3}, 4), InvalidInput);
}

TEST(Population, IndicesToPositionsInvertsPositionsToIndicesAndMarksNonMembers) {
    const Members members = {4, 9, 12};
    EXPECT_EQ(indicesToPositions(positionsToIndices({2, 0, -1, 1}, members), members),
              (std::vector<std::int64_t>{2, 0, -1, 1}));
    EXPECT_EQ(indicesToPositions({5, 13, 0, -1, 12}, members), (std::vector<std::int64_t>{-1, -1, -1, -1, 2}));
}

TEST(Population, GatherLabelsTakesTheMembersLabelsInMemberOrder) {
    const std::vector<std::int32_t> whole = {7, -1, 3, 5};
    EXPECT_EQ(gatherLabels(whole, {1, 2, 3}), (std::vector<std::int32_t>{-1, 3, 5}));
    EXPECT_EQ(gatherLabels(scatterLabels({0, 2}, {0, 3}, 4), {0, 3}), (std::vector<std::int32_t>{0, 2}));
    EXPECT_THROW(gatherLabels(whole, {4}), InvalidInput);
}

/// The message validateSession throws for `session` ("" when it accepts it).
std::string violation(const Session& session) {
    try {
        validateSession(session, "S");
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "";
}

TEST(SessionModel, ValidationNamesTheBrokenObject) {
    const Session good = test::richSession(1);
    EXPECT_EQ(violation(good), "");
    Session s = good;
    s.populations[0].parent = "CD4 ⊂ T";  // T/cells <-> CD4 ⊂ T
    s.populations[1].members = {};
    EXPECT_NE(violation(s).find("cycle"), std::string::npos) << violation(s);
    s = good;
    s.populations[1].parent = "missing";
    EXPECT_NE(violation(s).find("parent 'missing'"), std::string::npos);
    s = good;
    s.labelings.push_back(s.labelings[0]);
    EXPECT_NE(violation(s).find("used twice"), std::string::npos);
    s = good;
    s.labelings[0].clusterColours[1] = "orange";
    EXPECT_NE(violation(s).find("#rrggbb"), std::string::npos);
    s = good;
    s.labelings[1].labels[0] = 0;  // event 0 is not a member of the population run
    EXPECT_NE(violation(s).find("not a member"), std::string::npos);
    s = good;
    s.dpc[0].nearestHigher[1] = 0;
    EXPECT_NE(violation(s).find("nearest_higher 0"), std::string::npos);
    s = good;
    s.linkages[1].linkage = s.linkages[0].linkage;
    EXPECT_NE(violation(s).find("40 leaves for 8 points"), std::string::npos);
    s = good;
    s.comparisons[0].labelingB = "nope";
    EXPECT_NE(violation(s).find("labeling 'nope'"), std::string::npos);
}

TEST(SessionModel, PutNamedReplacesInPlaceAndRemoveNamedRemoves) {
    Session s = test::richSession(1);
    LabelingResult replacement = s.labelings[0];
    replacement.info.description = "again";
    putNamed(s.labelings, replacement);
    ASSERT_EQ(s.labelings.size(), 2u);
    EXPECT_EQ(s.labelings[0].info.description, "again");
    replacement.info.name = "new";
    putNamed(s.labelings, replacement);
    EXPECT_EQ(s.labelings.size(), 3u);
    EXPECT_NE(findNamed(s.labelings, "new"), nullptr);
    EXPECT_TRUE(removeNamed(s.labelings, "new"));
    EXPECT_FALSE(removeNamed(s.labelings, "new"));
    EXPECT_EQ(findNamed(s.populations, "T/cells")->members.size(), 8u);
}

TEST(SessionData, ReferenceChecksTheFileAndReadsItTheSameWay) {
    test::TempDir dir;
    const std::string path = dir.file("cells.csv");
    test::writeFile(path, "CD3,CD4,CD8\n1,200,3\n4,500,6\n7,800,9\n");
    DatasetReadSpec spec;
    spec.columns = {"CD4", "CD3"};
    spec.transform = "asinh:150";
    spec.cofactors = {{"CD3", 5.0}};
    const Dataset prepared = prepareData(readDataset(path, readOptionsOf(spec)), spec);
    ASSERT_EQ(prepared.d, 2u);
    EXPECT_FLOAT_EQ(prepared.at(1, 0), static_cast<float>(std::asinh(500.0 / 150.0)));
    EXPECT_FLOAT_EQ(prepared.at(1, 1), static_cast<float>(std::asinh(4.0 / 5.0)));
    const DatasetReference reference = describeDataFile(path, spec, prepared);
    EXPECT_EQ(reference.fileSize, 36u);
    EXPECT_EQ(reference.n, 3u);
    EXPECT_EQ(reference.features, (std::vector<std::string>{"CD4", "CD3"}));
    const Dataset again = loadReferencedData(reference);
    EXPECT_EQ(again.values, prepared.values);

    test::writeFile(dir.file("other.csv"), "CD3,CD4,CD8\n1,200,3\n4,500,6\n7,800,10\n");
    try {
        loadReferencedData(reference, dir.file("other.csv"));
        FAIL() << "a different file was accepted";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("is not the data file of this session"), std::string::npos) << e.what();
    }
    DatasetReference mailed = reference;
    embedData(mailed, prepared);
    mailed.path = dir.file("gone.csv");
    EXPECT_EQ(loadReferencedData(mailed).values, prepared.values);
    spec.transform = "zscore";
    EXPECT_THROW(prepareData(readDataset(path), spec), InvalidInput);
}

}  // namespace
}  // namespace clusterlens
