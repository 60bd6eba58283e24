// clusterlens-cli plot dendrogram end to end, headless: a 2048-point dataset clustered by the CLI,
// its linkage drawn as SVG, PDF and PNG at the sizes asked for. Skipped when this build of the CLI
// has no `plot` command (built without Qt).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <regex>
#include <sstream>

#include "cli_runner.hpp"

using clusterlens::test::readFile;
using clusterlens::test::runCli;
using clusterlens::test::TempDir;
using clusterlens::test::testSeed;
using clusterlens::test::writeFile;
using testing::HasSubstr;

namespace {

bool cliHasPlot() {
    const auto help = runCli({"--help"});
    return (help.out + help.err).find("\n  plot ") != std::string::npos;
}

/// n points in 2-D around three centres.
std::string threeBlobs(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    const double centres[3][2] = {{0, 0}, {8, 1}, {3, 9}};
    std::ostringstream csv;
    csv << "x,y\n";
    for (std::size_t i = 0; i < n; ++i) {
        const auto& c = centres[i % 3];
        csv << c[0] + noise(rng) << ',' << c[1] + noise(rng) << '\n';
    }
    return csv.str();
}

std::uint32_t bigEndian(const std::string& bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
    return v;
}

class CliPlotDendrogram : public testing::Test {
protected:
    void SetUp() override {
        if (!cliHasPlot()) GTEST_SKIP() << "clusterlens-cli was built without the plot command";
        const std::uint64_t seed = testSeed();
        std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
        writeFile(m_dir.file("points.csv"), threeBlobs(2048, seed));
        const auto hca = runCli({"hca", m_dir.file("points.csv"), "--linkage", "average", "--backend", "cpu", "--out",
                                 m_dir.file("linkage.csv")});
        ASSERT_EQ(hca.exitCode, 0) << hca.err;
    }

    TempDir m_dir;
};

// --min-cluster-size and --heatmap: three blobs of 60 points and three far outliers clustered by
// average linkage; a cut into 3 with a minimum size of 10 gives the three blobs and lists the
// outliers as small clusters, and the clustermap of the data's medians is drawn under the tree.
class CliPlotClustermap : public testing::Test {
protected:
    void SetUp() override {
        if (!cliHasPlot()) GTEST_SKIP() << "clusterlens-cli was built without the plot command";
        const std::uint64_t seed = testSeed();
        std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
        std::mt19937_64 rng(seed);
        std::normal_distribution<double> noise(0.0, 1.0);
        const double centres[3][2] = {{0, 0}, {10, 0}, {5, 10}};
        std::ostringstream csv;
        csv << "CD3,CD19\n";
        for (int i = 0; i < 180; ++i)
            csv << centres[i % 3][0] + noise(rng) << ',' << centres[i % 3][1] + noise(rng) << '\n';
        csv << "200,200\n-200,90\n90,-250\n";
        writeFile(m_dir.file("events.csv"), csv.str());
        const auto hca = runCli({"hca", m_dir.file("events.csv"), "--linkage", "average", "--backend", "cpu", "--out",
                                 m_dir.file("linkage.csv")});
        ASSERT_EQ(hca.exitCode, 0) << hca.err;
    }

    TempDir m_dir;
};

}  // namespace

TEST_F(CliPlotDendrogram, SvgHasVectorPathsAndRealText) {
    const auto result = runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--cut-k", "3", "--title", "blobs",
                                "--out", m_dir.file("tree.svg")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, HasSubstr("2048 leaves"));
    const std::string svg = readFile(m_dir.file("tree.svg"));
    EXPECT_THAT(svg, HasSubstr("<svg"));
    EXPECT_THAT(svg, HasSubstr("<path"));
    EXPECT_THAT(svg, HasSubstr(">blobs</text>"));
    EXPECT_THAT(svg, HasSubstr(">k = 3 clusters</text>"));
    EXPECT_THAT(svg, HasSubstr(">merge height</text>"));
}

TEST_F(CliPlotDendrogram, PdfHasTheRequestedPageSize) {
    const auto result = runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--log", "--width", "612", "--height",
                                "396", "--out", m_dir.file("tree.pdf")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string pdf = readFile(m_dir.file("tree.pdf"));
    ASSERT_EQ(pdf.rfind("%PDF-", 0), 0u);
    std::smatch box;
    ASSERT_TRUE(std::regex_search(pdf, box, std::regex(R"(/MediaBox\s*\[\s*0\s+0\s+([0-9.]+)\s+([0-9.]+)\s*\])")));
    EXPECT_DOUBLE_EQ(std::stod(box[1].str()), 612.0);
    EXPECT_DOUBLE_EQ(std::stod(box[2].str()), 396.0);
}

TEST_F(CliPlotDendrogram, PngHasTheRequestedPixelSize) {
    const auto result = runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--cut-k", "5", "--width", "1000",
                                "--height", "640", "--dpi", "150", "--out", m_dir.file("tree.png")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string png = readFile(m_dir.file("tree.png"));
    ASSERT_GT(png.size(), 24u);
    ASSERT_EQ(png.substr(1, 3), "PNG");
    EXPECT_EQ(bigEndian(png, 16), 1000u);  // IHDR width
    EXPECT_EQ(bigEndian(png, 20), 640u);   // IHDR height
}

TEST_F(CliPlotDendrogram, BadArgumentsAndBadFilesHaveTheirExitCodes) {
    auto result =
        runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--cut-k", "5000", "--out", m_dir.file("tree.svg")});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_THAT(result.err, HasSubstr("--cut-k"));
    result = runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--out", m_dir.file("tree.gif")});
    EXPECT_EQ(result.exitCode, 2);  // an unknown figure format is a bad argument
    EXPECT_THAT(result.err, HasSubstr("tree.gif"));
    writeFile(m_dir.file("broken.csv"), "a,b,height,size\n0,5,1.0,2\n");
    result = runCli({"plot", "dendrogram", m_dir.file("broken.csv"), "--out", m_dir.file("tree.svg")});
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_THAT(result.err, HasSubstr("broken.csv"));
}

TEST_F(CliPlotClustermap, MinimumSizeCutsThreePopulationsAndListsTheOutliersApart) {
    const auto result = runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--cut-k", "3", "--min-cluster-size",
                                "10", "--out", m_dir.file("tree.svg")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, HasSubstr("183 leaves"));
    EXPECT_THAT(result.out, HasSubstr("3 clusters of at least 10 leaves and 3 small"));
    const std::string svg = readFile(m_dir.file("tree.svg"));
    EXPECT_THAT(svg, HasSubstr(">k = 3 clusters</text>"));
    EXPECT_THAT(svg, HasSubstr(">cluster 2 (60)</text>"));
    EXPECT_THAT(svg, HasSubstr(">3 small &lt; 10 (3)</text>"));
}

TEST_F(CliPlotClustermap, PlainCutKeepsTheOutliersAsClusters) {
    const auto result =
        runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--cut-k", "3", "--out", m_dir.file("tree.svg")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, testing::Not(HasSubstr("small")));
    EXPECT_THAT(readFile(m_dir.file("tree.svg")), HasSubstr("(1)</text>"));
}

TEST_F(CliPlotClustermap, HeatmapDrawsTheMarkersUnderTheTree) {
    const auto result = runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--cut-k", "3", "--min-cluster-size",
                                "10", "--heatmap", m_dir.file("events.csv"), "--out", m_dir.file("map.svg")});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string svg = readFile(m_dir.file("map.svg"));
    EXPECT_THAT(svg, HasSubstr(">CD3</text>"));
    EXPECT_THAT(svg, HasSubstr(">CD19</text>"));
    EXPECT_THAT(svg, HasSubstr(">median, z-score per marker</text>"));
    // The provenance hashes the data file too.
    EXPECT_THAT(svg, HasSubstr("--heatmap"));
    const auto minmax = runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--heatmap", m_dir.file("events.csv"),
                                "--heatmap-scale", "minmax", "--out", m_dir.file("blocks.png")});
    ASSERT_EQ(minmax.exitCode, 0) << minmax.err;
}

TEST_F(CliPlotClustermap, MisusedOptionsAreRefused) {
    EXPECT_EQ(runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--min-cluster-size", "10", "--out",
                      m_dir.file("a.svg")})
                  .exitCode,
              2);
    EXPECT_EQ(runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--cut-k", "3", "--min-cluster-size", "0",
                      "--out", m_dir.file("a.svg")})
                  .exitCode,
              2);
    writeFile(m_dir.file("short.csv"), "CD3,CD19\n1,2\n3,4\n");
    const auto wrongSize = runCli({"plot", "dendrogram", m_dir.file("linkage.csv"), "--heatmap",
                                   m_dir.file("short.csv"), "--out", m_dir.file("a.svg")});
    EXPECT_EQ(wrongSize.exitCode, 3);
    EXPECT_THAT(wrongSize.err, HasSubstr("2 points, but the tree has 183 leaves"));
}
