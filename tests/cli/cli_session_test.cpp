// The CLI session contract (DESIGN.md "Sessions"): results stored with --session come back byte for
// byte through `session get`; runs on a population keep whole-dataset indices; other data and damaged
// sessions are refused with exit 3 and leave the session file as it was.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <sstream>

#include "cli_runner.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/transforms.hpp"
#include "clusterlens/session/members_csv.hpp"

namespace clusterlens {
namespace {

using test::runCli;
using test::TempDir;

constexpr std::size_t kEvents = 90;

/// Three blobs of 30 events in 3 features, written as CSV; `shift` changes one value (another file).
std::string writeBlobs(const TempDir& dir, const std::string& name, double shift = 0.0) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0.0, 0.6);
    std::ostringstream csv;
    csv.precision(10);
    csv << "CD3,CD4,CD8\n";
    for (std::size_t i = 0; i < kEvents; ++i) {
        const double c = static_cast<double>(i % 3);
        csv << 4 * c + noise(rng) + (i == 0 ? shift : 0.0) << "," << 2 * c + noise(rng) << "," << noise(rng) << "\n";
    }
    const std::string path = dir.file(name);
    test::writeFile(path, csv.str());
    return path;
}

/// Runs the CLI and fails the test (printing stderr) unless it exits with `code`.
test::CliResult expectExit(int code, const std::vector<std::string>& args) {
    test::CliResult result = runCli(args);
    EXPECT_EQ(result.exitCode, code) << args[0] << ": " << result.err;
    return result;
}

std::vector<std::vector<std::string>> csvRows(const std::string& path) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(test::readFile(path));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::istringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
        rows.push_back(fields);
    }
    return rows;
}

/// A data file and a session holding k-means k=3 (seed 1) of it, in `dir`.
struct Started {
    std::string data;
    std::string session;
};
Started startSession(const TempDir& dir) {
    Started started{writeBlobs(dir, "blobs.csv"), dir.file("s.clusterlens")};
    expectExit(0, {"kmeans", started.data, "-k", "3", "--labels-out", dir.file("k.csv"), "--session", started.session,
                   "--backend", "cpu"});
    return started;
}

TEST(CliSession, StoredResultsComeBackByteIdentical) {
    TempDir dir;
    const std::string data = writeBlobs(dir, "blobs.csv");
    const std::string session = dir.file("work.clusterlens");
    const std::vector<std::string> common = {"--backend", "cpu", "--session", session};
    auto run = [&](std::vector<std::string> args) {
        args.insert(args.end(), common.begin(), common.end());
        expectExit(0, args);
    };
    run({"kmeans", data, "-k", "3", "--labels-out", dir.file("k.csv")});
    run({"hca", data, "--variant", "centroid", "--out", dir.file("mhca.csv")});
    run({"hca", data, "--linkage", "ward", "--out", dir.file("ward.csv"), "--name", "ward / Ω"});
    run({"dpc", data, "--peaks-top", "3", "--out", dir.file("dpc.csv"), "--labels-out", dir.file("dpc-labels.csv")});
    run({"vat", data, "--out", dir.file("order.csv"), "--cut-k", "3", "--labels-out", dir.file("vat-labels.csv")});

    const std::vector<std::pair<std::vector<std::string>, std::string>> gets = {
        {{"--labeling", "k-means k=3 seed 1"}, "k.csv"},
        {{"--linkage", "MHCA centroid t=0.5"}, "mhca.csv"},
        {{"--linkage", "ward / Ω"}, "ward.csv"},
        {{"--dpc", "DPC dc=2% gaussian"}, "dpc.csv"},
        {{"--labeling", "DPC dc=2% gaussian"}, "dpc-labels.csv"},
        {{"--vat", "VAT euclidean"}, "order.csv"},
        {{"--labeling", "VAT euclidean"}, "vat-labels.csv"},
    };
    for (const auto& [what, original] : gets) {
        const std::string back = dir.file("back-" + original);
        expectExit(0, {"session", "get", session, what[0], what[1], "--out", back});
        EXPECT_EQ(test::readFile(back), test::readFile(dir.file(original))) << what[0] << " " << what[1];
    }
}

TEST(CliSession, InfoJsonListsEveryKindWithTheContractKeys) {
    TempDir dir;
    const auto [data, session] = startSession(dir);
    expectExit(
        0, {"population", "add", session, "--name", "first", "--labeling", "k-means k=3 seed 1", "--clusters", "0"});
    const std::string json = expectExit(0, {"session", "info", session, "--json"}).out;
    for (const char* key :
         {"\"version\":1", "\"data\":{\"path\":", "\"n\":90", "\"d\":3", "\"sha256\":\"", "\"embedded\":false",
          "\"linkages\":[]", "\"labelings\":[{\"name\":\"k-means k=3 seed 1\"", "\"dpc\":[]", "\"vat\":[]",
          "\"populations\":[{\"name\":\"first\",\"parent\":\"\",\"count\":30"})
        EXPECT_NE(json.find(key), std::string::npos) << key << " in " << json;
}

TEST(CliSession, APopulationRunKeepsWholeDatasetIndices) {
    TempDir dir;
    const std::string data = writeBlobs(dir, "blobs.csv");
    const std::string session = dir.file("s.clusterlens");
    std::vector<std::int64_t> members;
    for (std::int64_t i = 1; i < static_cast<std::int64_t>(kEvents); i += 2) members.push_back(i);
    writeMembersCsv(dir.file("odd.csv"), members);
    expectExit(
        0, {"kmeans", data, "-k", "2", "--labels-out", dir.file("all.csv"), "--session", session, "--backend", "cpu"});
    expectExit(0, {"population", "add", session, "--name", "odd events", "--indices", dir.file("odd.csv")});
    const std::vector<std::string> on = {"--session", session, "--population", "odd events", "--backend", "cpu"};
    auto run = [&](std::vector<std::string> args) {
        args.insert(args.end(), on.begin(), on.end());
        expectExit(0, args);
    };
    run({"kmeans", data, "-k", "3", "--labels-out", dir.file("k.csv")});
    run({"dpc", data, "--peaks-top", "3", "--out", dir.file("dpc.csv"), "--labels-out", dir.file("dl.csv")});
    run({"vat", data, "--out", dir.file("order.csv")});
    run({"hca", data, "--linkage", "average", "--out", dir.file("l.csv")});

    for (const char* labelsFile : {"k.csv", "dl.csv"}) {
        const std::vector<std::int32_t> labels = readLabels(dir.file(labelsFile), kEvents);
        for (std::size_t i = 0; i < kEvents; ++i) EXPECT_EQ(labels[i] >= 0, i % 2 == 1) << labelsFile << " event " << i;
    }
    const auto dpc = csvRows(dir.file("dpc.csv"));
    ASSERT_EQ(dpc.size(), members.size());
    for (std::size_t k = 0; k < dpc.size(); ++k) {
        EXPECT_EQ(std::stoll(dpc[k][0]), members[k]);
        const long long higher = std::stoll(dpc[k][3]);
        EXPECT_TRUE(higher == -1 || std::binary_search(members.begin(), members.end(), higher)) << higher;
    }
    std::vector<std::int64_t> ordered;
    for (const auto& row : csvRows(dir.file("order.csv"))) ordered.push_back(std::stoll(row[1]));
    std::sort(ordered.begin(), ordered.end());
    EXPECT_EQ(ordered, members);
    EXPECT_EQ(csvRows(dir.file("l.csv")).size(), members.size() - 1);  // scipy convention over the members
    expectExit(0, {"heights", dir.file("l.csv"), "--out", dir.file("h-leaves.csv")});
    expectExit(
        0, {"heights", "--session", session, "--linkage", "average linkage on odd events", "--out", dir.file("h.csv")});
    const auto byLeaf = csvRows(dir.file("h-leaves.csv")), byEvent = csvRows(dir.file("h.csv"));
    ASSERT_EQ(byEvent.size(), members.size());
    for (std::size_t k = 0; k < members.size(); ++k) {
        EXPECT_EQ(std::stoll(byEvent[k][0]), members[k]);
        EXPECT_EQ(byEvent[k][1], byLeaf[k][1]);
    }
    expectExit(0, {"session", "get", session, "--population", "odd events", "--out", dir.file("back.csv")});
    EXPECT_EQ(test::readFile(dir.file("back.csv")), test::readFile(dir.file("odd.csv")));
    // `session get` writes the population's DPC.csv and ORDER.csv with the same whole-dataset indices.
    const std::vector<std::array<std::string, 3>> stored = {{"--dpc", "DPC dc=2% gaussian on odd events", "dpc.csv"},
                                                            {"--vat", "VAT euclidean on odd events", "order.csv"}};
    for (const auto& [kind, name, original] : stored) {
        const std::string back = dir.file("back-" + original);
        expectExit(0, {"session", "get", session, kind, name, "--out", back});
        EXPECT_EQ(test::readFile(back), test::readFile(dir.file(original))) << kind;
    }
    const std::string json = expectExit(0, {"session", "info", session, "--json"}).out;
    EXPECT_NE(json.find("\"name\":\"average linkage on odd events\""), std::string::npos) << json;
}

TEST(CliSession, AnotherDataFileIsRefusedAndTheSessionIsUnchanged) {
    TempDir dir;
    const std::string data = writeBlobs(dir, "blobs.csv");
    const std::string other = writeBlobs(dir, "other.csv", 0.5);
    const std::string session = dir.file("s.clusterlens");
    expectExit(
        0, {"kmeans", data, "-k", "3", "--labels-out", dir.file("k.csv"), "--session", session, "--backend", "cpu"});
    const std::string before = test::readFile(session);
    const auto refused =
        expectExit(3, {"kmeans", other, "-k", "2", "--labels-out", dir.file("k2.csv"), "--session", session});
    EXPECT_NE(refused.err.find("not the data file of this session"), std::string::npos) << refused.err;
    EXPECT_EQ(test::readFile(session), before);
    const auto subsampled = expectExit(
        3, {"kmeans", data, "-k", "2", "--subsample", "50", "--labels-out", dir.file("k3.csv"), "--session", session});
    EXPECT_NE(subsampled.err.find("--subsample"), std::string::npos) << subsampled.err;
    EXPECT_EQ(test::readFile(session), before);
}

TEST(CliSession, ADamagedSessionIsRefusedAndUnchanged) {
    TempDir dir;
    const auto [data, session] = startSession(dir);
    std::string bytes = test::readFile(session);
    bytes.resize(bytes.size() - 100);
    test::writeFile(session, bytes);
    const auto refused =
        expectExit(3, {"hca", data, "--linkage", "single", "--out", dir.file("l.csv"), "--session", session});
    EXPECT_NE(refused.err.find("damaged"), std::string::npos) << refused.err;
    expectExit(3, {"session", "info", session});
    expectExit(3, {"population", "add", session, "--name", "p", "--labeling", "k-means k=3 seed 1", "--clusters", "1"});
    EXPECT_EQ(test::readFile(session), bytes);
    test::writeFile(dir.file("foreign.clusterlens"), "index,label\n0,1\n");
    expectExit(3, {"kmeans", data, "-k", "2", "--labels-out", dir.file("k.csv"), "--session",
                   dir.file("foreign.clusterlens")});
    EXPECT_EQ(test::readFile(dir.file("foreign.clusterlens")), "index,label\n0,1\n");
}

TEST(CliSession, AChildOutsideItsParentIsRefused) {
    TempDir dir;
    const auto [data, session] = startSession(dir);
    expectExit(0,
               {"population", "add", session, "--name", "A", "--labeling", "k-means k=3 seed 1", "--clusters", "0,1"});
    expectExit(0, {"population", "add", session, "--name", "A1", "--parent", "A", "--labeling", "k-means k=3 seed 1",
                   "--clusters", "1"});
    const std::string before = test::readFile(session);
    const auto refused = expectExit(3, {"population", "add", session, "--name", "B", "--parent", "A", "--labeling",
                                        "k-means k=3 seed 1", "--clusters", "2"});
    EXPECT_NE(refused.err.find("outside its parent 'A'"), std::string::npos) << refused.err;
    EXPECT_EQ(test::readFile(session), before);
}

TEST(CliSession, ASecondRunWithTheSameNameReplacesTheResult) {
    TempDir dir;
    const std::string data = writeBlobs(dir, "blobs.csv");
    const std::string session = dir.file("s.clusterlens");
    for (const char* seed : {"1", "2"})
        expectExit(0, {"kmeans", data, "-k", "3", "--seed", seed, "--name", "clusters", "--labels-out",
                       dir.file(std::string("k") + seed + ".csv"), "--session", session, "--backend", "cpu"});
    const std::string json = expectExit(0, {"session", "info", session, "--json"}).out;
    EXPECT_EQ(json.find("\"name\":\"clusters\""), json.rfind("\"name\":\"clusters\"")) << json;
    expectExit(0, {"session", "get", session, "--labeling", "clusters", "--out", dir.file("back.csv")});
    EXPECT_EQ(test::readFile(dir.file("back.csv")), test::readFile(dir.file("k2.csv")));
}

TEST(CliSession, PopulationAndNameNeedASession) {
    TempDir dir;
    const std::string data = writeBlobs(dir, "blobs.csv");
    expectExit(2, {"kmeans", data, "-k", "3", "--labels-out", dir.file("k.csv"), "--population", "x"});
    expectExit(2, {"kmeans", data, "-k", "3", "--labels-out", dir.file("k.csv"), "--name", "x"});
    expectExit(3, {"session", "get", dir.file("missing.clusterlens"), "--linkage", "x", "--out", dir.file("o.csv")});
}

TEST(CliSession, ExportWritesExactlyThePopulationsEvents) {
    TempDir dir;
    const auto [data, session] = startSession(dir);
    expectExit(0, {"population", "add", session, "--name", "B", "--labeling", "k-means k=3 seed 1", "--clusters", "1"});
    expectExit(0, {"session", "get", session, "--population", "B", "--out", dir.file("b.csv")});
    const std::vector<std::int64_t> members = readMembersCsv(dir.file("b.csv"), kEvents);
    const Dataset source = readDataset(data);
    for (const char* out : {"b-events.csv", "b-events.fcs"}) {
        expectExit(0, {"export", data, "--session", session, "--population", "B", "--out", dir.file(out)});
        const Dataset written = readDataset(dir.file(out));
        ASSERT_EQ(written.n, members.size()) << out;
        for (std::size_t k = 0; k < members.size(); ++k)
            for (std::size_t j = 0; j < source.d; ++j)
                EXPECT_EQ(written.at(k, j), source.at(static_cast<std::size_t>(members[k]), j)) << out << " row " << k;
    }
    expectExit(
        0, {"export", data, "--session", session, "--population", "B", "--all-events", "--out", dir.file("all.csv")});
    const Dataset all = readDataset(dir.file("all.csv"));
    ASSERT_EQ(all.n, kEvents);
    ASSERT_EQ(all.d, source.d + 1);
    for (std::size_t i = 0; i < kEvents; ++i)
        EXPECT_EQ(all.at(i, source.d),
                  std::binary_search(members.begin(), members.end(), static_cast<std::int64_t>(i)) ? 1.0f : 0.0f);
}

TEST(CliSession, ExportMapsTheSessionsSubsampleBackToTheFilesEvents) {
    TempDir dir;
    const std::string data = writeBlobs(dir, "blobs.csv");
    const std::string session = dir.file("s.clusterlens");
    expectExit(0, {"kmeans", data, "-k", "2", "--subsample", "40", "--seed", "3", "--labels-out", dir.file("k.csv"),
                   "--session", session, "--backend", "cpu"});
    writeMembersCsv(dir.file("m.csv"), {0, 5, 39});
    expectExit(0, {"population", "add", session, "--name", "three", "--indices", dir.file("m.csv")});
    expectExit(0, {"export", data, "--session", session, "--population", "three", "--out", dir.file("three.csv")});
    const Dataset source = readDataset(data);
    const std::vector<std::size_t> kept = subsampleIndices(kEvents, 40, 3);
    const Dataset written = readDataset(dir.file("three.csv"));
    ASSERT_EQ(written.n, 3u);
    const std::size_t positions[] = {0, 5, 39};
    for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(written.at(k, 0), source.at(kept[positions[k]], 0));
    expectExit(2, {"export", data, "--session", session, "--subsample", "40", "--out", dir.file("x.csv")});
    expectExit(2, {"export", data, "--population", "three", "--out", dir.file("x.csv")});
    expectExit(3, {"export", writeBlobs(dir, "other.csv", 1.0), "--session", session, "--out", dir.file("x.csv")});
}

}  // namespace
}  // namespace clusterlens
