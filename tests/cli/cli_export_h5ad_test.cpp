// `export INPUT.h5ad ... --out OUT.h5ad`: labels, a session's labeling and population come back to a
// scanpy user as categorical obs columns of a copy of the input (the encoding itself is tested in
// tests/io/h5ad_annotate_test.cpp); events the analysis did not see are missing.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "clusterlens/io/file_hash.hpp"
#include "clusterlens/io/h5ad_annotate.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/session/members_csv.hpp"
#include "clusterlens/transforms.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::runCli;
using clusterlens::test::TempDir;
using testing::HasSubstr;

namespace {

constexpr std::size_t kCells = 80;
const char* const kLabeling = "k-means k=3 seed 1";

/// The test's h5ad copied into `dir` (the session records the data file's path and hash).
std::string copyInput(const TempDir& dir) {
    const std::string input = dir.file("pbmc.h5ad");
    std::filesystem::copy_file(dataPath("h5ad/pbmc_small_csr.h5ad"), input);
    return input;
}

void expectSuccess(const std::vector<std::string>& args) {
    const auto result = runCli(args);
    EXPECT_EQ(result.exitCode, 0) << result.err;
}

/// The codes a label column must have: the label's category, -1 for noise.
void expectCodesFollowLabels(const ObsCategorical& column, const std::vector<std::int32_t>& labels) {
    ASSERT_EQ(column.codes.size(), labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (labels[i] < 0) {
            EXPECT_EQ(column.codes[i], -1) << i;
            continue;
        }
        ASSERT_GE(column.codes[i], 0) << i;
        EXPECT_EQ(column.categories[static_cast<std::size_t>(column.codes[i])], std::to_string(labels[i])) << i;
    }
}

}  // namespace

TEST(CliExportH5ad, LabelsFileBecomesACategoricalObsColumnOfACopy) {
    const TempDir dir;
    const std::string input = copyInput(dir);
    const std::string hash = sha256File(input);
    expectSuccess({"kmeans", input, "-k", "3", "--labels-out", dir.file("k.csv"), "--backend", "cpu"});
    const auto result = runCli({"export", input, "--labels", dir.file("k.csv"), "--label-name", "kmeans", "--out",
                                dir.file("out.h5ad"), "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, HasSubstr("\"n\":80,\"d\":null,\"channels\":[\"kmeans\"]"));
    const ObsCategorical column = readH5adObsCategorical(dir.file("out.h5ad"), "kmeans");
    EXPECT_EQ(column.categories, (std::vector<std::string>{"0", "1", "2"}));
    expectCodesFollowLabels(column, readLabels(dir.file("k.csv"), kCells));
    EXPECT_EQ(sha256File(input), hash);
    EXPECT_EQ(readDataset(dir.file("out.h5ad")).values, readDataset(input).values);
}

TEST(CliExportH5ad, SessionLabelingAndPopulationBecomeColumns) {
    const TempDir dir;
    const std::string input = copyInput(dir);
    const std::string session = dir.file("s.clusterlens");
    expectSuccess(
        {"kmeans", input, "-k", "3", "--labels-out", dir.file("k.csv"), "--session", session, "--backend", "cpu"});
    expectSuccess({"population", "add", session, "--name", "B", "--labeling", kLabeling, "--clusters", "1"});
    expectSuccess({"export", input, "--session", session, "--labeling", kLabeling, "--population", "B", "--out",
                   dir.file("out.h5ad")});
    const std::vector<std::int32_t> labels = readLabels(dir.file("k.csv"), kCells);
    expectCodesFollowLabels(readH5adObsCategorical(dir.file("out.h5ad"), kLabeling), labels);
    const ObsCategorical population = readH5adObsCategorical(dir.file("out.h5ad"), "B");
    EXPECT_EQ(population.categories, (std::vector<std::string>{"out", "in"}));
    for (std::size_t i = 0; i < kCells; ++i) EXPECT_EQ(population.codes[i], labels[i] == 1 ? 1 : 0) << i;
}

TEST(CliExportH5ad, EventsOutsideTheSessionsSubsampleAreMissing) {
    const TempDir dir;
    const std::string input = copyInput(dir);
    const std::string session = dir.file("s.clusterlens");
    expectSuccess({"kmeans", input, "-k", "2", "--subsample", "30", "--seed", "4", "--labels-out", dir.file("k.csv"),
                   "--session", session, "--backend", "cpu"});
    writeMembersCsv(dir.file("m.csv"), {0, 29});
    expectSuccess({"population", "add", session, "--name", "two", "--indices", dir.file("m.csv")});
    expectSuccess({"export", input, "--session", session, "--labeling", "k-means k=2 seed 4", "--population", "two",
                   "--out", dir.file("out.h5ad")});
    const std::vector<std::size_t> kept = subsampleIndices(kCells, 30, 4);
    const std::vector<std::int32_t> sampleLabels = readLabels(dir.file("k.csv"), 30);
    std::vector<std::int32_t> labels(kCells, -1), membership(kCells, -1);
    for (std::size_t k = 0; k < kept.size(); ++k) {
        labels[kept[k]] = sampleLabels[k];
        membership[kept[k]] = k == 0 || k == 29 ? 1 : 0;
    }
    expectCodesFollowLabels(readH5adObsCategorical(dir.file("out.h5ad"), "k-means k=2 seed 4"), labels);
    EXPECT_EQ(readH5adObsCategorical(dir.file("out.h5ad"), "two").codes, membership);
}

TEST(CliExportH5ad, RefusesWhatCannotBeWrittenAndLeavesNoFile) {
    const TempDir dir;
    const std::string input = copyInput(dir);
    const std::string out = dir.file("out.h5ad");
    std::string text = "index,label\n";
    for (std::size_t i = 0; i < kCells; ++i) text += std::to_string(i) + "," + std::to_string(i % 2) + "\n";
    test::writeFile(dir.file("k.csv"), text);
    EXPECT_EQ(runCli({"export", input, "--out", out}).exitCode, 2);  // nothing to add
    EXPECT_EQ(runCli({"export", input, "--labeling", kLabeling, "--out", out}).exitCode, 2);
    const std::string table = std::string(CLUSTERLENS_SOURCE_DIR) + "/resources/demo/aria_facs_6052.csv";
    EXPECT_EQ(runCli({"export", table, "--labels", dir.file("k.csv"), "--out", out}).exitCode, 2);
    const auto taken = runCli({"export", input, "--labels", dir.file("k.csv"), "--label-name", "group", "--out", out});
    EXPECT_EQ(taken.exitCode, 3);
    EXPECT_THAT(taken.err, HasSubstr("obs column 'group': exists already"));
    const auto same = runCli({"export", input, "--labels", dir.file("k.csv"), "--out", input});
    EXPECT_EQ(same.exitCode, 3);
    EXPECT_THAT(same.err, HasSubstr("is the source file itself"));
    EXPECT_FALSE(std::filesystem::exists(out));
}
