// `clusterlens-cli plot scatter --colour-by marker:NAME`: the points coloured by the marker's
// expression on viridis over its 1st-99th percentile, with a colour bar titled with the marker and
// its transform, as the GUI's scatter figure draws it; wrong choices are usage errors (exit 2).

#ifdef CLUSTERLENS_HAVE_PLOT

#include <QColor>
#include <QImage>
#include <QString>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"

namespace clusterlens::test {

namespace {

using testing::HasSubstr;

/// The viridis ends the views' palette uses (views/palette.cpp): colormap(0) and colormap(1).
const QColor kLowEnd(0x47, 0x01, 0x55);
const QColor kHighEnd(0xfc, 0xe7, 0x21);

/// 100 events on a 10 x 10 grid (x, y) and a marker CD3 whose value at row r is r.
void writeMarkerGrid(const std::string& path) {
    std::ofstream out(path);
    out << "x,y,CD3\n";
    for (int r = 0; r < 100; ++r) out << r % 10 << ',' << r / 10 << ',' << r << '\n';
}

int pixelsNear(const QImage& image, QColor colour, int tolerance) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            count += std::max({std::abs(c.red() - colour.red()), std::abs(c.green() - colour.green()),
                               std::abs(c.blue() - colour.blue())}) <= tolerance;
        }
    return count;
}

class CliPlotScatterColour : public testing::Test {
protected:
    void SetUp() override { writeMarkerGrid(file("grid.csv")); }
    std::string file(const std::string& name) const { return m_dir.file(name); }
    CliResult plot(const std::vector<std::string>& extra, const std::string& out) const {
        std::vector<std::string> args = {"plot",    "scatter", file("grid.csv"), "--x", "x",     "--y", "y",
                                         "--width", "720",     "--height",       "600", "--out", out};
        args.insert(args.end(), extra.begin(), extra.end());
        return runCli(args);
    }
    TempDir m_dir;
};

}  // namespace

TEST_F(CliPlotScatterColour, MarkerColouringPaintsBothEndsOfTheColourBarAndNamesTheMarker) {
    const CliResult png = plot({"--colour-by", "marker:CD3"}, file("cd3.png"));
    ASSERT_EQ(png.exitCode, 0) << png.err;
    EXPECT_THAT(png.out, HasSubstr("coloured by CD3 from 1 to 98"));
    const QImage image(QString::fromStdString(file("cd3.png")));
    ASSERT_FALSE(image.isNull());
    // Rows 0 and 1 lie at or below the 1st percentile, rows 98 and 99 at or above the 99th: each
    // pair is two dots of the bar's end colour, and the bar itself has both ends.
    EXPECT_GE(pixelsNear(image, kLowEnd, 8), 30);
    EXPECT_GE(pixelsNear(image, kHighEnd, 8), 30);

    const CliResult density = plot({}, file("density.png"));
    ASSERT_EQ(density.exitCode, 0) << density.err;
    EXPECT_THAT(density.out, HasSubstr("coloured by density"));

    const CliResult svg = plot({"--colour-by", "marker:CD3", "--transform", "asinh:5"}, file("cd3.svg"));
    ASSERT_EQ(svg.exitCode, 0) << svg.err;
    std::ifstream in(file("cd3.svg"));
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_THAT(text.str(), HasSubstr("CD3 (arcsinh/5)"));
}

TEST_F(CliPlotScatterColour, UnknownMarkerOrChoiceIsAUsageError) {
    const CliResult unknown = plot({"--colour-by", "marker:CD99"}, file("a.png"));
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_THAT(unknown.err, HasSubstr("CD99"));
    const CliResult bad = plot({"--colour-by", "rainbow"}, file("b.png"));
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_THAT(bad.err, HasSubstr("marker:NAME"));
    const CliResult noLabels = plot({"--colour-by", "labels"}, file("c.png"));
    EXPECT_EQ(noLabels.exitCode, 2);
}

TEST_F(CliPlotScatterColour, ClusterShapesDrawEachClustersEllipseAndNeedALabeling) {
    // Two labels: the left and the right half of the grid.
    {
        std::ofstream labels(file("halves.csv"));
        labels << "index,label\n";
        for (int r = 0; r < 100; ++r) labels << r << ',' << (r % 10 < 5 ? 0 : 1) << '\n';
    }
    const CliResult plain = plot({"--labels", file("halves.csv")}, file("plain.svg"));
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    const CliResult shaped = plot({"--labels", file("halves.csv"), "--cluster-shapes"}, file("shaped.svg"));
    ASSERT_EQ(shaped.exitCode, 0) << shaped.err;
    const auto read = [](const std::string& path) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    const std::string with = read(file("shaped.svg")), without = read(file("plain.svg"));
    EXPECT_THAT(with, HasSubstr("ellipses: 95 % of each cluster"));
    EXPECT_THAT(without, testing::Not(HasSubstr("ellipses")));
    const auto paths = [](const std::string& svg) {
        std::size_t count = 0;
        for (std::size_t at = svg.find("<path"); at != std::string::npos; at = svg.find("<path", at + 1)) ++count;
        return count;
    };
    EXPECT_EQ(paths(with), paths(without) + 4);  // two clusters, each a light rim and its outline
    const CliResult density = plot({"--cluster-shapes"}, file("density.svg"));
    EXPECT_EQ(density.exitCode, 2);
    EXPECT_THAT(density.err, HasSubstr("--cluster-shapes"));
}

}  // namespace clusterlens::test

#endif
