// `clusterlens-cli plot KIND --session FILE --name NAME`: every figure kind draws a result stored in a
// session (a linkage, labeling, DPC result, VAT order, comparison or population), the same figure as
// from the files the analysis wrote; a DPC result of a population plots from its DPC.csv (whole-dataset
// indices) and from the session; names that are missing or of another kind exit 3 naming the option.
// Colour strips (--strip) of stored labelings and populations draw as from their files; --xlim/--ylim
// draw the scatter's zoomed view.

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include "cli_runner.hpp"

namespace clusterlens::test {

namespace {

bool plotAvailable() {
    return runCli({"--help"}).out.find("plot") != std::string::npos;
}

CliResult expectExit(int code, const std::vector<std::string>& args) {
    CliResult result = runCli(args);
    EXPECT_EQ(result.exitCode, code) << args[0] << " " << args[1] << ": " << result.err;
    return result;
}

/// An SVG without its <metadata> element (the command and the hashes differ between two sources).
std::string svgBody(const std::string& path) {
    std::string svg = readFile(path);
    const std::size_t from = svg.find("<metadata>"), to = svg.find("</metadata>");
    if (from != std::string::npos && to != std::string::npos) svg.erase(from, to - from);
    return svg;
}

/// A session of iris holding k-means k=3 ("k3") and k=2 ("k2") with their label files, two linkages
/// ("mhca", "ward") with theirs, DPC (top 3 peaks) and VAT of all events, the population "first" (the
/// odd-numbered events) and DPC on it, whose DPC.csv is dpc-first.csv.
class CliPlotSession : public testing::Test {
protected:
    void SetUp() override {
        if (!plotAvailable()) GTEST_SKIP() << "clusterlens-cli was built without plot (no Qt)";
        m_data = dataPath("tables/iris.csv");
        m_session = m_dir.file("work.clusterlens");
        const std::vector<std::string> common = {"--backend", "cpu", "--session", m_session};
        const auto run = [&](std::vector<std::string> args) {
            args.insert(args.end(), common.begin(), common.end());
            expectExit(0, args);
        };
        run({"kmeans", m_data, "-k", "3", "--labels-out", file("k3.csv"), "--name", "k3"});
        run({"kmeans", m_data, "-k", "2", "--labels-out", file("k2.csv"), "--name", "k2"});
        run({"hca", m_data, "--variant", "centroid", "--out", file("mhca.csv"), "--name", "mhca"});
        run({"hca", m_data, "--linkage", "ward", "--out", file("ward.csv"), "--name", "ward"});
        run({"dpc", m_data, "--peaks-top", "3", "--out", file("dpc.csv"), "--name", "dpc"});
        run({"vat", m_data, "--out", file("order.csv"), "--name", "vat"});
        std::string odd = "index\n";
        for (int i = 1; i < 150; i += 2) odd += std::to_string(i) + "\n";
        writeFile(file("odd.csv"), odd);
        expectExit(0, {"population", "add", m_session, "--name", "first", "--indices", file("odd.csv")});
        run({"dpc", m_data, "--population", "first", "--peaks-top", "2", "--out", file("dpc-first.csv"), "--name",
             "dpc first"});
    }

    std::string file(const std::string& name) const { return m_dir.file(name); }

    /// `plot KIND ARGS --out NAME.svg --title T` and the SVG's path.
    std::string plot(const std::string& kind, std::vector<std::string> args, const std::string& name) {
        const std::string out = file(name + ".svg");
        std::vector<std::string> command = {"plot", kind};
        command.insert(command.end(), args.begin(), args.end());
        for (const std::string& word : {std::string("--out"), out, std::string("--title"), std::string("T")})
            command.push_back(word);
        expectExit(0, command);
        return out;
    }

    TempDir m_dir;
    std::string m_data, m_session;
};

TEST_F(CliPlotSession, StoredResultsDrawTheSameFiguresAsTheirFiles) {
    if (IsSkipped()) return;
    const std::vector<std::string> s = {"--session", m_session};
    const auto both = [&](const std::string& kind, std::vector<std::string> files, std::vector<std::string> names) {
        names.insert(names.begin(), s.begin(), s.end());
        EXPECT_EQ(svgBody(plot(kind, files, kind + "-files")), svgBody(plot(kind, names, kind + "-session"))) << kind;
    };
    both("dendrogram", {file("ward.csv"), "--cut-k", "3"}, {"--name", "ward", "--cut-k", "3"});
    both("heights", {file("mhca.csv"), file("ward.csv")}, {"--name", "mhca", "--name2", "ward"});
    both("contingency", {file("k3.csv"), file("k2.csv")}, {"--name", "k3", "--name2", "k2"});
    both("sizes", {file("ward.csv"), "--cut-k", "4"}, {"--name", "ward", "--cut-k", "4"});
    both("merge-heights", {file("mhca.csv"), "--cut-k", "3"}, {"--name", "mhca", "--cut-k", "3"});
    both("scatter", {m_data, "--x", "0", "--y", "1", "--labels", file("k3.csv")},
         {"--name", "k3", "--x", "0", "--y", "1"});
    both("gamma", {file("dpc.csv"), "--peaks-top", "3"}, {"--name", "dpc"});
    // The stored order is drawn as `vat` computed it, with or without the data file named.
    both("vat", {m_data, "--cut-k", "3"}, {"--name", "vat", "--cut-k", "3"});
    both("vat", {m_data}, {m_data, "--name", "vat"});
    // A population colours its events; a comparison names its two labelings.
    EXPECT_NE(svgBody(plot("scatter", {"--session", m_session, "--name", "first", "--x", "0", "--y", "1"}, "pop")),
              svgBody(plot("scatter", {m_data, "--x", "0", "--y", "1", "--colour-by", "density"}, "density")));
    expectExit(0, {"plot", "decision", "--session", m_session, "--name", "dpc", "--out", file("d.png")});
}

TEST_F(CliPlotSession, ADpcResultOfAPopulationPlotsFromItsTableAndFromTheSession) {
    if (IsSkipped()) return;
    // The table names the population's events by whole-dataset index; the same table with positions
    // 0..m-1 (links mapped alike) must draw the same figures.
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(readFile(file("dpc-first.csv")));
    std::string line;
    std::getline(in, line);
    std::map<std::string, std::string> positionOf = {{"-1", "-1"}};
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::istringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
        positionOf[fields[0]] = std::to_string(rows.size());
        rows.push_back(fields);
    }
    ASSERT_GT(rows.size(), 3u);
    const std::string lastMember = rows.back()[0];
    ASSERT_GE(std::stoul(lastMember), rows.size());  // whole-dataset indices, not positions
    std::string relabelled = "index,rho,delta,nearest_higher,gamma\n";
    for (const auto& row : rows)
        relabelled += positionOf[row[0]] + "," + row[1] + "," + row[2] + "," + positionOf[row[3]] + "," + row[4] + "\n";
    writeFile(file("positions.csv"), relabelled);
    for (const std::string kind : {"decision", "gamma"})
        EXPECT_EQ(svgBody(plot(kind, {file("dpc-first.csv"), "--peaks-top", "2"}, kind + "-table")),
                  svgBody(plot(kind, {file("positions.csv"), "--peaks-top", "2"}, kind + "-positions")))
            << kind;
    // From the session: the same γ plot; the decision graph with the peaks chosen there (top 2).
    const std::vector<std::string> stored = {"--session", m_session, "--name", "dpc first", "--population", "first"};
    std::vector<std::string> top = stored;
    top.insert(top.end(), {"--peaks-top", "2"});
    EXPECT_EQ(svgBody(plot("gamma", top, "gamma-stored")), svgBody(file("gamma-table.svg")));
    EXPECT_EQ(svgBody(plot("decision", stored, "chosen")), svgBody(plot("decision", top, "top")));
    // --peaks takes the table's indices: members of the population, not positions among them.
    expectExit(0, {"plot", "decision", file("dpc-first.csv"), "--peaks", lastMember, "--out", file("p.svg")});
    const CliResult outside =
        expectExit(2, {"plot", "decision", file("dpc-first.csv"), "--peaks", "2", "--out", file("q.svg")});
    EXPECT_NE(outside.err.find("--peaks: '2'"), std::string::npos) << outside.err;
}

TEST_F(CliPlotSession, MissingNamesAndResultsOfAnotherKindExitThreeNamingTheOption) {
    if (IsSkipped()) return;
    const std::string out = file("x.svg");
    const CliResult missing =
        expectExit(3, {"plot", "decision", "--session", m_session, "--name", "nope", "--out", out});
    EXPECT_NE(missing.err.find("--name"), std::string::npos) << missing.err;
    EXPECT_NE(missing.err.find("no DPC result 'nope'"), std::string::npos) << missing.err;
    EXPECT_NE(missing.err.find("'dpc first'"), std::string::npos) << missing.err;  // what there is
    const CliResult kind = expectExit(3, {"plot", "dendrogram", "--session", m_session, "--name", "k3", "--out", out});
    EXPECT_NE(kind.err.find("--name"), std::string::npos) << kind.err;
    EXPECT_NE(kind.err.find("'k3' is a labeling"), std::string::npos) << kind.err;
    const CliResult second =
        expectExit(3, {"plot", "heights", "--session", m_session, "--name", "ward", "--name2", "dpc", "--out", out});
    EXPECT_NE(second.err.find("--name2"), std::string::npos) << second.err;
    EXPECT_NE(second.err.find("DPC result"), std::string::npos) << second.err;
    const CliResult other = expectExit(
        3, {"plot", "gamma", "--session", m_session, "--name", "dpc", "--population", "first", "--out", out});
    EXPECT_NE(other.err.find("--population"), std::string::npos) << other.err;
    EXPECT_NE(other.err.find("all events"), std::string::npos) << other.err;
    const CliResult comparison =
        expectExit(3, {"plot", "contingency", "--session", m_session, "--name", "k3", "--out", out});
    EXPECT_NE(comparison.err.find("no comparison 'k3'"), std::string::npos) << comparison.err;
    const CliResult population = expectExit(
        3, {"plot", "histograms", "--session", m_session, "--marker", "V1", "--populations", "nope", "--out", out});
    EXPECT_NE(population.err.find("--populations"), std::string::npos) << population.err;
    expectExit(2, {"plot", "histograms", "--session", m_session, "--marker", "no such marker", "--out", out});
    expectExit(
        0, {"plot", "histograms", "--session", m_session, "--marker", "V1", "--populations", "first", "--out", out});
    // Option mistakes are exit 2.
    expectExit(2, {"plot", "vat", "--session", m_session, "--out", out});
    expectExit(2, {"plot", "gamma", file("dpc.csv"), "--session", m_session, "--name", "dpc", "--out", out});
    expectExit(2, {"plot", "gamma", file("dpc.csv"), "--name", "dpc", "--out", out});
    expectExit(2, {"plot", "sizes", file("ward.csv"), "--out", out});
}

TEST_F(CliPlotSession, ColourStripsOfStoredLabelingsDrawAsFromTheirFiles) {
    if (IsSkipped()) return;
    const std::vector<std::string> strips = {"--strip", "k3", "--strip", "marker:V1"};
    const auto session = [&](const std::string& kind, const std::string& name, std::vector<std::string> more) {
        std::vector<std::string> args = {"--session", m_session, "--name", name};
        args.insert(args.end(), more.begin(), more.end());
        return svgBody(plot(kind, args, kind + "-" + name + "-" + std::to_string(more.size())));
    };
    const std::string vat = session("vat", "vat", strips);
    EXPECT_EQ(vat, svgBody(plot("vat", {m_data, "--strip", file("k3.csv"), "--strip", "marker:V1"}, "vat-files")));
    EXPECT_NE(vat, svgBody(plot("vat", {m_data}, "vat-plain")));
    EXPECT_NE(vat, session("vat", "vat", {"--strip", "populations", "--strip", "marker:V1"}));
    // A marker strip under a tree from a file takes the data of --heatmap.
    std::vector<std::string> heatmap = strips;
    heatmap.insert(heatmap.end(), {"--heatmap", m_data});
    EXPECT_EQ(session("dendrogram", "ward", heatmap),
              svgBody(plot("dendrogram",
                           {file("ward.csv"), "--heatmap", m_data, "--strip", file("k3.csv"), "--strip", "marker:V1"},
                           "tree-files")));
    const std::string out = file("x.svg");
    const CliResult unknown =
        expectExit(3, {"plot", "vat", "--session", m_session, "--name", "vat", "--strip", "nope", "--out", out});
    EXPECT_NE(unknown.err.find("no labeling 'nope'"), std::string::npos) << unknown.err;
    expectExit(2, {"plot", "vat", m_data, "--strip", "marker:nope", "--out", out});
    expectExit(2, {"plot", "dendrogram", file("ward.csv"), "--strip", "marker:V1", "--out", out});
    expectExit(2, {"plot", "vat", m_data, "--strip", file("k3.csv"), "--strip", file("k3.csv"), "--strip",
                   file("k3.csv"), "--strip", file("k3.csv"), "--out", out});
}

TEST_F(CliPlotSession, ScatterLimitsDrawTheZoomedView) {
    if (IsSkipped()) return;
    const std::string zoomed =
        readFile(plot("scatter", {m_data, "--x", "0", "--y", "1", "--xlim", "5:6", "--ylim", "2.8:3.4"}, "zoomed"));
    EXPECT_NE(zoomed.find(" in view)"), std::string::npos);
    EXPECT_EQ(readFile(plot("scatter", {m_data, "--x", "0", "--y", "1"}, "whole")).find(" in view)"),
              std::string::npos);
    const std::string out = file("x.svg");
    for (const char* bad : {"6:5", "5", "5:x", ":6"})
        expectExit(2, {"plot", "scatter", m_data, "--x", "0", "--y", "1", "--xlim", bad, "--out", out});
}

TEST_F(CliPlotSession, TheCommandInAFiguresMetadataRegeneratesIt) {
    if (IsSkipped()) return;
    const std::string first = plot("decision", {"--session", m_session, "--name", "dpc first", "--log-rho"}, "first");
    const std::string svg = readFile(first);
    const std::size_t from = svg.find("<dc:description>"), to = svg.find("</dc:description>");
    ASSERT_NE(to, std::string::npos);
    std::string command = svg.substr(from + 16, to - from - 16);
    for (const auto& [entity, text] : std::vector<std::pair<std::string, std::string>>{
             {"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}})
        command = std::regex_replace(command, std::regex(entity), text);
    ASSERT_EQ(command.rfind("clusterlens-cli plot decision --session ", 0), 0u) << command;
    command.replace(command.find(first), first.size(), file("again.svg"));
    command.replace(0, std::string("clusterlens-cli").size(), shellQuote(CLUSTERLENS_CLI));
    ASSERT_EQ(std::system((command + " >/dev/null").c_str()), 0) << command;
    EXPECT_EQ(svgBody(first), svgBody(file("again.svg")));
}

}  // namespace

}  // namespace clusterlens::test
