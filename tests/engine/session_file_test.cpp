// Round trips of the session file: every object type, field by field, doubles bit for bit.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <random>

#include "clusterlens/errors.hpp"
#include "clusterlens/session/session_file.hpp"
#include "session_fixture.hpp"
#include "test_support.hpp"

namespace clusterlens {
namespace {

using test::TempDir;

Session roundTrip(const Session& session) {
    TempDir dir;
    const std::string path = dir.file("analysis.clusterlens");
    writeSession(path, session);
    return readSession(path);
}

TEST(SessionFile, RoundTripKeepsEveryObjectOfEveryKind) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    const Session session = test::richSession(seed);
    const Session back = roundTrip(session);
    EXPECT_EQ(test::sessionDifference(session, back), "");
    EXPECT_FALSE(back.appVersion.empty());
}

TEST(SessionFile, RoundTripOfAnEmptySession) {
    const Session back = roundTrip(Session{});
    EXPECT_EQ(test::sessionDifference(Session{}, back), "");
    EXPECT_EQ(back.data.n, 0u);
    EXPECT_TRUE(back.populations.empty());
}

TEST(SessionFile, RoundTripWithEmbeddedDataLargeEnoughToBeCompressed) {
    Session session = test::richSession(3);
    EmbeddedData embedded;
    embedded.features = session.data.features;
    for (std::size_t i = 0; i < session.data.n * session.data.d; ++i)
        embedded.values.push_back(static_cast<float>(i) * 0.1f - 3.0f);
    session.data.embedded = embedded;
    EXPECT_EQ(test::sessionDifference(session, roundTrip(session)), "");

    Session large;
    large.data.n = 50000;
    large.data.d = 2;
    large.data.features = {"x", "y"};
    large.data.embedded = EmbeddedData{std::vector<float>(100000, 1.25f), {"x", "y"}};
    large.data.embedded->values[77777] = -0.0f;
    std::vector<std::int32_t> labels(large.data.n);
    for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<std::int32_t>(i % 17);
    large.labelings.push_back({{"big", "", {}, "", "", {}}, labels, {}, {}});
    EXPECT_EQ(test::sessionDifference(large, roundTrip(large)), "");
}

TEST(SessionFile, NamesWithSlashesUnicodeAndEmptyTextsSurvive) {
    Session session = test::richSession(5);
    session.linkages[0].info.name = "/";
    session.linkages[0].info.description = "";
    session.labelings[0].info.name = "../../etc/passwd";
    session.comparisons[0].labelingA = "../../etc/passwd";
    session.populations[0].name = "日本語 / Ünïcødé 🧬";
    session.populations[1].parent = "日本語 / Ünïcødé 🧬";
    session.viewState = "";
    EXPECT_EQ(test::sessionDifference(session, roundTrip(session)), "");
}

TEST(SessionFile, SavingTwiceReplacesTheFile) {
    TempDir dir;
    const std::string path = dir.file("s.clusterlens");
    writeSession(path, test::richSession(1));
    Session second = test::richSession(2);
    second.populations.pop_back();
    writeSession(path, second);
    EXPECT_EQ(test::sessionDifference(second, readSession(path)), "");
}

TEST(SessionFile, AnInvalidSessionIsNotWritten) {
    TempDir dir;
    const std::string path = dir.file("s.clusterlens");
    Session session = test::richSession(1);
    session.populations[1].members.push_back(39);  // outside its parent
    EXPECT_THROW(writeSession(path, session), InvalidInput);
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(SessionFile, SaveIntoAnUnwritableFolderThrowsAndKeepsTheOldFile) {
    TempDir dir;
    const std::filesystem::path folder = dir.path() / "locked";
    std::filesystem::create_directory(folder);
    const std::string path = (folder / "s.clusterlens").string();
    writeSession(path, test::richSession(1));
    const std::string before = test::readFile(path);
    std::filesystem::permissions(folder, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    if (::access(folder.c_str(), W_OK) == 0) {
        std::filesystem::permissions(folder, std::filesystem::perms::owner_all);
        GTEST_SKIP() << "running as root: the folder stays writable";
    }
    EXPECT_THROW(writeSession(path, test::richSession(2)), InvalidInput);
    std::filesystem::permissions(folder, std::filesystem::perms::owner_all);
    EXPECT_EQ(test::readFile(path), before);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder), std::filesystem::directory_iterator()), 1);
}

TEST(SessionFile, SaveOntoAFullDiskThrowsAndKeepsTheOldFile) {
    TempDir dir;
    const std::string path = dir.file("s.clusterlens");
    writeSession(path, test::richSession(1));
    const std::string before = test::readFile(path);
    Session large = test::richSession(2);
    large.data.embedded = EmbeddedData{std::vector<float>(large.data.n * large.data.d, 0.0f), large.data.features};
    for (std::size_t i = 0; i < large.data.embedded->values.size(); ++i)
        large.data.embedded->values[i] = static_cast<float>(i);
    std::mt19937_64 rng(1);
    for (int i = 0; i < (1 << 20); ++i) large.viewState += static_cast<char>('a' + rng() % 26);  // incompressible
    bool threw = false;
    try {
        const test::FileSizeLimit fullDisk(64 * 1024);
        writeSession(path, large);
    } catch (const InvalidInput&) {
        threw = true;
    }
    EXPECT_TRUE(threw);
    EXPECT_EQ(test::readFile(path), before);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1);
}

TEST(SessionFile, SaveIntoAMissingFolderThrowsNamingTheFile) {
    TempDir dir;
    const std::string path = dir.file("no/such/folder/s.clusterlens");
    try {
        writeSession(path, test::richSession(1));
        FAIL() << "expected InvalidInput";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
}

TEST(SessionFile, LooksLikeSessionTellsSessionsFromOtherFiles) {
    TempDir dir;
    writeSession(dir.file("s.clusterlens"), Session{});
    test::writeFile(dir.file("t.csv"), "a,b\n1,2\n");
    EXPECT_TRUE(looksLikeSession(dir.file("s.clusterlens")));
    EXPECT_FALSE(looksLikeSession(dir.file("t.csv")));
    EXPECT_FALSE(looksLikeSession(dir.file("missing")));
}

}  // namespace
}  // namespace clusterlens
