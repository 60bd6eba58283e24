#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "../io/fcs_builder.hpp"
#include "cli_runner.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/transforms.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::readFile;
using clusterlens::test::runCli;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::AllOf;
using testing::HasSubstr;

namespace {

const std::string kDemo = std::string(CLUSTERLENS_SOURCE_DIR) + "/resources/demo/aria_facs_6052.csv";
const std::vector<std::string> kAnalysis = {"--transform", "asinh:150", "--columns", "FSC-A,SSC-A,B515-A,V450-A"};

std::vector<std::string> joined(std::vector<std::string> head, const std::vector<std::string>& tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
}

/// Runs k-means on the transformed columns as a user would, then exports with the same options.
std::vector<std::int32_t> clusterThenExport(const TempDir& dir, const std::string& input, const std::string& out,
                                            const std::vector<std::string>& extra = {}) {
    const auto kmeans =
        runCli(joined(joined({"kmeans", input, "-k", "4", "--labels-out", dir.file("L.csv")}, kAnalysis), extra));
    EXPECT_EQ(kmeans.exitCode, 0) << kmeans.err;
    const auto exported =
        runCli(joined(joined({"export", input, "--labels", dir.file("L.csv"), "--out", out}, kAnalysis), extra));
    EXPECT_EQ(exported.exitCode, 0) << exported.err;
    return readLabels(dir.file("L.csv"));
}

std::vector<std::uint32_t> rowBits(const Dataset& data, std::size_t i, std::size_t columns) {
    std::vector<std::uint32_t> out;
    for (std::size_t j = 0; j < columns; ++j) out.push_back(std::bit_cast<std::uint32_t>(data.at(i, j)));
    return out;
}

}  // namespace

TEST(CliExport, DemoExportsUntransformedValuesOfEveryChannelPlusTheClusters) {
    TempDir dir;
    const std::vector<std::int32_t> labels = clusterThenExport(dir, kDemo, dir.file("demo.fcs"));
    const Dataset source = readDataset(kDemo);
    const Dataset fcs = readFcs(dir.file("demo.fcs"));
    ASSERT_EQ(fcs.n, source.n);
    ASSERT_EQ(fcs.d, 13u);
    EXPECT_EQ(std::vector<std::string>(fcs.features.begin(), fcs.features.begin() + 12), source.features);
    for (std::size_t i = 0; i < source.n; ++i) {
        ASSERT_EQ(rowBits(fcs, i, 12), rowBits(source, i, 12)) << "event " << i;
        ASSERT_EQ(fcs.at(i, 12), static_cast<float>(labels[i] + 1)) << "event " << i;
    }
    EXPECT_EQ(fcs.at(0, 0), 33471.2109f);  // FSC-A as acquired, not its arcsinh

    const auto csv =
        runCli(joined({"export", kDemo, "--labels", dir.file("L.csv"), "--out", dir.file("demo.csv")}, kAnalysis));
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    ReadOptions options;
    options.labelColumn = "cluster";
    const Dataset back = readDataset(dir.file("demo.csv"), options);
    EXPECT_EQ(back.features, source.features);
    EXPECT_EQ(back.exact, source.exact);
    EXPECT_EQ(back.labels, labels);
}

TEST(CliExport, AriaFcsAfterATransformedAnalysisKeepsRawValuesAndKeywords) {
    TempDir dir;
    const std::string aria = dataPath("fcs/AriaFile1.fcs");
    clusterThenExport(dir, aria, dir.file("aria.fcs"));
    const Dataset original = readFcs(aria);
    const Dataset back = readFcs(dir.file("aria.fcs"));
    ASSERT_EQ(back.n, 6052u);
    ASSERT_EQ(back.d, 13u);
    EXPECT_EQ(back.features[11], "Time");
    for (std::size_t i = 0; i < back.n; ++i) ASSERT_EQ(rowBits(back, i, 12), rowBits(original, i, 12)) << i;
    const auto before = test::textKeywords(readFile(aria));
    const auto after = test::textKeywords(readFile(dir.file("aria.fcs")));
    for (const char* key : {"SPILL", "$P4V", "$CYT", "$DATE", "$P1R", "$P12R", "$FIL", "$BTIM"}) {
        ASSERT_TRUE(before.contains(key)) << key;
        EXPECT_EQ(after.at(key), before.at(key)) << key;
    }
}

TEST(CliExport, SubsampledAnalysisExportsExactlyTheEventsItSaw) {
    TempDir dir;
    const std::vector<std::string> sample = {"--subsample", "500", "--seed", "3"};
    const std::vector<std::int32_t> labels = clusterThenExport(dir, kDemo, dir.file("sample.fcs"), sample);
    ASSERT_EQ(labels.size(), 500u);
    const Dataset source = readDataset(kDemo);
    const std::vector<std::size_t> kept = subsampleIndices(source.n, 500, 3);
    const Dataset back = readFcs(dir.file("sample.fcs"));
    ASSERT_EQ(back.n, 500u);
    for (std::size_t k = 0; k < 500; ++k) {
        ASSERT_EQ(rowBits(back, k, 12), rowBits(source, kept[k], 12)) << k;
        ASSERT_EQ(back.at(k, 12), static_cast<float>(labels[k] + 1)) << k;
    }
}

TEST(CliExport, RefusesBadArgumentsAndLabelsOfAnotherSize) {
    TempDir dir;
    writeFile(dir.file("short.csv"), "index,label\n0,1\n1,2\n");
    EXPECT_EQ(runCli({"export", kDemo, "--out", dir.file("x.txt")}).exitCode, 2);
    EXPECT_EQ(runCli({"export", kDemo, "--label-name", "k", "--out", dir.file("x.fcs")}).exitCode, 2);
    EXPECT_EQ(runCli({"export", kDemo, "--columns", "nope", "--out", dir.file("x.fcs")}).exitCode, 2);
    const auto result = runCli({"export", kDemo, "--labels", dir.file("short.csv"), "--out", dir.file("x.fcs")});
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_THAT(result.err, AllOf(HasSubstr("short.csv"), HasSubstr("6052")));
    EXPECT_FALSE(std::filesystem::exists(dir.file("x.fcs")));
}

TEST(CliExport, TableWithACellIdColumnIsReadAndExportedWithIt) {
    TempDir dir;
    writeFile(dir.file("cells.csv"), "cell,x,y,type\ncellA,1.5,15.55,T\ncellB,3,4,B\ncellC,5,6,T\n");
    const auto info = runCli({"info", dir.file("cells.csv"), "--columns", "x,y", "--json"});
    EXPECT_EQ(info.exitCode, 0) << info.err;
    EXPECT_THAT(info.out, AllOf(HasSubstr("\"features\":[\"x\",\"y\"]"),
                                HasSubstr("\"annotations\":[{\"name\":\"cell\",\"role\":\"point_names\"},"
                                          "{\"name\":\"type\",\"role\":\"labels\"}]")));
    const auto text = runCli({"info", dir.file("cells.csv"), "--columns", "x,cell"});
    EXPECT_EQ(text.exitCode, 2);
    EXPECT_THAT(text.err, HasSubstr("'cell' is a text column"));

    writeFile(dir.file("L.csv"), "index,label\n0,0\n1,-1\n2,1\n");
    ASSERT_EQ(
        runCli({"export", dir.file("cells.csv"), "--labels", dir.file("L.csv"), "--out", dir.file("out.csv")}).exitCode,
        0);
    EXPECT_EQ(readFile(dir.file("out.csv")),
              "cell,x,y,type,cluster\ncellA,1.5,15.55,T,0\ncellB,3,4,B,-1\ncellC,5,6,T,1\n");
}
