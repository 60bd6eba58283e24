#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"
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
}
