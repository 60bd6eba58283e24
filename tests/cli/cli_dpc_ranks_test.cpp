// `mpirun -np R clusterlens-cli dpc ... --gpus 1`: density peaks across MPI ranks writes the file one
// process writes, byte for byte (the shortest round-trip doubles of rho, delta and gamma). The ranks
// share the machine's GPU when it has one; without a GPU or without MPI in the build the comparison
// is skipped. What a run across ranks refuses is checked everywhere, from the launcher's environment
// alone (MPI never starts for a refused run).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "clusterlens/backend.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::readFile;
using clusterlens::test::runCli;
using clusterlens::test::shellQuote;
using clusterlens::test::TempDir;
using testing::HasSubstr;

namespace {

/// What Open MPI's mpirun puts in each rank's environment, for the refusals (no MPI starts).
const std::string kTwoRanks = "env OMPI_COMM_WORLD_SIZE=2";

}  // namespace

TEST(CliDpcRanks, RefusalsNameTheReason) {
    TempDir dir;
    const std::string iris = dataPath("tables/iris.csv"), out = dir.file("d.csv");
    const auto other = runCli({"kmeans", iris, "--k", "3", "--out", out}, kTwoRanks);
    EXPECT_EQ(other.exitCode, 2);
    EXPECT_THAT(other.err, HasSubstr("only dpc runs across MPI ranks"));
    const auto cpu = runCli({"dpc", iris, "--backend", "cpu", "--out", out}, kTwoRanks);
    EXPECT_EQ(cpu.exitCode, 2);
    EXPECT_THAT(cpu.err, HasSubstr("every rank drives a GPU"));
    const auto sweep = runCli({"dpc", iris, "--peaks-top", "3", "--dc-sweep", "0.5:4:8", "--out", out}, kTwoRanks);
    EXPECT_EQ(sweep.exitCode, 2);
    EXPECT_THAT(sweep.err, HasSubstr("--dc-sweep runs in one process"));
    const auto tree = runCli({"dpc", iris, "--index", "tree", "--out", out}, kTwoRanks);
    EXPECT_EQ(tree.exitCode, 2);
    EXPECT_THAT(tree.err, HasSubstr("in one process"));
    EXPECT_FALSE(std::filesystem::exists(out)) << "a refused run wrote its output";
}

TEST(CliDpcRanks, RanksWriteTheFileOneProcessWrites) {
#ifndef CLUSTERLENS_CLI_HAS_MPI
    GTEST_SKIP() << "clusterlens-cli was built without MPI";
#else
    if (!cudaAvailable()) GTEST_SKIP() << "no CUDA device on this machine";
    // Open MPI refuses root unless told (the lent GPU machines run commands as root).
    const std::string mpirun = std::string("env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ") +
                               "OMPI_MCA_rmaps_base_oversubscribe=1 " + shellQuote(CLUSTERLENS_MPIEXEC);
    TempDir dir;
    struct Case {
        std::string input;
        std::vector<std::string> options;
    };
    const std::vector<Case> cases{{dataPath("fcs/AriaFile1.fcs"), {"--kernel", "gaussian"}},
                                  {dataPath("fcs/AriaFile1.fcs"), {"--kernel", "cutoff", "--dc-percent", "1"}},
                                  {dataPath("tables/digits.csv.gz"), {"--kernel", "cutoff"}}};
    for (const Case& c : cases)
        for (const int ranks : {2, 3}) {
            const std::string one = dir.file("one.csv"), spread = dir.file("spread.csv");
            std::vector<std::string> args{"dpc", c.input, "--out", one, "--quiet"};
            args.insert(args.end(), c.options.begin(), c.options.end());
            const auto alone = runCli(args);
            ASSERT_EQ(alone.exitCode, 0) << alone.err;
            args[3] = spread;
            args.insert(args.end(), {"--gpus", "1", "--json"});
            const auto across = runCli(args, mpirun + " -np " + std::to_string(ranks));
            ASSERT_EQ(across.exitCode, 0) << across.err;
            EXPECT_THAT(across.out, HasSubstr("\"gpus\":" + std::to_string(ranks))) << across.out;
            const std::string expected = readFile(one);
            ASSERT_GT(expected.size(), 1000u);
            EXPECT_TRUE(readFile(spread) == expected) << c.input << " on " << ranks << " ranks: the files differ";
            std::remove(spread.c_str());
        }
#endif
}
