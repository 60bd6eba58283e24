#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "clusterlens/compare/agreement.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/linkage_cut.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/vat/vat.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::runCli;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::HasSubstr;

namespace {

struct OrderRow {
    std::size_t position = 0;
    std::int64_t index = 0;
    double cut = 0.0;
};

std::vector<OrderRow> readOrder(const std::string& path, std::string& header) {
    std::istringstream in(test::readFile(path));
    std::getline(in, header);
    std::vector<OrderRow> rows;
    std::string line;
    while (std::getline(in, line)) {
        OrderRow r;
        long long index = 0;
        if (std::sscanf(line.c_str(), "%zu,%lld,%lf", &r.position, &index, &r.cut) != 3) break;
        r.index = index;
        rows.push_back(r);
    }
    return rows;
}

std::uint32_t bigEndian32(const std::string& bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 4; ++k) v = v << 8 | static_cast<unsigned char>(bytes[at + k]);
    return v;
}

}  // namespace

TEST(CliVat, OrderCsvEqualsTheEngineResultWithFullPrecisionCuts) {
    TempDir dir;
    const std::string input = dataPath("benchmarks/uci/wine.data.gz");
    for (const char* metric : {"euclidean", "manhattan", "cosine"}) {
        SCOPED_TRACE(metric);
        auto result = runCli({"vat", input, "--metric", metric, "--out", dir.file("order.csv"), "--backend", "cpu"});
        ASSERT_EQ(result.exitCode, 0) << result.err;
        std::string header;
        const std::vector<OrderRow> rows = readOrder(dir.file("order.csv"), header);
        EXPECT_EQ(header, "position,index,cut");
        const Dataset data = readDataset(input);
        VatOptions options;
        options.metric = parseMetric(metric);
        options.backend = Backend::Cpu;
        const VatResult vat = computeVat(data.values.data(), data.n, data.d, options);
        ASSERT_EQ(rows.size(), data.n);
        for (std::size_t k = 0; k < rows.size(); ++k) {
            EXPECT_EQ(rows[k].position, k);
            EXPECT_EQ(rows[k].index, vat.order[k]);
            EXPECT_EQ(rows[k].cut, vat.cut[k]);  // %.17g round-trips doubles exactly
        }
        EXPECT_EQ(rows[0].cut, 0.0);
    }
}

TEST(CliVat, JsonReportsTheContractKeys) {
    TempDir dir;
    auto result = runCli(
        {"vat", dataPath("benchmarks/fcps/hepta.data.gz"), "--out", dir.file("o.csv"), "--json", "--backend", "cpu"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out,
                AllOf(HasSubstr("\"n\":212"), HasSubstr("\"start\":"), HasSubstr("\"metric\":\"euclidean\""),
                      HasSubstr("\"backend\":\"cpu:"), HasSubstr("\"seconds\":{\"read\":"), HasSubstr("\"tree\":"),
                      HasSubstr("\"order\":")));
}

TEST(CliVat, ImageIsAPngOfTheRequestedSize) {
    TempDir dir;
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{},
          {"--ivat", "--colormap", "magma", "--reverse"},
          {"--pixel", "mean", "--clip", "5,95", "--gamma", "0.5", "--colormap", "viridis"}}) {
        std::vector<std::string> args = {"vat",     dataPath("benchmarks/fcps/hepta.data.gz"),
                                         "--out",   dir.file("o.csv"),
                                         "--image", dir.file("vat.png"),
                                         "--size",  "97",
                                         "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        auto result = runCli(args);
        ASSERT_EQ(result.exitCode, 0) << result.err;
        EXPECT_THAT(result.out, AllOf(HasSubstr("\"size\":97"), HasSubstr("\"render\":"), HasSubstr("\"png\":")));
        const std::string png = test::readFile(dir.file("vat.png"));
        ASSERT_GT(png.size(), 33u);
        EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
        EXPECT_EQ(png.substr(12, 4), "IHDR");
        EXPECT_EQ(bigEndian32(png, 16), 97u);
        EXPECT_EQ(bigEndian32(png, 20), 97u);
    }
}

TEST(CliVat, LargestCutsRecoverHepta) {
    TempDir dir;
    const std::string input = dataPath("benchmarks/fcps/hepta.data.gz");
    auto result = runCli(
        {"vat", input, "--out", dir.file("o.csv"), "--cut-k", "7", "--labels-out", dir.file("labels.csv"), "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, AllOf(HasSubstr("\"cut_k\":7"), HasSubstr("\"cut_positions\":[")));
    const Dataset truth = readDataset(input);
    const auto labels = readLabels(dir.file("labels.csv"), truth.n);
    EXPECT_EQ(adjustedRandIndex(contingencyTable(truth.labels, labels)), 1.0);
}

TEST(CliVat, PrecomputedMatrixGivesTheMatrixOrder) {
    TempDir dir;
    // Five points on a line at 0, 1, 3, 7, 15 (distinct gaps), as a distance matrix.
    const double at[] = {0, 1, 3, 7, 15};
    std::string csv;
    std::vector<double> matrix;
    for (double a : at) {
        for (std::size_t j = 0; j < 5; ++j) {
            matrix.push_back(std::abs(a - at[j]));
            csv += (j ? "," : "") + std::to_string(static_cast<int>(std::abs(a - at[j])));
        }
        csv += "\n";
    }
    writeFile(dir.file("d.csv"), csv);
    auto result = runCli({"vat", dir.file("d.csv"), "--precomputed", "--out", dir.file("o.csv"), "--image",
                          dir.file("m.png"), "--size", "8", "--ivat", "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, AllOf(HasSubstr("\"metric\":\"precomputed\""), HasSubstr("\"start\":0")));
    std::string header;
    const std::vector<OrderRow> rows = readOrder(dir.file("o.csv"), header);
    ASSERT_EQ(rows.size(), 5u);
    const std::int64_t order[] = {0, 1, 2, 3, 4};
    const double cut[] = {0, 1, 2, 4, 8};
    for (std::size_t k = 0; k < 5; ++k) {
        EXPECT_EQ(rows[k].index, order[k]);
        EXPECT_EQ(rows[k].cut, cut[k]);
    }
    writeFile(dir.file("rect.csv"), "0,1,2\n1,0,3\n");
    EXPECT_EQ(runCli({"vat", dir.file("rect.csv"), "--precomputed", "--out", dir.file("o.csv")}).exitCode, 3);
    writeFile(dir.file("asym.csv"), "0,1\n2,0\n");
    auto asym = runCli({"vat", dir.file("asym.csv"), "--precomputed", "--out", dir.file("o.csv")});
    EXPECT_EQ(asym.exitCode, 3);
    EXPECT_THAT(asym.err, HasSubstr("symmetric"));
    EXPECT_EQ(
        runCli({"vat", dir.file("d.csv"), "--precomputed", "--metric", "cosine", "--out", dir.file("o.csv")}).exitCode,
        2);
}

TEST(CliVat, BadOptionsExitTwo) {
    TempDir dir;
    const std::string iris = dataPath("tables/iris.csv"), out = dir.file("o.csv"), png = dir.file("i.png");
    EXPECT_EQ(runCli({"vat", iris}).exitCode, 2);  // --out missing
    EXPECT_EQ(runCli({"vat", iris, "--metric", "chebyshev", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--ivat", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--size", "64", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--image", png, "--size", "0", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--image", png, "--clip", "99,1", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--image", png, "--clip", "1", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--image", png, "--gamma", "-1", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--image", png, "--colormap", "jet", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--image", png, "--pixel", "median", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--labels-out", dir.file("l.csv"), "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--cut-k", "0", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--cut-k", "151", "--out", out}).exitCode, 2);
    auto ok = runCli({"vat", iris, "--image", png, "--size", "16", "--cut-k", "3", "--out", out});
    EXPECT_EQ(ok.exitCode, 0) << ok.err;
}

TEST(CliVat, BadDataExitsThreeWithOneLine) {
    TempDir dir;
    const std::string out = dir.file("o.csv");
    writeFile(dir.file("one.csv"), "a,b\n1,2\n");
    auto one = runCli({"vat", dir.file("one.csv"), "--out", out});
    EXPECT_EQ(one.exitCode, 3);
    EXPECT_THAT(one.err, HasSubstr("at least 2 points"));
    writeFile(dir.file("zero.csv"), "a,b\n1,2\n0,0\n3,1\n");
    auto zero = runCli({"vat", dir.file("zero.csv"), "--metric", "cosine", "--out", out});
    EXPECT_EQ(zero.exitCode, 3);
    EXPECT_THAT(zero.err, HasSubstr("point 2"));
    EXPECT_EQ(std::count(zero.err.begin(), zero.err.end(), '\n'), 1);
    writeFile(dir.file("nan.csv"), "a,b\n1,2\nnan,0\n3,1\n");
    EXPECT_EQ(runCli({"vat", dir.file("nan.csv"), "--out", out}).exitCode, 3);
    EXPECT_EQ(runCli({"vat", dir.file("missing.csv"), "--out", out}).exitCode, 3);
    auto unwritable = runCli({"vat", dir.file("zero.csv"), "--out", dir.file("no/such/dir/o.csv")});
    EXPECT_EQ(unwritable.exitCode, 3);
    EXPECT_THAT(unwritable.err, HasSubstr("o.csv"));
}

TEST(CliVat, SampleOrdersOnlyTheSampledEventsAndSaysSo) {
    TempDir dir;
    const std::string r15 = dataPath("benchmarks/sipu/r15.data.gz");
    auto result = runCli({"vat", r15, "--sample", "150", "--sample-groups", "15", "--out", dir.file("order.csv"),
                          "--cut-k", "15", "--labels-out", dir.file("labels.csv"), "--backend", "cpu", "--json",
                          "--session", dir.file("s.clusterlens")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out,
                AllOf(HasSubstr("\"n\":150"), HasSubstr("\"sampled\":{\"n\":150,\"of\":600,\"groups\":15")));
    // ORDER.csv: 150 distinct events of the 600.
    std::istringstream order(test::readFile(dir.file("order.csv")));
    std::string line;
    std::getline(order, line);
    std::vector<long> events;
    for (long position, index; std::getline(order, line);) {
        ASSERT_EQ(std::sscanf(line.c_str(), "%ld,%ld", &position, &index), 2) << line;
        events.push_back(index);
    }
    ASSERT_EQ(events.size(), 150u);
    std::sort(events.begin(), events.end());
    EXPECT_EQ(std::unique(events.begin(), events.end()), events.end());
    EXPECT_TRUE(events.front() >= 0 && events.back() < 600);
    // The 15 clusters of R15 are all sampled (15 maximin groups on 15 separated clusters), the labels
    // cover exactly the sampled events and separate the clusters.
    const std::vector<std::int32_t> labels = readLabels(dir.file("labels.csv"), 600);
    EXPECT_EQ(std::count_if(labels.begin(), labels.end(), [](std::int32_t l) { return l >= 0; }), 150);
    const Dataset truth = readDataset(r15);
    std::vector<std::int32_t> sampledTruth, sampledLabels;
    for (long i : events) {
        sampledTruth.push_back(truth.labels[static_cast<std::size_t>(i)]);
        sampledLabels.push_back(labels[static_cast<std::size_t>(i)]);
    }
    EXPECT_GE(adjustedRandIndex(contingencyTable(sampledTruth, sampledLabels)), 0.9);
    result = runCli({"session", "info", dir.file("s.clusterlens"), "--json"});
    EXPECT_THAT(result.out, HasSubstr("sampled VAT euclidean (150 of 600)"));
}

TEST(CliVat, BadSampleOptionsAreRefused) {
    TempDir dir;
    const std::string iris = dataPath("tables/iris.csv"), out = dir.file("o.csv");
    EXPECT_EQ(runCli({"vat", iris, "--sample-groups", "5", "--out", out}).exitCode, 2);
    EXPECT_EQ(runCli({"vat", iris, "--sample-seed", "5", "--out", out}).exitCode, 2);
    auto result = runCli({"vat", iris, "--sample", "151", "--out", out});
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_THAT(result.err, HasSubstr("--sample"));
    result = runCli({"vat", iris, "--sample", "20", "--sample-groups", "21", "--out", out});
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_THAT(result.err, HasSubstr("--sample-groups"));
    EXPECT_EQ(runCli({"vat", iris, "--sample", "20", "--sample-groups", "0", "--out", out}).exitCode, 2);
}

TEST(CliVat, OrderFromATreeListsItsLeavesSoEveryClusterOfEveryCutIsContiguous) {
    TempDir dir;
    const std::string iris = dataPath("tables/iris.csv");
    auto result = runCli({"hca", iris, "--linkage", "mahalanobis", "--backend", "cpu", "--out", dir.file("m.csv")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    result = runCli({"vat", iris, "--order-from", dir.file("m.csv"), "--out", dir.file("order.csv"), "--image",
                     dir.file("i.png"), "--ivat", "--backend", "cpu", "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, HasSubstr("\"order_from\":"));
    const Linkage tree = readLinkageCsv(dir.file("m.csv"));
    std::istringstream order(test::readFile(dir.file("order.csv")));
    std::string line;
    std::getline(order, line);
    std::vector<std::int64_t> leaves;
    for (long position, index; std::getline(order, line);) {
        ASSERT_EQ(std::sscanf(line.c_str(), "%ld,%ld", &position, &index), 2) << line;
        leaves.push_back(index);
    }
    EXPECT_EQ(leaves, dendrogramLeafOrder(tree));
    for (std::size_t k = 2; k <= 12; ++k) {
        const LinkageCut cut = cutLinkage(tree, k, 1);
        std::vector<std::int32_t> runs;  // cluster labels along the order, one entry per run
        for (std::int64_t leaf : leaves)
            if (runs.empty() || runs.back() != cut.labels[static_cast<std::size_t>(leaf)])
                runs.push_back(cut.labels[static_cast<std::size_t>(leaf)]);
        EXPECT_EQ(runs.size(), k) << "a cluster of the cut into " << k << " is split";
    }
    // Refused: another tree size (exit 3) and the combinations that would store or change the events (2).
    writeFile(dir.file("small.csv"), "a,b,height,size\n0,1,1.0,2\n");
    EXPECT_EQ(runCli({"vat", iris, "--order-from", dir.file("small.csv"), "--out", dir.file("o.csv")}).exitCode, 3);
    for (const std::vector<std::string>& extra : std::vector<std::vector<std::string>>{
             {"--sample", "20"}, {"--cut-k", "3"}, {"--session", dir.file("s.clusterlens")}})
        EXPECT_EQ(runCli([&] {
                      std::vector<std::string> args = {
                          "vat", iris, "--order-from", dir.file("m.csv"), "--out", dir.file("o.csv")};
                      args.insert(args.end(), extra.begin(), extra.end());
                      return args;
                  }())
                      .exitCode,
                  2)
            << extra.front();
}
