// `clusterlens-cli plot heights` end to end: SVG (XML with paths and text, correlations in the
// title), PDF (page of the requested size), PNG (requested pixel size), the density image for
// large comparisons, and the exit codes of bad arguments and bad input.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <regex>

#include "cli_runner.hpp"
#include "clusterlens/hca/linkage.hpp"

using namespace clusterlens;
using clusterlens::test::runCli;
using clusterlens::test::TempDir;
using testing::HasSubstr;
using testing::Not;

namespace {

/// The `plot` command exists only in builds with Qt.
bool plotAvailable() {
    return runCli({"--help"}).out.find("plot") != std::string::npos;
}

/// A random valid tree over n leaves (seeded), heights growing with the merge index.
Linkage randomLinkage(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::int64_t> active(n), size(2 * n - 1, 1);
    for (std::size_t i = 0; i < n; ++i) active[i] = static_cast<std::int64_t>(i);
    Linkage linkage;
    linkage.leafCount = n;
    for (std::size_t row = 0; row + 1 < n; ++row) {
        std::size_t count = n - row;
        const auto take = [&] {
            const std::size_t slot = std::uniform_int_distribution<std::size_t>(0, count - 1)(rng);
            const std::int64_t id = active[slot];
            active[slot] = active[--count];
            return id;
        };
        const std::int64_t a = take(), b = take();
        const auto id = static_cast<std::size_t>(n + row);
        size[id] = size[static_cast<std::size_t>(a)] + size[static_cast<std::size_t>(b)];
        linkage.merges.push_back({std::min(a, b), std::max(a, b), 1.0 + static_cast<double>(row), size[id]});
        active[count++] = static_cast<std::int64_t>(id);
    }
    return linkage;
}

/// Width and height from a PNG's IHDR chunk.
std::pair<std::uint32_t, std::uint32_t> pngSize(const std::string& bytes) {
    const auto be32 = [&](std::size_t at) {
        return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at])) << 24 |
               static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 1])) << 16 |
               static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 2])) << 8 |
               static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 3]));
    };
    if (bytes.size() < 24 || bytes.compare(1, 3, "PNG") != 0 || bytes.compare(12, 4, "IHDR") != 0) return {0, 0};
    return {be32(16), be32(20)};
}

class CliPlotHeights : public testing::Test {
protected:
    void SetUp() override {
        if (!plotAvailable()) GTEST_SKIP() << "clusterlens-cli was built without Qt: no plot command";
        const std::string iris = test::dataPath("tables/iris.csv");
        for (const char* method : {"average", "ward"}) {
            const auto result = runCli({"hca", iris, "--linkage", method, "--backend", "cpu", "--out",
                                        m_dir.file(std::string(method) + ".csv")});
            ASSERT_EQ(result.exitCode, 0) << result.err;
        }
    }
    std::string linkage(const char* method) const { return m_dir.file(std::string(method) + ".csv"); }
    TempDir m_dir;
};

}  // namespace

TEST_F(CliPlotHeights, ColourByRankDifferenceNamesItsScaleAndABadColouringExitsTwo) {
    const std::string svg = m_dir.file("discordance.svg");
    auto result =
        runCli({"plot", "heights", linkage("average"), linkage("ward"), "--out", svg, "--colour", "rank-difference"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(test::readFile(svg), AllOf(HasSubstr("rank in A"), Not(HasSubstr("point density"))));
    result = runCli({"plot", "heights", linkage("average"), linkage("ward"), "--out", svg, "--colour", "heat"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_THAT(result.err, AllOf(HasSubstr("--colour"), HasSubstr("heat")));
}

TEST_F(CliPlotHeights, WritesAnSvgWithPathsTextAndCorrelations) {
    const std::string svg = m_dir.file("heights.svg");
    // Average and ward heights do not overlap: the diagonal is drawn only on one common scale.
    auto result = runCli({"plot", "heights", linkage("average"), linkage("ward"), "--out", svg});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(test::readFile(svg), AllOf(HasSubstr("y = x lies outside the plotted range"), Not(HasSubstr("<path"))));
    result = runCli({"plot", "heights", linkage("average"), linkage("ward"), "--out", svg, "--equal-axes"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, AllOf(HasSubstr("150 points"), HasSubstr("Pearson"), HasSubstr("Spearman")));
    const std::string text = test::readFile(svg);
    EXPECT_EQ(text.rfind("<?xml", 0), 0u);
    EXPECT_THAT(text, AllOf(HasSubstr("<svg"), HasSubstr("</svg>"), HasSubstr("<path"), HasSubstr("<text"),
                            HasSubstr("y = x (equal heights)"), HasSubstr("Pearson r = 0."), HasSubstr("Spearman"),
                            HasSubstr("point height in A: average"), HasSubstr("point height in B: ward")));
    // 150 points, each one vector mark.
    std::size_t circles = 0;
    for (std::size_t at = text.find("<circle"); at != std::string::npos; at = text.find("<circle", at + 1)) ++circles;
    EXPECT_EQ(circles, 150u);
}

TEST_F(CliPlotHeights, PdfPageAndPngPixelsHaveTheRequestedSize) {
    const std::string pdf = m_dir.file("heights.pdf"), png = m_dir.file("heights.png");
    auto result = runCli(
        {"plot", "heights", linkage("average"), linkage("ward"), "--out", pdf, "--width", "432", "--height", "288"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string bytes = test::readFile(pdf);
    EXPECT_EQ(bytes.rfind("%PDF-", 0), 0u);
    std::smatch box;
    ASSERT_TRUE(std::regex_search(bytes, box, std::regex(R"(/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\])")));
    EXPECT_NEAR(std::stod(box[1]), 432.0, 0.5);
    EXPECT_NEAR(std::stod(box[2]), 288.0, 0.5);

    result = runCli({"plot", "heights", linkage("average"), linkage("ward"), "--out", png, "--width", "900", "--height",
                     "700", "--dpi", "150", "--equal-axes"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(pngSize(test::readFile(png)), (std::pair<std::uint32_t, std::uint32_t>{900, 700}));
}

TEST_F(CliPlotHeights, LargeComparisonsDrawADensityImageInsideTheVectorFrame) {
    const std::size_t n = 60'000;
    writeLinkageCsv(m_dir.file("big_a.csv"), randomLinkage(n, 1));
    writeLinkageCsv(m_dir.file("big_b.csv"), randomLinkage(n, 2));
    const std::string svg = m_dir.file("big.svg");
    const auto result = runCli({"plot", "heights", m_dir.file("big_a.csv"), m_dir.file("big_b.csv"), "--out", svg});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string text = test::readFile(svg);
    EXPECT_THAT(text, AllOf(HasSubstr("<image"), HasSubstr("<text"), HasSubstr("N = 60"), Not(HasSubstr("<circle"))));
    EXPECT_LT(text.size(), 3'000'000u);
    // Coloured by rank difference, the image holds each pixel's most discordant point instead.
    const std::string png = m_dir.file("big.png");
    const auto density = runCli({"plot", "heights", m_dir.file("big_a.csv"), m_dir.file("big_b.csv"), "--out", png});
    ASSERT_EQ(density.exitCode, 0) << density.err;
    const std::string densityPixels = test::readFile(png);
    const auto discordance = runCli({"plot", "heights", m_dir.file("big_a.csv"), m_dir.file("big_b.csv"), "--out", png,
                                     "--colour", "rank-difference"});
    ASSERT_EQ(discordance.exitCode, 0) << discordance.err;
    EXPECT_NE(test::readFile(png), densityPixels);
}

TEST_F(CliPlotHeights, BadArgumentsExitTwoBadInputExitsThree) {
    EXPECT_EQ(runCli({"plot", "heights", linkage("average")}).exitCode, 2);
    EXPECT_EQ(runCli({"plot", "heights", linkage("average"), linkage("ward")}).exitCode, 2);  // no --out
    auto result = runCli({"plot", "heights", linkage("average"), linkage("ward"), "--out", m_dir.file("x.gif")});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_THAT(result.err, HasSubstr(".svg or .pdf"));
    EXPECT_EQ(
        runCli({"plot", "heights", linkage("average"), linkage("ward"), "--out", m_dir.file("x.svg"), "--dpi", "5"})
            .exitCode,
        2);

    writeLinkageCsv(m_dir.file("small.csv"), randomLinkage(10, 3));
    result = runCli({"plot", "heights", linkage("average"), m_dir.file("small.csv"), "--out", m_dir.file("x.svg")});
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_THAT(result.err, AllOf(HasSubstr("small.csv"), HasSubstr("10 points"), HasSubstr("150")));
    test::writeFile(m_dir.file("broken.csv"), "a,b,height,size\n0,1,1.0,2\n0,1,2.0,3\n");
    EXPECT_EQ(
        runCli({"plot", "heights", m_dir.file("broken.csv"), linkage("ward"), "--out", m_dir.file("x.svg")}).exitCode,
        3);
}
