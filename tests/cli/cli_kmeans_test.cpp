// clusterlens-cli kmeans: --gpus is refused with the reason named, and on every GPU it writes the labels
// one GPU writes.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "clusterlens/backend.hpp"

using clusterlens::test::dataPath;
using clusterlens::test::runCli;
using clusterlens::test::TempDir;
using testing::HasSubstr;

TEST(CliKMeans, GpusOptionNamesWhatIsWrongAndKeepsTheLabels) {
    TempDir dir;
    const std::string iris = dataPath("tables/iris.csv"), out = dir.file("labels.csv");
    const auto expectRefused = [&](std::vector<std::string> args, const std::string& reason) {
        args.insert(args.begin(), {"kmeans", iris, "-k", "3", "--labels-out", out});
        clusterlens::test::expectUsageError(args, "--gpus", reason);
    };
    expectRefused({"--gpus", "0"}, "'all' or a number of GPUs");
    expectRefused({"--gpus", "two"}, "'all' or a number of GPUs");
    expectRefused({"--gpus", "1", "--backend", "cpu"}, "--backend cpu");
    const int present = clusterlens::cudaDeviceCount();
    expectRefused({"--gpus", std::to_string(present + 1)}, present == 0 ? "no CUDA device" : "this machine has");
    if (present == 0) return;  // (the labels on every GPU need one)
    const std::vector<std::string> run = {"kmeans", iris, "-k", "5", "--seed", "3"};
    std::vector<std::string> one = run, every = run;
    one.insert(one.end(), {"--backend", "cuda", "--labels-out", dir.file("one.csv")});
    every.insert(every.end(), {"--gpus", "all", "--json", "--labels-out", dir.file("every.csv")});
    ASSERT_EQ(runCli(one).exitCode, 0);
    const auto spread = runCli(every);
    ASSERT_EQ(spread.exitCode, 0) << spread.err;
    EXPECT_THAT(spread.out, HasSubstr("\"gpus\":" + std::to_string(present))) << spread.out;
    EXPECT_EQ(clusterlens::test::readFile(dir.file("every.csv")), clusterlens::test::readFile(dir.file("one.csv")));
}
