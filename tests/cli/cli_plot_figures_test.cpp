// Every `clusterlens-cli plot` kind at a journal's single column, 85 mm at 600 dpi: a PNG of
// exactly 2008 pixels, a PDF page of 240.9 points, a well-formed SVG 85 mm wide with a viewBox, a
// TIFF; each carries the title, the command that regenerates it and the data file's SHA-256 (PNG
// text chunks, SVG <metadata>, PDF document information, TIFF ImageDescription). An unwritable
// folder leaves no file behind, and no XDG_RUNTIME_DIR warning reaches stderr. A contingency table of
// 20 x 400 clusters is drawn with its smallest columns summed into "other".

#ifdef CLUSTERLENS_HAVE_PLOT

#include <QByteArray>
#include <QImage>
#include <QString>
#include <QXmlStreamReader>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>

#include "cli_runner.hpp"
#include "clusterlens/io/file_hash.hpp"

namespace clusterlens::test {

namespace {

using testing::HasSubstr;

constexpr const char* kTitle = "Figure 2b";

std::uint32_t bigEndian32(const std::string& b, std::size_t at) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(b[at])) << 24 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 1])) << 16 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 2])) << 8 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 3]));
}

std::uint32_t littleEndian(const std::string& b, std::size_t at, int bytes) {
    std::uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(b[at + static_cast<std::size_t>(i)]);
    return v;
}

/// The tEXt chunks of a PNG (keyword -> text), walking every chunk from the signature on.
std::map<std::string, std::string> pngTexts(const std::string& png) {
    std::map<std::string, std::string> texts;
    for (std::size_t at = 8; at + 12 <= png.size();) {
        const std::uint32_t length = bigEndian32(png, at);
        const std::string type = png.substr(at + 4, 4);
        if (type == "tEXt") {
            const std::string data = png.substr(at + 8, length);
            const std::size_t zero = data.find('\0');
            texts[data.substr(0, zero)] = data.substr(zero + 1);
        }
        at += 12 + length;
    }
    return texts;
}

/// Width, height and ImageDescription of a little-endian TIFF's first directory.
struct TiffInfo {
    std::uint32_t width = 0, height = 0;
    std::string description;
};

TiffInfo tiffInfo(const std::string& tiff) {
    TiffInfo info;
    if (tiff.compare(0, 4, std::string("II*\0", 4)) != 0) return info;
    const std::uint32_t directory = littleEndian(tiff, 4, 4);
    const std::uint32_t entries = littleEndian(tiff, directory, 2);
    for (std::uint32_t e = 0; e < entries; ++e) {
        const std::size_t at = directory + 2 + 12 * e;
        const std::uint32_t tag = littleEndian(tiff, at, 2), type = littleEndian(tiff, at + 2, 2);
        const std::uint32_t count = littleEndian(tiff, at + 4, 4);
        const std::uint32_t value = littleEndian(tiff, at + 8, type == 3 ? 2 : 4);
        if (tag == 256) info.width = value;
        if (tag == 257) info.height = value;
        if (tag == 270) info.description = tiff.substr(count <= 4 ? at + 8 : value, count - 1);
    }
    return info;
}

/// Text of every element inside <metadata>, and whether the whole file is well-formed XML.
struct SvgInfo {
    bool wellFormed = false;
    std::string width, viewBox, title, metadata;
};

SvgInfo svgInfo(const std::string& svg) {
    SvgInfo info;
    QXmlStreamReader xml(QByteArray::fromStdString(svg));
    int inMetadata = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("svg")) {
            info.width = xml.attributes().value(QLatin1String("width")).toString().toStdString();
            info.viewBox = xml.attributes().value(QLatin1String("viewBox")).toString().toStdString();
        }
        if (xml.isStartElement() && xml.name() == QLatin1String("title") &&
            xml.namespaceUri() == QLatin1String("http://www.w3.org/2000/svg"))
            info.title = xml.readElementText().toStdString();
        if (xml.isStartElement() && xml.name() == QLatin1String("metadata")) ++inMetadata;
        if (xml.isEndElement() && xml.name() == QLatin1String("metadata")) --inMetadata;
        if (inMetadata > 0 && xml.isCharacters()) info.metadata += xml.text().toString().toStdString() + "\n";
    }
    info.wellFormed = !xml.hasError();
    return info;
}

/// Three labelled blobs of 40 points in 2-D, in the scikit-learn table layout that names the classes.
void writeBlobs(const std::string& path) {
    std::ofstream out(path);
    out << "120,2,alpha,beta,gamma\n";
    std::mt19937_64 random(11);
    std::normal_distribution<double> noise(0.0, 0.4);
    for (int i = 0; i < 120; ++i) {
        const int c = i % 3;
        out << 3.0 * c + noise(random) << ',' << (c == 1 ? 4.0 : 0.0) + noise(random) << ',' << c << '\n';
    }
}

class CliPlotFigures : public testing::Test {
protected:
    void SetUp() override {
        writeBlobs(file("blobs.csv"));
        for (const char* method : {"average", "ward"})
            ASSERT_EQ(runCli({"hca", file("blobs.csv"), "--linkage", method, "--backend", "cpu", "--out",
                              file(std::string(method) + ".csv")})
                          .exitCode,
                      0);
        ASSERT_EQ(runCli({"dpc", file("blobs.csv"), "--backend", "cpu", "--out", file("DPC.csv"), "--peaks-top", "3",
                          "--labels-out", file("dpc_labels.csv")})
                      .exitCode,
                  0);
        ASSERT_EQ(runCli({"kmeans", file("blobs.csv"), "-k", "3", "--labels-out", file("km.csv")}).exitCode, 0);
        // A session with two populations (the first 40 events, and 10 of them) for `plot populations`.
        ASSERT_EQ(runCli({"kmeans", file("blobs.csv"), "-k", "3", "--labels-out", file("km_session.csv"), "--session",
                          file("gated.clusterlens")})
                      .exitCode,
                  0);
        std::ofstream first(file("first.csv")), some(file("some.csv"));
        first << "index\n";
        some << "index\n";
        for (int i = 0; i < 40; ++i) (i % 4 == 0 ? some : first) << i << '\n';
        first.close();
        some.close();
        ASSERT_EQ(runCli({"population", "add", file("gated.clusterlens"), "--name", "not every 4th", "--indices",
                          file("first.csv")})
                      .exitCode,
                  0);
        ASSERT_EQ(runCli({"population", "add", file("gated.clusterlens"), "--name", "every 4th", "--indices",
                          file("some.csv")})
                      .exitCode,
                  0);
    }
    std::string file(const std::string& name) const { return m_dir.file(name); }

    /// Each kind with its inputs; the first input is the one hashed in every check.
    std::vector<std::vector<std::string>> kinds() const {
        return {{"scatter", file("blobs.csv"), "--x", "0", "--y", "1"},
                {"dendrogram", file("average.csv"), "--cut-k", "3"},
                {"decision", file("DPC.csv"), "--peaks-top", "3"},
                {"gamma", file("DPC.csv"), "--peaks-top", "3"},
                {"vat", file("blobs.csv"), "--cut-k", "3"},
                {"heights", file("average.csv"), file("ward.csv")},
                {"contingency", file("km.csv"), file("dpc_labels.csv")},
                {"populations", file("blobs.csv"), "--session", file("gated.clusterlens")},
                {"sizes", file("average.csv"), "--cut-k", "3"},
                {"merge-heights", file("average.csv"), "--cut-k", "3"},
                {"histograms", file("blobs.csv"), "--session", file("gated.clusterlens"), "--marker", "V1"}};
    }

    /// Runs `plot KIND ... --width-mm 85 --height-mm 70 --dpi 600 --title kTitle --out OUT`.
    CliResult plot(const std::vector<std::string>& kind, const std::string& out) const {
        std::vector<std::string> args = {"plot"};
        args.insert(args.end(), kind.begin(), kind.end());
        for (const char* word : {"--width-mm", "85", "--height-mm", "70", "--dpi", "600", "--title", kTitle, "--out"})
            args.emplace_back(word);
        args.push_back(out);
        return runCli(args);
    }

    /// Plots `kind` into KIND.SUFFIX and returns the file's bytes; a failed run fails the test.
    std::string plotBytes(const std::vector<std::string>& kind, const std::string& suffix) const {
        const std::string out = file(kind[0] + "." + suffix);
        const CliResult result = plot(kind, out);
        EXPECT_EQ(result.exitCode, 0) << result.err;
        EXPECT_THAT(result.err, testing::Not(HasSubstr("XDG_RUNTIME_DIR")));
        return result.exitCode == 0 ? readFile(out) : std::string();
    }

    TempDir m_dir;
};

}  // namespace

TEST_F(CliPlotFigures, EveryKindWritesA2008PixelPngWithItsProvenanceInTextChunks) {
    for (const auto& kind : kinds()) {
        SCOPED_TRACE(kind[0]);
        const std::string png = plotBytes(kind, "png");
        ASSERT_GT(png.size(), 24u);
        ASSERT_EQ(png.compare(1, 3, "PNG"), 0);
        EXPECT_EQ(bigEndian32(png, 16), 2008u);  // 85 mm at 600 dpi
        EXPECT_EQ(bigEndian32(png, 20), 1654u);  // 70 mm
        const auto texts = pngTexts(png);
        ASSERT_TRUE(texts.count("Title") && texts.count("Command") && texts.count("Data SHA-256") &&
                    texts.count("Software"));
        EXPECT_EQ(texts.at("Title"), kTitle);
        EXPECT_THAT(texts.at("Command"), HasSubstr("clusterlens-cli plot " + kind[0] + " " + kind[1]));
        EXPECT_THAT(texts.at("Command"), HasSubstr("--width-mm 85"));
        EXPECT_THAT(texts.at("Data SHA-256"), HasSubstr(sha256File(kind[1]) + "  " + kind[1]));
        EXPECT_THAT(texts.at("Software"), HasSubstr("ClusterLens "));
    }
}

TEST_F(CliPlotFigures, EveryKindWritesA241PointPdfWithItsProvenanceInTheDocumentInformation) {
    for (const auto& kind : kinds()) {
        SCOPED_TRACE(kind[0]);
        const std::string pdf = plotBytes(kind, "pdf");
        std::smatch box;
        ASSERT_TRUE(std::regex_search(pdf, box, std::regex(R"(/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\])")));
        EXPECT_NEAR(std::stod(box[1]), 85.0 / 25.4 * 72.0, 0.05);  // 240.9 pt
        EXPECT_NEAR(std::stod(box[2]), 70.0 / 25.4 * 72.0, 0.05);
        EXPECT_THAT(pdf, HasSubstr(std::string("/Title (") + kTitle + ")"));
        EXPECT_THAT(pdf, HasSubstr("/Subject (clusterlens-cli plot " + kind[0]));
        EXPECT_THAT(pdf, HasSubstr("/Keywords (sha256:" + sha256File(kind[1])));
        EXPECT_THAT(pdf, HasSubstr("/Creator (ClusterLens "));
    }
}

TEST_F(CliPlotFigures, EveryKindWritesAWellFormedSvgWithTitleCommandAndHashInItsMetadata) {
    for (const auto& kind : kinds()) {
        SCOPED_TRACE(kind[0]);
        const SvgInfo svg = svgInfo(plotBytes(kind, "svg"));
        EXPECT_TRUE(svg.wellFormed);
        EXPECT_EQ(svg.width, "85mm");
        EXPECT_FALSE(svg.viewBox.empty());
        EXPECT_EQ(svg.title, kTitle);
        EXPECT_THAT(svg.metadata, HasSubstr(kTitle));
        EXPECT_THAT(svg.metadata, HasSubstr("clusterlens-cli plot " + kind[0] + " " + kind[1]));
        EXPECT_THAT(svg.metadata, HasSubstr(sha256File(kind[1])));
    }
}

TEST_F(CliPlotFigures, EveryKindWritesATiffWithItsProvenanceInTheImageDescription) {
    for (const auto& kind : kinds()) {
        SCOPED_TRACE(kind[0]);
        const TiffInfo tiff = tiffInfo(plotBytes(kind, "tif"));
        EXPECT_EQ(tiff.width, 2008u);
        EXPECT_EQ(tiff.height, 1654u);
        EXPECT_THAT(tiff.description, HasSubstr(std::string("Title: ") + kTitle));
        EXPECT_THAT(tiff.description, HasSubstr("Command: clusterlens-cli plot " + kind[0]));
        EXPECT_THAT(tiff.description, HasSubstr(sha256File(kind[1])));
    }
}

TEST_F(CliPlotFigures, ATitleWithMarkupCharactersKeepsTheSvgWellFormed) {
    const std::string out = file("markup.svg");
    const CliResult result =
        runCli({"plot", "dendrogram", file("average.csv"), "--title", "CD4 & CD8 <gated>", "--out", out});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const SvgInfo svg = svgInfo(readFile(out));
    EXPECT_TRUE(svg.wellFormed);
    EXPECT_EQ(svg.title, "CD4 & CD8 <gated>");
    EXPECT_THAT(svg.metadata, HasSubstr("CD4 & CD8 <gated>"));
}

TEST_F(CliPlotFigures, PixelSizesAndStyleOptionsAreHonoured) {
    const std::string out = file("scatter.png");
    const CliResult result =
        runCli({"plot",    "scatter",      file("blobs.csv"), "--x",          "0",         "--y",       "1",
                "--width", "500",          "--height",        "400",          "--palette", "okabe-ito", "--legend",
                "top",     "--background", "transparent",     "--font-scale", "1.2",       "--out",     out});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const QImage transparent(QString::fromStdString(out));
    EXPECT_EQ(transparent.width(), 500);
    EXPECT_EQ(transparent.height(), 400);
    EXPECT_EQ(qAlpha(transparent.pixel(1, 1)), 0);
    ASSERT_EQ(
        runCli({"plot", "scatter", file("blobs.csv"), "--x", "0", "--y", "1", "--width", "500", "--out", out}).exitCode,
        0);
    const QImage white(QString::fromStdString(out));
    EXPECT_EQ(white.width(), 500);
    EXPECT_EQ(white.height(), 417);  // the figure's own aspect ratio, 720 x 600
    EXPECT_EQ(white.pixel(1, 1), qRgb(255, 255, 255));
    EXPECT_EQ(
        runCli({"plot", "scatter", file("blobs.csv"), "--x", "0", "--y", "1", "--palette", "rainbow", "--out", out})
            .exitCode,
        2);
    EXPECT_EQ(runCli({"plot", "scatter", file("blobs.csv"), "--x", "0", "--y", "1", "--width", "500", "--width-mm",
                      "85", "--out", out})
                  .exitCode,
              2);
    const CliResult missing = runCli({"plot", "scatter", file("blobs.csv"), "--x", "Z", "--y", "1", "--out", out});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_THAT(missing.err, HasSubstr("--x"));
}

TEST_F(CliPlotFigures, ScatterLegendNamesTheClassesOfTheFile) {
    const std::string out = file("scatter.svg");
    ASSERT_EQ(runCli({"plot", "scatter", file("blobs.csv"), "--x", "0", "--y", "1", "--out", out}).exitCode, 0);
    const std::string svg = readFile(out);
    for (const char* name : {">alpha<", ">beta<", ">gamma<"}) EXPECT_THAT(svg, HasSubstr(name));
}

TEST_F(CliPlotFigures, ContingencyOfFourHundredClustersSumsTheSmallestIntoOther) {
    // B: 400 clusters of 5..21 events; A: 20 clusters, B's cluster b inside A's cluster b % 20.
    std::ofstream a(file("a20.csv")), b(file("b400.csv"));
    a << "index,label\n";
    b << "index,label\n";
    int index = 0;
    for (int cluster = 0; cluster < 400; ++cluster)
        for (int i = 0; i < 5 + cluster % 17; ++i, ++index) {
            a << index << ',' << cluster % 20 << '\n';
            b << index << ',' << cluster << '\n';
        }
    a.close();
    b.close();
    const std::string out = file("wide.svg");
    const CliResult result = runCli({"plot", "contingency", file("a20.csv"), file("b400.csv"), "--width-mm", "85",
                                     "--height-mm", "70", "--out", out});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, HasSubstr("20 x 400 clusters (361 smallest summed as other)"));
    const std::string svg = readFile(out);
    EXPECT_TRUE(svgInfo(svg).wellFormed);
    EXPECT_THAT(svg, HasSubstr(">other<"));
    EXPECT_THAT(svg, HasSubstr("other: the 361 smallest clusters of B, summed"));
    // Numbers drawn: the 20 row labels and at most the 40 drawn columns' labels, not 400.
    std::size_t labels = 0;
    for (int cluster = 0; cluster < 400; ++cluster)
        labels += svg.find(">" + std::to_string(cluster) + "<") != std::string::npos ? 1 : 0;
    EXPECT_LE(labels, 60u);
}

TEST_F(CliPlotFigures, PopulationsNeedTheSessionsDataFileAndKnownMarkers) {
    const std::string out = file("populations.svg");
    const CliResult ok =
        runCli({"plot", "populations", file("blobs.csv"), "--session", file("gated.clusterlens"), "--out", out});
    ASSERT_EQ(ok.exitCode, 0) << ok.err;
    EXPECT_THAT(ok.out, HasSubstr("2 populations, medians of 2 markers"));
    EXPECT_THAT(readFile(out), HasSubstr("every 4th"));
    std::ofstream other(file("other.csv"));
    other << "x1,x2\n1,2\n3,4\n";
    other.close();
    const CliResult foreign = runCli(
        {"plot", "populations", file("other.csv"), "--session", file("gated.clusterlens"), "--out", file("p2.svg")});
    EXPECT_EQ(foreign.exitCode, 3);
    EXPECT_THAT(foreign.err, HasSubstr("SHA-256"));
    const CliResult unknown = runCli({"plot", "populations", file("blobs.csv"), "--session", file("gated.clusterlens"),
                                      "--markers", "CD99", "--out", file("p3.svg")});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_THAT(unknown.err, HasSubstr("CD99"));
}

TEST_F(CliPlotFigures, PopulationsNameDrawsThatPopulationAndThoseBelowIt) {
    std::ofstream(file("inner.csv")) << "index\n0\n4\n";
    ASSERT_EQ(runCli({"population", "add", file("gated.clusterlens"), "--name", "inner", "--parent", "every 4th",
                      "--indices", file("inner.csv")})
                  .exitCode,
              0);
    const auto draw = [&](const std::string& name, const std::string& out) {
        return runCli({"plot", "populations", file("blobs.csv"), "--session", file("gated.clusterlens"), "--name", name,
                       "--out", file(out)});
    };
    const CliResult subtree = draw("every 4th", "subtree.svg");
    ASSERT_EQ(subtree.exitCode, 0) << subtree.err;
    EXPECT_THAT(subtree.out, HasSubstr("2 populations"));
    const std::string svg = readFile(file("subtree.svg"));
    EXPECT_THAT(svg, HasSubstr("inner"));
    EXPECT_THAT(svg, HasSubstr("every 4th"));
    EXPECT_THAT(svg, testing::Not(HasSubstr("not every 4th")));
    const CliResult leaf = draw("inner", "leaf.svg");
    ASSERT_EQ(leaf.exitCode, 0) << leaf.err;
    EXPECT_THAT(leaf.out, HasSubstr("1 populations"));
    const CliResult unknown = draw("nope", "nope.svg");
    EXPECT_EQ(unknown.exitCode, 3);
    EXPECT_THAT(unknown.err, HasSubstr("--name"));
    EXPECT_THAT(unknown.err, HasSubstr("'not every 4th'"));  // what there is
}

TEST_F(CliPlotFigures, AnUnwritableFolderGivesAClearErrorAndNoFile) {
    if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only folders";
    const std::string folder = file("locked");
    std::filesystem::create_directory(folder);
    ::chmod(folder.c_str(), 0500);
    const std::string out = folder + "/figure.pdf";
    const CliResult result = runCli({"plot", "dendrogram", file("average.csv"), "--out", out});
    ::chmod(folder.c_str(), 0700);
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_THAT(result.err, HasSubstr("figure.pdf"));
    EXPECT_TRUE(std::filesystem::is_empty(folder));
}

TEST_F(CliPlotFigures, AMissingFolderGivesAClearErrorAndNoFile) {
    const std::string out = file("no/such/folder/figure.png");
    const CliResult result = runCli({"plot", "dendrogram", file("average.csv"), "--out", out});
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_THAT(result.err, HasSubstr("does not exist"));
    EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace clusterlens::test

#endif  // CLUSTERLENS_HAVE_PLOT
