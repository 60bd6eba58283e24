#include <gmock/gmock.h>

#include <algorithm>
#include <gtest/gtest.h>

#include "cli_runner.hpp"

using clusterlens::test::dataPath;
using clusterlens::test::runCli;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::HasSubstr;

namespace {

std::string shapeOf(const std::string& json) {
    auto field = [&](const std::string& key) {
        auto pos = json.find("\"" + key + "\":");
        if (pos == std::string::npos) return std::string("?");
        pos += key.size() + 3;
        return json.substr(pos, json.find_first_of(",}", pos) - pos);
    };
    return field("n") + "x" + field("d");
}

}  // namespace

TEST(CliInfo, ReportsShapeOfEveryFileInSharedData) {
    const std::pair<const char*, const char*> files[] = {
        {"fcs/AriaFile1.fcs", "6052x12"},
        {"tables/iris.csv", "150x4"},
        {"tables/wine.csv", "178x13"},
        {"tables/breast_cancer.csv", "569x30"},
        {"h5ad/pbmc_small_dense.h5ad", "80x230"},
        {"h5ad/pbmc_small_csr.h5ad", "80x230"},
        {"h5ad/pbmc_small_csr_gzip.h5ad", "80x230"},
        {"h5/visium_filtered_feature_bc_matrix.h5", "2695x100"},
        {"benchmarks/sipu/birch1.data.gz", "100000x2"},
        {"benchmarks/uci/wdbc.data.gz", "569x30"},
        {"reference/mhca/mix2000.txt", "2000x5"},
    };
    for (const auto& [file, shape] : files) {
        SCOPED_TRACE(file);
        auto result = runCli({"info", dataPath(file), "--json"});
        EXPECT_EQ(result.exitCode, 0) << result.err;
        EXPECT_EQ(shapeOf(result.out), shape) << result.out;
        EXPECT_THAT(result.out,
                    AllOf(HasSubstr("\"features\":["), HasSubstr("\"format\":"), HasSubstr("\"non_finite\":0"),
                          HasSubstr("\"warnings\":["), HasSubstr("\"backend\":\"")));
    }
}

TEST(CliInfo, DigitsWithLabelColumnHas64Features) {
    auto result = runCli({"info", dataPath("tables/digits.csv.gz"), "--label-column", "last", "--json"});
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(shapeOf(result.out), "1797x64");
}

TEST(CliInfo, DamagedFcsLoadsCompleteEventsWithWarning) {
    auto result = runCli({"info", dataPath("fcs/AriaFile1.fcs"), "--json"});
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_THAT(result.out, AllOf(HasSubstr("\"format\":\"fcs\""), HasSubstr("10000"), HasSubstr("6052")));
    EXPECT_THAT(result.err, HasSubstr("warning"));
}

TEST(CliInfo, TextOutputListsFeatures) {
    auto result = runCli({"info", dataPath("fcs/AriaFile1.fcs")});
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_THAT(result.out, AllOf(HasSubstr("FSC-A"), HasSubstr("G710-A"), HasSubstr("points:    6052")));
}

TEST(CliInfo, TextOutputSaysEachWarningOnce) {
    // AriaFile1.fcs has two problems (header offsets, a cut DATA segment): each is said once, in the
    // report, and not again on stderr.
    auto result = runCli({"info", dataPath("fcs/AriaFile1.fcs")});
    EXPECT_EQ(result.exitCode, 0);
    const std::string all = result.out + result.err;
    std::size_t warnings = 0;
    for (auto pos = result.out.find("warning: "); pos != std::string::npos;
         pos = result.out.find("warning: ", pos + 1)) {
        const std::string text = result.out.substr(pos + 9, result.out.find('\n', pos) - pos - 9);
        std::size_t seen = 0;
        for (auto at = all.find(text); at != std::string::npos; at = all.find(text, at + 1)) ++seen;
        EXPECT_EQ(seen, 1U) << text;
        ++warnings;
    }
    EXPECT_EQ(warnings, 2U) << all;
}

TEST(CliInfo, NonFiniteValuesAreCountedNotRefused) {
    TempDir dir;
    writeFile(dir.file("nan.csv"), "a,b\n1,nan\n2,3\n");
    auto result = runCli({"info", dir.file("nan.csv"), "--json"});
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_THAT(result.out, HasSubstr("\"non_finite\":1"));
}

TEST(CliInfo, MalformedInputExitsThreeWithOneLine) {
    TempDir dir;
    writeFile(dir.file("bad.csv"), "a,b\n1,2\n3,x\n");
    writeFile(dir.file("bad.fcs"), "FCS3.0    garbage");
    writeFile(dir.file("bad.h5ad"), "not hdf5 at all");
    writeFile(dir.file("empty.csv"), "");
    for (const char* name : {"bad.csv", "bad.fcs", "bad.h5ad", "empty.csv", "missing.csv"}) {
        SCOPED_TRACE(name);
        auto result = runCli({"info", dir.file(name)});
        EXPECT_EQ(result.exitCode, 3);
        EXPECT_THAT(result.err, AllOf(HasSubstr(name), HasSubstr("error")));
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    }
}

TEST(CliInfo, BadArgumentsExitTwo) {
    EXPECT_EQ(runCli({"info"}).exitCode, 2);
    EXPECT_EQ(runCli({"info", dataPath("tables/iris.csv"), "--bogus"}).exitCode, 2);
    EXPECT_EQ(runCli({"info", dataPath("tables/iris.csv"), "--transform", "log"}).exitCode, 2);
    EXPECT_EQ(runCli({"info", dataPath("tables/iris.csv"), "--columns", "nope"}).exitCode, 2);
    EXPECT_EQ(runCli({"info", dataPath("tables/iris.csv"), "--backend", "tpu"}).exitCode, 2);
    EXPECT_EQ(runCli({"frobnicate"}).exitCode, 2);
    auto result = runCli({"info", dataPath("tables/iris.csv"), "--subsample", "-3"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_THAT(result.err, HasSubstr("--subsample"));
}

TEST(CliInfo, CommonOptionsApplyColumnsTransformAndSubsample) {
    auto result = runCli({"info", dataPath("tables/iris.csv"), "--columns", "V3,V1", "--transform", "asinh:5",
                          "--subsample", "20", "--seed", "7", "--json"});
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(shapeOf(result.out), "20x2");
    EXPECT_THAT(result.out, AllOf(HasSubstr("\"features\":[\"V3\",\"V1\"]"), HasSubstr("asinh(cofactor=5)")));
}
