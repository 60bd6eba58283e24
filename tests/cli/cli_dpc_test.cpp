#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "clusterlens/backend.hpp"
#include "clusterlens/compare/agreement.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/read_dataset.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::runCli;
using clusterlens::test::TempDir;
using testing::HasSubstr;

TEST(CliDpc, R15TopFifteenPeaksRecoverTheClusters) {
    TempDir dir;
    const std::string input = dataPath("benchmarks/sipu/r15.data.gz");
    auto result = runCli({"dpc", input, "--peaks-top", "15", "--out", dir.file("dpc.csv"), "--labels-out",
                          dir.file("labels.csv"), "--backend", "cpu", "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out,
                AllOf(HasSubstr("\"dc\":"), HasSubstr("\"dc_method\":\"exact\""), HasSubstr("\"peaks\":[")));
    EXPECT_THAT(test::readFile(dir.file("dpc.csv")), HasSubstr("index,rho,delta,nearest_higher,gamma\n0,"));
    const Dataset truth = readDataset(input);
    const auto labels = readLabels(dir.file("labels.csv"), truth.n);
    EXPECT_GE(adjustedRandIndex(contingencyTable(truth.labels, labels)), 0.9);
}

TEST(CliDpc, DcSweepGivesEachReportedPeakItsPersistence) {
    TempDir dir;
    const std::string input = dataPath("benchmarks/sipu/r15.data.gz");
    // R15's fifteen separated clusters: their peaks persist over the whole sweep.
    auto result = runCli({"dpc", input, "--peaks-top", "15", "--dc-sweep", "0.5:4:8", "--out", dir.file("dpc.csv"),
                          "--backend", "cpu", "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, AllOf(HasSubstr("\"sweep\":[{\"percent\":0.5,\"dc\":"), HasSubstr("{\"percent\":4,\"dc\":"),
                                  HasSubstr("\"persistence\":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]")));
    // A sixteenth peak splits one cluster: that split does not hold across dc.
    result = runCli(
        {"dpc", input, "--peaks-top", "16", "--dc-sweep", "0.5:4:8", "--out", dir.file("dpc.csv"), "--backend", "cpu"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, AllOf(HasSubstr("dc sweep: 0.5% to 4%"), HasSubstr("persistence 1.000"),
                                  HasSubstr("persistence 0.500")));
}

TEST(CliDpc, BadOptionsExitTwo) {
    TempDir dir;
    const std::string iris = dataPath("tables/iris.csv"), out = dir.file("d.csv");
    EXPECT_EQ(runCli({"dpc", iris, "--dc", "-1", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"dpc", iris, "--dc-percent", "150", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"dpc", iris, "--kernel", "tophat", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"dpc", iris, "--peaks", "3,999", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"dpc", iris, "--peaks-top", "0", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"dpc", iris, "--labels-out", dir.file("l.csv"), "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"dpc", iris, "--peaks", "1,2", "--halo", "--out", out}).exitCode, 0);
    for (const char* sweep : {"1:2", "4:0.5:8", "0.5:4:1", "0.5:4:x", "0:4:8"}) {
        const auto bad = runCli({"dpc", iris, "--peaks-top", "3", "--dc-sweep", sweep, "--out", out});
        EXPECT_EQ(bad.exitCode, 2) << sweep;
        EXPECT_THAT(bad.err, HasSubstr("--dc-sweep")) << sweep;
    }
    EXPECT_EQ(runCli({"dpc", iris, "--dc-sweep", "0.5:4:8", "--out", out}).exitCode, 2);  // no peaks to judge
    EXPECT_EQ(runCli({"dpc", iris, "--dc", "0.5", "--peaks-top", "3", "--dc-sweep", "0.5:4:8", "--out", out}).exitCode,
              2);
}

TEST(CliDpc, GpusOptionNamesWhatIsWrong) {
    TempDir dir;
    const std::string iris = dataPath("tables/iris.csv"), out = dir.file("d.csv");
    const auto expectRefused = [&](std::vector<std::string> args, const std::string& reason) {
        args.insert(args.begin(), {"dpc", iris, "--out", out});
        clusterlens::test::expectUsageError(args, "--gpus", reason);
    };
    expectRefused({"--gpus", "0"}, "'all' or a number of GPUs");
    expectRefused({"--gpus", "two"}, "'all' or a number of GPUs");
    expectRefused({"--gpus", "1", "--backend", "cpu"}, "--backend cpu");
    expectRefused({"--gpus", "1", "--index", "tree"}, "run on the CPU");
    const int present = clusterlens::cudaDeviceCount();
    expectRefused({"--gpus", std::to_string(present + 1)}, present == 0 ? "no CUDA device" : "this machine has");
}
