#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "clusterlens/io/labels.hpp"

using namespace clusterlens;
using clusterlens::test::runCli;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::HasSubstr;

TEST(CliCompare, ReportsScoresAndMatchedPairs) {
    TempDir dir;
    writeLabelsCsv(dir.file("a.csv"), {0, 0, 0, 1, 1, 1});
    writeLabelsCsv(dir.file("b.csv"), {0, 0, 1, 1, 2, 2});
    auto result = runCli({"compare", dir.file("a.csv"), dir.file("b.csv"), "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, AllOf(HasSubstr("\"ari\":0.2424242424242"), HasSubstr("\"nmi\":0.515803742979"),
                                  HasSubstr("\"f_measure\":"), HasSubstr("\"pairs\":[{\"a\":0,\"b\":0,\"f1\":0.8")));
    result = runCli({"compare", dir.file("a.csv"), dir.file("b.csv"), "--matching", "greedy"});
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_THAT(result.out, HasSubstr("ARI: 0.242424"));
}

TEST(CliCompare, LengthMismatchAndBadFilesExitThreeBadOptionExitTwo) {
    TempDir dir;
    writeLabelsCsv(dir.file("a.csv"), {0, 1, 1});
    writeLabelsCsv(dir.file("b.csv"), {0, 1});
    writeFile(dir.file("bad.csv"), "index,label\n0,1\n1,x\n");
    auto result = runCli({"compare", dir.file("a.csv"), dir.file("b.csv")});
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_THAT(result.err, AllOf(HasSubstr("b.csv"), HasSubstr("2 labels")));
    EXPECT_EQ(runCli({"compare", dir.file("a.csv"), dir.file("bad.csv")}).exitCode, 3);
    EXPECT_EQ(runCli({"compare", dir.file("a.csv"), dir.file("a.csv"), "--matching", "auction"}).exitCode, 2);
    EXPECT_EQ(runCli({"compare", dir.file("a.csv")}).exitCode, 2);
}

TEST(CliCompareHeights, IdenticalLinkagesCorrelatePerfectly) {
    TempDir dir;
    auto result = runCli({"hca", test::dataPath("tables/iris.csv"), "--linkage", "average", "--backend", "cpu", "--out",
                          dir.file("a.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    result = runCli({"hca", test::dataPath("tables/iris.csv"), "--linkage", "ward", "--backend", "cpu", "--out",
                     dir.file("w.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    result = runCli({"compare-heights", dir.file("a.csv"), dir.file("a.csv"), "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, AllOf(HasSubstr("\"pearson\":1"), HasSubstr("\"spearman\":1")));
    result = runCli({"compare-heights", dir.file("a.csv"), dir.file("w.csv"), "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, AllOf(HasSubstr("\"pearson\":0."), HasSubstr("\"spearman\":0.")));
    writeFile(dir.file("small.csv"), "a,b,height,size\n0,1,1.0,2\n");
    EXPECT_EQ(runCli({"compare-heights", dir.file("a.csv"), dir.file("small.csv")}).exitCode, 3);
}

TEST(CliCompareHeights, OutWritesEveryPointsHeightsAndRankDifference) {
    TempDir dir;
    writeFile(dir.file("a.csv"), "a,b,height,size\n0,1,1,2\n2,3,2,3\n");
    writeFile(dir.file("b.csv"), "a,b,height,size\n1,2,0.5,2\n0,3,4,3\n");
    auto result =
        runCli({"compare-heights", dir.file("a.csv"), dir.file("b.csv"), "--out", dir.file("d.csv"), "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, HasSubstr("\"out\":"));
    // A: points 0 and 1 at 1 + 2, point 2 at 2. B: 1 and 2 at 0.5 + 4, point 0 at 4.
    EXPECT_EQ(test::readFile(dir.file("d.csv")),
              "index,height_a,height_b,rank_difference\n0,3,4,1.5\n1,3,4.5,0\n2,2,4.5,-1.5\n");
    result = runCli({"compare-heights", dir.file("a.csv"), dir.file("b.csv"), "--out", dir.file("no/such/d.csv")});
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_THAT(result.err, HasSubstr("d.csv"));
}

TEST(CliExport, WritesFcsWithClusterParameterThatReadsBack) {
    TempDir dir;
    auto result = runCli({"kmeans", test::dataPath("fcs/AriaFile1.fcs"), "-k", "4", "--backend", "cpu", "--labels-out",
                          dir.file("k.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    result = runCli(
        {"export", test::dataPath("fcs/AriaFile1.fcs"), "--labels", dir.file("k.csv"), "--out", dir.file("gated.fcs")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    result = runCli({"info", dir.file("gated.fcs"), "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, AllOf(HasSubstr("\"n\":6052"), HasSubstr("\"d\":13"), HasSubstr("ClusterLens_cluster")));
    EXPECT_EQ(runCli({"export", test::dataPath("fcs/AriaFile1.fcs"), "--out", dir.file("x.txt")}).exitCode, 2);
    writeLabelsCsv(dir.file("short.csv"), {1, 2, 3});
    EXPECT_EQ(runCli({"export", test::dataPath("fcs/AriaFile1.fcs"), "--labels", dir.file("short.csv"), "--out",
                      dir.file("y.fcs")})
                  .exitCode,
              3);
}
