#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "clusterlens/backend.hpp"
#include "clusterlens/hca/linkage.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::runCli;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::HasSubstr;

namespace {

void expectSameMerges(const Linkage& got, const Linkage& want, double relTol) {
    ASSERT_EQ(got.merges.size(), want.merges.size());
    for (std::size_t i = 0; i < got.merges.size(); ++i) {
        SCOPED_TRACE("merge " + std::to_string(i));
        EXPECT_EQ(got.merges[i].a, want.merges[i].a);
        EXPECT_EQ(got.merges[i].b, want.merges[i].b);
        EXPECT_EQ(got.merges[i].size, want.merges[i].size);
        EXPECT_LE(std::fabs(got.merges[i].height - want.merges[i].height),
                  relTol * std::fabs(want.merges[i].height) + 1e-300);
        if (::testing::Test::HasFailure()) return;
    }
}

}  // namespace

TEST(CliHca, ReproducesMhcaReferenceOnTieFreeInputs) {
    TempDir dir;
    const std::pair<const char*, std::vector<std::string>> cases[] = {
        {"aggregation.fmd.mahal.thr0.5.csv", {"--variant", "full"}},
        {"aggregation.cmd.mahal.thr0.5.csv", {"--variant", "centroid"}},
        {"engytime1000.fmd.mahal.thr0.5.csv", {"--variant", "full"}},
    };
    for (const auto& [reference, options] : cases) {
        SCOPED_TRACE(reference);
        const std::string input = std::string(reference).substr(0, std::string(reference).find('.')) + ".txt";
        std::vector<std::string> args = {"hca",       dataPath("reference/mhca/" + input),
                                         "--linkage", "mahalanobis",
                                         "--backend", "cpu",
                                         "--out",     dir.file("out.csv"),
                                         "--json"};
        args.insert(args.end(), options.begin(), options.end());
        auto result = runCli(args);
        ASSERT_EQ(result.exitCode, 0) << result.err;
        EXPECT_THAT(result.out,
                    AllOf(HasSubstr("\"merges\":"), HasSubstr("\"non_monotonic\":"), HasSubstr("\"backend\":\"cpu:")));
        expectSameMerges(readLinkageCsv(dir.file("out.csv")), readLinkageCsv(dataPath("reference/mhca/") + reference),
                         1e-9);
    }
}

TEST(CliHca, AprioriFileRun) {
    TempDir dir;
    auto result =
        runCli({"hca", dataPath("reference/mhca/mix2000.txt"), "--variant", "centroid", "--apriori",
                dataPath("reference/mhca/mix2000.apriori.txt"), "--backend", "cpu", "--out", dir.file("o.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    expectSameMerges(readLinkageCsv(dir.file("o.csv")),
                     readLinkageCsv(dataPath("reference/mhca/mix2000.apriori.cmd.mahal.thr0.5.csv")), 1e-9);
}

TEST(CliHca, ClassicLinkageAndHeightsAndKMeans) {
    TempDir dir;
    auto result = runCli(
        {"hca", dataPath("tables/iris.csv"), "--linkage", "average", "--backend", "cpu", "--out", dir.file("l.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(readLinkageCsv(dir.file("l.csv")).merges.size(), 149u);
    result = runCli({"heights", dir.file("l.csv"), "--out", dir.file("h.csv"), "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(clusterlens::test::readFile(dir.file("h.csv")), HasSubstr("index,height\n0,"));
    result = runCli({"kmeans", dataPath("tables/iris.csv"), "-k", "3", "--seed", "4", "--labels-out", dir.file("k.csv"),
                     "--backend", "cpu"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(clusterlens::test::readFile(dir.file("k.csv")), HasSubstr("index,label\n0,"));
}

TEST(CliHca, BadOptionsExitTwoBadDataExitThree) {
    TempDir dir;
    const std::string iris = dataPath("tables/iris.csv"), out = dir.file("o.csv");
    EXPECT_EQ(runCli({"hca", iris, "--threshold", "1.5", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"hca", iris, "--threshold", "0", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"hca", iris, "--linkage", "median-ish", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"hca", iris, "--subthreshold", "foo", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"hca", iris}).exitCode, 2);
    EXPECT_EQ(runCli({"hca", iris, "--apriori-kmeans", "151", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"kmeans", iris, "-k", "500", "--labels-out", out}).exitCode, 2);
    writeFile(dir.file("short.txt"), "1\n2\n");
    auto result = runCli({"hca", iris, "--apriori", dir.file("short.txt"), "--out", out});
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_THAT(result.err, AllOf(HasSubstr("short.txt"), HasSubstr("2 group ids"), HasSubstr("150 points")));
    writeFile(dir.file("one.csv"), "a,b\n1,2\n");
    EXPECT_EQ(runCli({"hca", dir.file("one.csv"), "--out", out}).exitCode, 3);
    writeFile(dir.file("nan.csv"), "a,b\n1,2\nnan,3\n4,5\n");
    EXPECT_EQ(runCli({"hca", dir.file("nan.csv"), "--out", out}).exitCode, 3);
}

TEST(CliHca, ProfileReportsTheGpuProbeOrWhyThereIsNone) {
    TempDir dir;
    const std::string input = dataPath("reference/mhca/aggregation.txt");
    auto cpu =
        runCli({"hca", input, "--variant", "centroid", "--backend", "cpu", "--profile", "--out", dir.file("o.csv")});
    ASSERT_EQ(cpu.exitCode, 0) << cpu.err;
    EXPECT_THAT(cpu.err, HasSubstr("--profile: nothing to report (cpu"));
    auto classic = runCli({"hca", input, "--linkage", "single", "--profile", "--out", dir.file("s.csv")});
    EXPECT_EQ(classic.exitCode, 2);
    EXPECT_THAT(classic.err, HasSubstr("--profile applies to --linkage mahalanobis only"));
}

TEST(CliHca, GpusOptionNamesWhatIsWrongAndKeepsTheMerges) {
    TempDir dir;
    const std::string iris = dataPath("tables/iris.csv"), out = dir.file("o.csv");
    const auto expectRefused = [&](std::vector<std::string> args, const std::string& reason) {
        args.insert(args.begin(), {"hca", iris, "--out", out});
        clusterlens::test::expectUsageError(args, "--gpus", reason);
    };
    expectRefused({"--gpus", "0"}, "'all' or a number of GPUs");
    expectRefused({"--gpus", "two"}, "'all' or a number of GPUs");
    expectRefused({"--gpus", "1", "--backend", "cpu"}, "--backend cpu");
    expectRefused({"--gpus", "1", "--linkage", "single"}, "--linkage mahalanobis");
    const int present = clusterlens::cudaDeviceCount();
    expectRefused({"--gpus", std::to_string(present + 1)}, present == 0 ? "no CUDA device" : "this machine has");
    if (present == 0) return;  // (the merges on every GPU need one)
    const std::string input = dataPath("reference/mhca/aggregation.txt");
    const std::vector<std::string> run = {"hca", input, "--variant", "centroid", "--apriori-kmeans", "12"};
    std::vector<std::string> one = run, every = run;
    one.insert(one.end(), {"--out", dir.file("one.csv")});
    every.insert(every.end(), {"--gpus", "all", "--out", dir.file("every.csv")});
    ASSERT_EQ(runCli(one).exitCode, 0);
    const auto spread = runCli(every);
    ASSERT_EQ(spread.exitCode, 0) << spread.err;
    EXPECT_EQ(clusterlens::test::readFile(dir.file("every.csv")), clusterlens::test::readFile(dir.file("one.csv")));
}
