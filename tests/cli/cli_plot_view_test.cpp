// `clusterlens-cli plot vat --rows A:B --cols C:D` and `plot dendrogram --leaves A:B --heights C:D`
// draw only that part, as the GUI's export of "what is in view" does: the VAT figure's position ticks
// lie inside the ranges and its colour bar spans the distances of the block asked for (small inside a
// cluster, large between two), the dendrogram's leaf axis names the leaves shown and its height ticks
// lie inside the heights asked for. Bad ranges exit 2 naming the option.

#ifdef CLUSTERLENS_HAVE_PLOT

#include <QByteArray>
#include <QImage>
#include <QString>
#include <QXmlStreamReader>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace clusterlens::test {

namespace {

using testing::HasSubstr;

/// The texts of an SVG's <text> elements that are numbers (position and height ticks, leaf ids).
std::vector<double> svgNumbers(const std::string& svg, std::vector<std::string>* texts = nullptr) {
    std::vector<double> numbers;
    QXmlStreamReader xml(QByteArray::fromStdString(svg));
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement || xml.name() != QLatin1String("text")) continue;
        const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
        if (texts) texts->push_back(text.toStdString());
        bool number = false;
        const double v = QString(text).remove(QLatin1Char(' ')).toDouble(&number);
        if (number) numbers.push_back(v);
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    return numbers;
}

/// The numbers of a VAT figure's SVG: the position ticks (whole numbers) and the colour bar's levels
/// (the distances at its ends, with 4 significant digits; a level of 0 counts as a tick).
struct VatNumbers {
    std::vector<double> ticks, levels;
};

VatNumbers vatNumbers(const std::string& svg) {
    VatNumbers numbers;
    for (double v : svgNumbers(svg)) (v == std::floor(v) ? numbers.ticks : numbers.levels).push_back(v);
    return numbers;
}

bool containsAll(const std::vector<double>& values, std::initializer_list<double> wanted) {
    return std::all_of(wanted.begin(), wanted.end(),
                       [&](double w) { return std::find(values.begin(), values.end(), w) != values.end(); });
}

class CliPlotView : public testing::Test {
protected:
    void SetUp() override {
        // Three blobs of 40 points, far apart: the VAT order has three blocks of 40.
        std::ofstream out(file("blobs.csv"));
        out << "x,y\n";
        std::mt19937_64 random(testSeed());
        std::normal_distribution<double> noise(0.0, 0.3);
        for (int i = 0; i < 120; ++i) {
            const int c = i / 40;
            out << 10.0 * c + noise(random) << ',' << (c == 1 ? 10.0 : 0.0) + noise(random) << '\n';
        }
        out.close();
        ASSERT_EQ(
            runCli({"hca", file("blobs.csv"), "--linkage", "average", "--backend", "cpu", "--out", file("average.csv")})
                .exitCode,
            0);
    }
    std::string file(const std::string& name) const { return m_dir.file(name); }

    /// `plot KIND args... --out NAME`; the file's bytes, or "" after a failure reported.
    std::string plot(const std::vector<std::string>& kindAndArgs, const std::string& name) const {
        std::vector<std::string> args = {"plot"};
        args.insert(args.end(), kindAndArgs.begin(), kindAndArgs.end());
        args.insert(args.end(), {"--out", file(name)});
        const CliResult result = runCli(args);
        EXPECT_EQ(result.exitCode, 0) << result.err;
        return result.exitCode == 0 ? readFile(file(name)) : std::string();
    }

    /// plot() of an SVG without its metadata (which holds the command itself): what is drawn.
    std::string drawing(const std::vector<std::string>& kindAndArgs, const std::string& name) const {
        std::string svg = plot(kindAndArgs, name);
        const std::size_t from = svg.find("<metadata>"), to = svg.find("</metadata>");
        if (from != std::string::npos && to != std::string::npos) svg.erase(from, to - from);
        return svg;
    }

    /// Runs `plot KIND args... --out x.svg`, expects exit 2 and `option` named on stderr.
    void expectRefused(const std::vector<std::string>& kindAndArgs, const std::string& option) const {
        std::vector<std::string> args = {"plot"};
        args.insert(args.end(), kindAndArgs.begin(), kindAndArgs.end());
        args.insert(args.end(), {"--out", file("x.svg")});
        const CliResult result = runCli(args);
        EXPECT_EQ(result.exitCode, 2) << result.err;
        EXPECT_THAT(result.err, HasSubstr(option));
    }

    TempDir m_dir;
};

TEST_F(CliPlotView, VatRowsAndColsDrawOnlyThatBlockOfTheImage) {
    const std::vector<std::string> vat = {"vat", file("blobs.csv"), "--image", "vat", "--backend", "cpu"};
    const auto with = [&vat](std::vector<std::string> more) {
        more.insert(more.begin(), vat.begin(), vat.end());
        return more;
    };
    const auto inside = [](const std::vector<double>& values, double low, double high) {
        return !values.empty() &&
               std::all_of(values.begin(), values.end(), [&](double v) { return v >= low && v <= high; });
    };
    // The ticks but a level of 0 (the diagonal's distance) lie between `low` and `high`.
    const auto ticksWithin = [&inside](std::vector<double> ticks, double low, double high) {
        std::erase(ticks, 0.0);
        return inside(ticks, low, high);
    };
    // The whole image: positions 0..120, distances from 0 to those between the outer blobs (about 20).
    const VatNumbers whole = vatNumbers(plot(vat, "whole.svg"));
    EXPECT_TRUE(inside(whole.ticks, 0.0, 120.0));
    EXPECT_TRUE(containsAll(whole.ticks, {0.0, 120.0}));
    EXPECT_TRUE(inside(whole.levels, 15.0, 25.0));
    // Inside the last blob: positions 80..120 on both axes, small distances only.
    const VatNumbers block = vatNumbers(plot(with({"--rows", "80:120", "--cols", "80:120"}), "block.svg"));
    EXPECT_TRUE(ticksWithin(block.ticks, 80.0, 120.0));
    EXPECT_TRUE(containsAll(block.ticks, {80.0, 90.0, 100.0, 110.0, 120.0}));
    EXPECT_TRUE(inside(block.levels, 0.0, 3.0));
    // Rows of the first blob against columns of the last: only the large distances between them.
    const VatNumbers between = vatNumbers(plot(with({"--rows", "0:40", "--cols", "80:120"}), "between.svg"));
    EXPECT_TRUE(containsAll(between.ticks, {0.0, 40.0, 80.0, 120.0}));
    EXPECT_EQ(std::count_if(between.ticks.begin(), between.ticks.end(), [](double t) { return t > 40 && t < 80; }), 0);
    EXPECT_TRUE(inside(between.levels, 15.0, 25.0));
    // One range alone shows that block of the diagonal.
    const VatNumbers diagonal = vatNumbers(plot(with({"--rows", "40:80"}), "diagonal.svg"));
    EXPECT_TRUE(ticksWithin(diagonal.ticks, 40.0, 80.0));
    EXPECT_TRUE(containsAll(diagonal.ticks, {40.0, 80.0}));
    EXPECT_TRUE(inside(diagonal.levels, 0.0, 3.0));
}

TEST_F(CliPlotView, BadVatRangesExitTwoNamingTheOption) {
    const std::vector<std::string> vat = {"vat", file("blobs.csv"), "--backend", "cpu"};
    const auto with = [&vat](std::vector<std::string> more) {
        more.insert(more.begin(), vat.begin(), vat.end());
        return more;
    };
    for (const char* bad : {"40:20", "0:x", "5", ":20", "0:121", "-1:10", "10:12"})
        expectRefused(with({"--rows", bad}), "--rows");
    expectRefused(with({"--cols", "1:2e400"}), "--cols");
    expectRefused(with({"--rows", "0:40", "--cols", "0:60"}), "the image is square");
}

TEST_F(CliPlotView, VatDisplayOptionsChangeThePixelsAndHeldLevelsSetTheColourBar) {
    const std::vector<std::string> vat = {"vat", file("blobs.csv"), "--image", "vat", "--backend", "cpu"};
    const auto with = [&vat](std::vector<std::string> more) {
        more.insert(more.begin(), vat.begin(), vat.end());
        return more;
    };
    const std::string plain = drawing(vat, "plain.svg");
    for (const auto& option : std::vector<std::vector<std::string>>{
             {"--reverse"}, {"--gamma", "2.5"}, {"--clip", "5,90"}, {"--levels", "1,4"}})
        EXPECT_NE(drawing(with(option), "display.svg"), plain) << option.front() << " changed nothing";
    // Block means differ from the representatives where a pixel covers several positions: a small PNG.
    const auto pixels = [this] {
        return QImage(QString::fromStdString(file("small.png")), "PNG").convertToFormat(QImage::Format_ARGB32);
    };
    const std::vector<std::string> small = {"--width", "160", "--height", "150"};
    plot(with(small), "small.png");
    const QImage representative = pixels();
    std::vector<std::string> mean = small;
    mean.insert(mean.end(), {"--pixel", "mean"});
    plot(with(mean), "small.png");
    EXPECT_FALSE(representative.isNull());
    EXPECT_NE(pixels(), representative) << "--pixel mean changed nothing";
    // The defaults written out change nothing.
    EXPECT_EQ(drawing(with({"--pixel", "representative", "--gamma", "1", "--clip", "0,99"}), "defaults.svg"), plain);
    // Held levels are the colour bar's ends.
    const VatNumbers held = vatNumbers(plot(with({"--levels", "1.5,3.25"}), "held.svg"));
    EXPECT_TRUE(containsAll(held.levels, {1.5, 3.25}));
}

TEST_F(CliPlotView, IvatImagesDrawRepresentativesWhateverThePixelMode) {
    // As the view does, so the GUI's export writes --pixel mean for VAT images only.
    std::vector<std::string> ivat = {"vat", file("blobs.csv"), "--image", "ivat", "--backend", "cpu"};
    ivat.insert(ivat.end(), {"--width", "160", "--height", "150"});
    const auto pixels = [this](std::vector<std::string> args) {
        plot(args, "ivat.png");
        return QImage(QString::fromStdString(file("ivat.png")), "PNG").convertToFormat(QImage::Format_ARGB32);
    };
    const QImage representative = pixels(ivat);
    std::vector<std::string> mean = ivat;
    mean.insert(mean.end(), {"--pixel", "mean"});
    EXPECT_FALSE(representative.isNull());
    EXPECT_EQ(pixels(mean), representative);
}

TEST_F(CliPlotView, BadVatDisplayOptionsExitTwoNamingTheOption) {
    const std::vector<std::string> vat = {"vat", file("blobs.csv"), "--backend", "cpu"};
    const auto with = [&vat](std::vector<std::string> more) {
        more.insert(more.begin(), vat.begin(), vat.end());
        return more;
    };
    expectRefused(with({"--pixel", "max"}), "--pixel");
    for (const char* bad : {"0", "-1", "x"}) expectRefused(with({"--gamma", bad}), "--gamma");
    for (const char* bad : {"90,5", "0,101", "5", "a,b"}) expectRefused(with({"--clip", bad}), "--clip");
    for (const char* bad : {"4,1", "1", "1,inf"}) expectRefused(with({"--levels", bad}), "--levels");
}

TEST_F(CliPlotView, DendrogramLeavesAndHeightsDrawOnlyThatPartOfTheTree) {
    const std::vector<std::string> tree = {"dendrogram", file("average.csv"), "--width", "1200", "--height", "700"};
    const auto with = [&tree](std::vector<std::string> more) {
        more.insert(more.begin(), tree.begin(), tree.end());
        return more;
    };
    std::vector<std::string> texts;
    const std::vector<double> whole = svgNumbers(plot(tree, "whole.svg"), &texts);
    EXPECT_THAT(texts, testing::Contains("120 leaves (leaf order)"));
    ASSERT_FALSE(whole.empty());
    EXPECT_GT(*std::max_element(whole.begin(), whole.end()), 5.0);  // the root joins blobs 10 apart
    texts.clear();
    const std::vector<double> part =
        svgNumbers(plot(with({"--leaves", "10:110", "--heights", "0:0.5"}), "part.svg"), &texts);
    EXPECT_THAT(texts, testing::Contains("leaves 11\u2013110 of 120 (leaf order)"));
    ASSERT_GE(part.size(), 2u);
    for (double tick : part) EXPECT_TRUE(tick >= 0.0 && tick <= 0.5) << tick;
    // Ten leaves leave room for their names, the ids of the leaves at ranks 40..49 (the height ticks
    // between 0.05 and 0.5 are fractions).
    const std::vector<double> named =
        svgNumbers(plot(with({"--leaves", "40:50", "--heights", "0.05:0.5"}), "named.svg"));
    EXPECT_EQ(std::count_if(named.begin(), named.end(), [](double v) { return v == static_cast<int>(v); }), 10);
    // On the log axis the heights are still merge heights.
    const std::vector<double> logPart =
        svgNumbers(plot(with({"--log", "--heights", "0.1:1", "--leaves", "0:60"}), "log.svg"));
    ASSERT_FALSE(logPart.empty());
    for (double tick : logPart) EXPECT_TRUE(tick >= 0.1 - 1e-9 && tick <= 1.0 + 1e-9) << tick;
}

TEST_F(CliPlotView, CollapsedSubtreesAreDrawnAsTrianglesAndBadIdsRefused) {
    const std::vector<std::string> tree = {"dendrogram", file("average.csv")};
    const std::string whole = drawing(tree, "whole.svg");
    // 120 leaves: clusters 120..238; 237 and 236 are the root's two children.
    std::vector<std::string> collapsed = tree;
    collapsed.insert(collapsed.end(), {"--collapse", "236,237"});
    const std::string folded = drawing(collapsed, "folded.svg");
    EXPECT_NE(folded, whole);
    EXPECT_LT(folded.size(), whole.size()) << "two triangles instead of most of the tree";
    for (const char* bad : {"119", "239", "x", "120,-1"}) {
        std::vector<std::string> args = tree;
        args.insert(args.end(), {"--collapse", bad});
        expectRefused(args, "--collapse");
    }
}

TEST_F(CliPlotView, ThresholdMarksAreDrawnAndBadThresholdsRefused) {
    const std::vector<std::string> tree = {"dendrogram", file("average.csv")};
    const std::string whole = drawing(tree, "plain.svg");
    std::vector<std::string> marked = tree;
    marked.insert(marked.end(), {"--threshold-marks", "0.25"});
    const std::string withMarks = drawing(marked, "marked.svg");
    EXPECT_NE(withMarks, whole);
    EXPECT_NE(withMarks.find("= 30 events (T = 0.25)"), std::string::npos) << "120 leaves: T·N = 30";
    for (const char* bad : {"0", "1.5", "x", "nan"}) {
        std::vector<std::string> args = tree;
        args.insert(args.end(), {"--threshold-marks", bad});
        expectRefused(args, "--threshold-marks");
    }
}

TEST_F(CliPlotView, BadDendrogramRangesExitTwoNamingTheOption) {
    const std::vector<std::string> tree = {"dendrogram", file("average.csv")};
    const auto with = [&tree](std::vector<std::string> more) {
        more.insert(more.begin(), tree.begin(), tree.end());
        return more;
    };
    for (const char* bad : {"20:10", "a:b", "10", "120:200", "-50:0"})
        expectRefused(with({"--leaves", bad}), "--leaves");
    for (const char* bad : {"1:1", "x:2", "1000:2000", "-9:-8"}) expectRefused(with({"--heights", bad}), "--heights");
    expectRefused(with({"--log", "--heights", "0:1"}), "--heights");
}

}  // namespace

}  // namespace clusterlens::test

#endif  // CLUSTERLENS_HAVE_PLOT
