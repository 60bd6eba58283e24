// Linkages of the thesis program ("i j distance") and of R's hclust (merge + height) converted to
// scipy's convention. The expected scipy rows of every example are derived by hand in the comments.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/linkage_import.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::HasSubstr;

namespace {

// 4 points: {2,3} at 0.5 makes 4, {0,1} at 1.25 makes 5, {4,5} at 3 makes 6 (the root).
const std::vector<Merge> kFourPoints = {{2, 3, 0.5, 2}, {0, 1, 1.25, 2}, {4, 5, 3.0, 4}};

// 5 points, R: row 1 = (-1,-5) h 1; row 2 = (-2, 1) h 2; row 3 = (-3,-4) h 2.5; row 4 = (2, 3) h 4.
// scipy: leaves 0 and 4 -> 5 (size 2); leaf 1 with 5 -> 6 (3); leaves 2, 3 -> 7 (2); 6 with 7 -> 8 (5).
const std::vector<Merge> kFivePoints = {{0, 4, 1.0, 2}, {1, 5, 2.0, 3}, {2, 3, 2.5, 2}, {6, 7, 4.0, 5}};

void expectMerges(const Linkage& linkage, const std::vector<Merge>& expected) {
    ASSERT_EQ(linkage.leafCount, expected.size() + 1);
    ASSERT_EQ(linkage.merges.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(linkage.merges[i].a, expected[i].a) << "row " << i;
        EXPECT_EQ(linkage.merges[i].b, expected[i].b) << "row " << i;
        EXPECT_EQ(linkage.merges[i].height, expected[i].height) << "row " << i;
        EXPECT_EQ(linkage.merges[i].size, expected[i].size) << "row " << i;
    }
}

/// The file `name` in `dir` holding `text`.
std::string fileWith(const TempDir& dir, const std::string& name, const std::string& text) {
    writeFile(dir.file(name), text);
    return dir.file(name);
}

std::string errorOf(const std::string& path, std::optional<LinkageFormat> format = std::nullopt) {
    try {
        readLinkage(path, format);
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(LinkageImport, ThesisOutputKeepsItsIdsOrdersPairsAndAddsSizes) {
    const TempDir dir;
    // As gmhclust prints it: 0-based ids, the new cluster of line k is n+k-1, pairs in either order.
    const std::string path = fileWith(dir, "thesis.txt", "3 2 0.5\n0 1 1.25\n5 4 3\n");
    expectMerges(readThesisLinkage(path), kFourPoints);
    EXPECT_EQ(detectLinkageFormat(path), LinkageFormat::Thesis);
    expectMerges(readLinkage(path), kFourPoints);
}

TEST(LinkageImport, HclustMergeAndHeightInEveryWayRWritesThem) {
    const TempDir dir;
    const std::string csv =
        fileWith(dir, "tree.csv",  // write.csv(cbind(h$merge, h$height), "tree.csv")
                 "\"\",\"V1\",\"V2\",\"V3\"\n\"1\",-1,-5,1\n\"2\",-2,1,2\n\"3\",-3,-4,2.5\n\"4\",2,3,4\n");
    const std::string table = fileWith(dir, "tree.txt",  // write.table(..., row.names = FALSE, col.names = FALSE)
                                       "-1 -5 1\n-2 1 2\n-3 -4 2.5\n2 3 4\n");
    const std::string tabs =
        fileWith(dir, "tree.tsv", "merge1\tmerge2\theight\n-1\t-5\t1\n-2\t1\t2\n-3\t-4\t2.5\n2\t3\t4\n");
    for (const std::string& path : {csv, table, tabs}) {
        SCOPED_TRACE(path);
        expectMerges(readHclustLinkage(path), kFivePoints);
        EXPECT_EQ(detectLinkageFormat(path), LinkageFormat::Hclust);
        expectMerges(readLinkage(path), kFivePoints);
    }
}

TEST(LinkageImport, TheSameTreeFromEveryFormatIsTheSameLinkage) {
    const TempDir dir;
    const std::string scipy = fileWith(dir, "l.csv", "a,b,height,size\n2,3,0.5,2\n0,1,1.25,2\n4,5,3,4\n");
    const std::string hclust = fileWith(dir, "h.txt", "-3 -4 0.5\n-1 -2 1.25\n1 2 3\n");
    const std::string thesis = fileWith(dir, "t.txt", "2 3 0.5\n0 1 1.25\n4 5 3\n");
    EXPECT_EQ(detectLinkageFormat(scipy), LinkageFormat::Scipy);
    for (const std::string& path : {scipy, hclust, thesis}) expectMerges(readLinkage(path), kFourPoints);
    // Named formats are read as named, whatever the content suggests.
    expectMerges(readLinkage(thesis, LinkageFormat::Thesis), kFourPoints);
    EXPECT_THAT(errorOf(thesis, LinkageFormat::Hclust), HasSubstr("merge entry 2 is neither an observation -1..-4"));
    EXPECT_THAT(errorOf(hclust, LinkageFormat::Thesis),
                HasSubstr("line 1: cluster -3 does not exist before this line"));
    EXPECT_EQ(parseLinkageFormat("hclust"), LinkageFormat::Hclust);
    EXPECT_THROW(parseLinkageFormat("newick"), InvalidInput);
}

TEST(LinkageImport, RefusesIdsOfClustersNotMadeYetWithTheLine) {
    const TempDir dir;
    EXPECT_THAT(errorOf(fileWith(dir, "a.txt", "0 1 1\n# a comment\n\n5 2 2\n4 3 3\n"), LinkageFormat::Thesis),
                HasSubstr("a.txt: line 4: cluster 5 does not exist before this line (4 points: leaves 0..3"));
    EXPECT_THAT(errorOf(fileWith(dir, "b.txt", "0 1 1\n1 2 2\n4 3 3\n")),
                HasSubstr("line 2: merges a cluster that an earlier line merged already"));
    EXPECT_THAT(errorOf(fileWith(dir, "c.txt", "-1 -2 1\n2 -3 2\n")),
                HasSubstr("line 2: merge entry 2 is neither an observation -1..-3 nor a cluster 1..1"));
    EXPECT_THAT(errorOf(fileWith(dir, "d.txt", "-1 -2 1\n0 -3 2\n")), HasSubstr("merge entry 0"));
    EXPECT_THAT(errorOf(fileWith(dir, "e.txt", "-1 -4 1\n-2 -3 nan\n1 2 3\n")),
                HasSubstr("line 2: the merge distance is NaN"));
    EXPECT_THAT(errorOf(fileWith(dir, "f.txt", "0 0 1\n")), HasSubstr("line 1: merges a cluster with itself"));
    EXPECT_THAT(errorOf(fileWith(dir, "g.txt", "0 1.5 1\n")), HasSubstr("'1.5' is not a whole cluster id"));
}

TEST(LinkageImport, AsksForTheFormatWhenTheContentCannotTell) {
    const TempDir dir;
    // Four non-negative numbers without a header: numpy.savetxt of a scipy matrix, or something else.
    const std::string four = fileWith(dir, "four.txt", "0 1 1 2\n2 3 2 3\n");
    EXPECT_THAT(errorOf(four), HasSubstr("cannot tell the format of this linkage file; give --linkage-format"));
    EXPECT_THAT(errorOf(fileWith(dir, "empty.txt", "\n# nothing\n")), HasSubstr("the linkage file is empty"));
    EXPECT_THAT(errorOf(dir.file("missing.txt")), HasSubstr("cannot open the linkage file"));
}
