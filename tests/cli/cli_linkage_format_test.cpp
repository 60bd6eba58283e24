// --linkage-format scipy|thesis|hclust (or detection by content) where the CLI reads LINKAGE files:
// a tree computed by `hca`, rewritten the way the thesis program and R print it, gives the same
// point heights.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.hpp"
#include "clusterlens/hca/linkage.hpp"

using namespace clusterlens;
using testing::HasSubstr;

namespace {

/// gmhclust's stdout: "i j distance" with scipy's ids, the larger id first (either order is allowed).
std::string asThesis(const Linkage& linkage) {
    std::string text;
    for (const Merge& m : linkage.merges)
        text += std::to_string(m.b) + " " + std::to_string(m.a) + " " + std::to_string(m.height) + "\n";
    return text;
}

/// write.csv(cbind(h$merge, h$height)): -(leaf+1) for a leaf, row number (1-based) for a cluster.
std::string asHclustCsv(const Linkage& linkage) {
    const auto n = static_cast<std::int64_t>(linkage.leafCount);
    const auto r = [n](std::int64_t id) { return id < n ? -(id + 1) : id - n + 1; };
    std::string text = "\"\",\"V1\",\"V2\",\"V3\"\n";
    for (std::size_t i = 0; i < linkage.merges.size(); ++i) {
        const Merge& m = linkage.merges[i];
        text += "\"" + std::to_string(i + 1) + "\"," + std::to_string(r(m.a)) + "," + std::to_string(r(m.b)) + "," +
                std::to_string(m.height) + "\n";
    }
    return text;
}

}  // namespace

TEST(CliLinkageFormat, ThesisAndHclustFilesGiveTheHeightsOfTheSameTree) {
    const test::TempDir dir;
    const auto hca =
        test::runCli({"hca", test::dataPath("tables/iris.csv"), "--linkage", "average", "--out", dir.file("l.csv")});
    ASSERT_EQ(hca.exitCode, 0) << hca.err;
    // Heights printed with 6 decimals as the thesis program does: round the scipy file the same way.
    Linkage linkage = readLinkageCsv(dir.file("l.csv"));
    for (Merge& m : linkage.merges) m.height = std::stod(std::to_string(m.height));
    writeLinkageCsv(dir.file("rounded.csv"), linkage);
    test::writeFile(dir.file("thesis.txt"), asThesis(linkage));
    test::writeFile(dir.file("hclust.csv"), asHclustCsv(linkage));

    ASSERT_EQ(test::runCli({"heights", dir.file("rounded.csv"), "--out", dir.file("h-scipy.csv")}).exitCode, 0);
    const std::string expected = test::readFile(dir.file("h-scipy.csv"));
    for (const std::vector<std::string>& input : {std::vector<std::string>{dir.file("thesis.txt")},
                                                  {dir.file("thesis.txt"), "--linkage-format", "thesis"},
                                                  {dir.file("hclust.csv")},
                                                  {dir.file("hclust.csv"), "--linkage-format", "hclust"}}) {
        std::vector<std::string> args = {"heights"};
        args.insert(args.end(), input.begin(), input.end());
        args.insert(args.end(), {"--out", dir.file("h.csv")});
        const auto result = test::runCli(args);
        ASSERT_EQ(result.exitCode, 0) << result.err;
        EXPECT_EQ(test::readFile(dir.file("h.csv")), expected) << input[0];
    }
    const auto compared = test::runCli({"compare-heights", dir.file("thesis.txt"), dir.file("hclust.csv"), "--json"});
    ASSERT_EQ(compared.exitCode, 0) << compared.err;
    EXPECT_THAT(compared.out, HasSubstr("\"pearson\":1,\"spearman\":1"));
}

TEST(CliLinkageFormat, UnknownFormatIsABadArgumentAndAnUnclearFileBadData) {
    const test::TempDir dir;
    test::writeFile(dir.file("four.txt"), "0 1 1 2\n2 3 2 3\n");
    EXPECT_EQ(test::runCli({"heights", dir.file("four.txt"), "--linkage-format", "newick", "--out", dir.file("h.csv")})
                  .exitCode,
              2);
    const auto unclear = test::runCli({"heights", dir.file("four.txt"), "--out", dir.file("h.csv")});
    EXPECT_EQ(unclear.exitCode, 3);
    EXPECT_THAT(unclear.err, HasSubstr("give --linkage-format"));
    test::writeFile(dir.file("thesis.txt"), "0 1 1\n5 2 2\n");
    const auto bad =
        test::runCli({"compare-heights", dir.file("thesis.txt"), dir.file("thesis.txt"), "--linkage-format", "thesis"});
    EXPECT_EQ(bad.exitCode, 3);
    EXPECT_THAT(bad.err, HasSubstr("thesis.txt: line 2: cluster 5 does not exist"));
}
