// `clusterlens-cli plot decision DPC.csv`: renders the decision graph of a DPC table as SVG, PDF
// and PNG, with and without --peaks-top; bad tables and arguments exit with codes 3 and 2.

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <regex>

#include "cli_runner.hpp"

namespace clusterlens::test {

namespace {

bool plotAvailable() {
    return runCli({"--help"}).out.find("plot") != std::string::npos;
}

/// A DPC table of three "peaks" (large delta) among 300 points, written as the dpc command does.
std::string writeDpcTable(const TempDir& dir) {
    const std::string path = dir.file("DPC.csv");
    std::ofstream out(path);
    out << "index,rho,delta,nearest_higher,gamma\n";
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (int i = 0; i < 300; ++i) {
        const bool peak = i < 3;
        const double rho = peak ? 50.0 - i : 1.0 + 40.0 * uniform(random);
        const double delta = i == 0 ? 12.0 : peak ? 9.0 : 0.05 + 0.3 * uniform(random);
        const int higher = i == 0 ? -1 : peak ? 0 : i % 3;
        out << i << ',' << rho << ',' << delta << ',' << higher << ',' << rho * delta << '\n';
    }
    return path;
}

}  // namespace

TEST(CliPlotDecision, RendersSvgPdfAndPngOfADpcTable) {
    if (!plotAvailable()) GTEST_SKIP() << "clusterlens-cli was built without plot (no Qt)";
    TempDir dir;
    const std::string table = writeDpcTable(dir);
    const std::string svg = dir.file("decision.svg");
    const CliResult a = runCli({"plot", "decision", table, "--peaks-top", "3", "--out", svg});
    ASSERT_EQ(a.exitCode, 0) << a.err;
    const std::string text = readFile(svg);
    EXPECT_NE(text.find("<svg"), std::string::npos);
    EXPECT_NE(text.find("<path"), std::string::npos);
    EXPECT_NE(text.find("<text"), std::string::npos);
    EXPECT_NE(text.find("3 peaks"), std::string::npos);

    const std::string pdf = dir.file("decision.pdf");
    const CliResult b = runCli({"plot", "decision", table, "--out", pdf, "--width", "500", "--height", "400"});
    ASSERT_EQ(b.exitCode, 0) << b.err;
    std::smatch box;
    const std::string pdfText = readFile(pdf);
    ASSERT_TRUE(std::regex_search(pdfText, box, std::regex(R"(/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\])")));
    EXPECT_NEAR(std::stod(box[1]), 500.0, 0.5);
    EXPECT_NEAR(std::stod(box[2]), 400.0, 0.5);

    const std::string png = dir.file("decision.png");
    const CliResult c = runCli({"plot", "decision", table, "--log-rho", "--log-delta", "--out", png, "--width", "900",
                                "--height", "700", "--dpi", "150"});
    ASSERT_EQ(c.exitCode, 0) << c.err;
    const std::string bytes = readFile(png);
    ASSERT_GT(bytes.size(), 24u);
    const auto be32 = [&](std::size_t at) {
        return (unsigned(static_cast<unsigned char>(bytes[at])) << 24) |
               (unsigned(static_cast<unsigned char>(bytes[at + 1])) << 16) |
               (unsigned(static_cast<unsigned char>(bytes[at + 2])) << 8) |
               unsigned(static_cast<unsigned char>(bytes[at + 3]));
    };
    EXPECT_EQ(be32(16), 900u);  // IHDR width
    EXPECT_EQ(be32(20), 700u);  // IHDR height
}

TEST(CliPlotDecision, BadTableAndArgumentsFailClearly) {
    if (!plotAvailable()) GTEST_SKIP() << "clusterlens-cli was built without plot (no Qt)";
    TempDir dir;
    const std::string bad = dir.file("bad.csv");
    std::ofstream(bad) << "index,rho,delta,nearest_higher,gamma\n0,1,x,-1,1\n";
    const CliResult a = runCli({"plot", "decision", bad, "--out", dir.file("f.svg")});
    EXPECT_EQ(a.exitCode, 3);
    EXPECT_NE(a.err.find("bad.csv:2"), std::string::npos) << a.err;
    const std::string table = writeDpcTable(dir);
    const CliResult b = runCli({"plot", "decision", table, "--peaks-top", "0", "--out", dir.file("f.svg")});
    EXPECT_EQ(b.exitCode, 2) << b.err;
}

}  // namespace clusterlens::test
