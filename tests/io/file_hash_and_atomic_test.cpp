// SHA-256 against the FIPS 180-4 / NIST example vectors, and atomic replacement of files.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/atomic_file.hpp"
#include "clusterlens/io/file_hash.hpp"

namespace clusterlens {
namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

fs::path freshFolder(const std::string& name) {
    const fs::path folder = fs::temp_directory_path() / ("clusterlens_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    return folder;
}

TEST(Sha256, MatchesTheStandardsExampleVectors) {
    EXPECT_EQ(sha256Hex("", 0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256Hex("abc", 3), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    EXPECT_EQ(sha256Hex(two.data(), two.size()), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const std::string million(1000000, 'a');
    EXPECT_EQ(sha256Hex(million.data(), million.size()),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, OfAFileEqualsOfItsBytesAcrossBlockBoundaries) {
    const fs::path folder = freshFolder("sha");
    std::string bytes;
    for (std::size_t i = 0; i < (std::size_t{1} << 20) + 77; ++i) bytes += static_cast<char>((i * 131) % 251);
    writeText((folder / "data.bin").string(), bytes);
    EXPECT_EQ(sha256File((folder / "data.bin").string()), sha256Hex(bytes.data(), bytes.size()));
    fs::remove_all(folder);
}

TEST(Sha256, OfAMissingFileNamesThePath) {
    try {
        sha256File("/nonexistent/clusterlens/missing.fcs");
        FAIL() << "no error";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("missing.fcs"), std::string::npos) << e.what();
    }
}

TEST(AtomicFile, ReplacesTheOldContentAndLeavesNoTemporary) {
    const fs::path folder = freshFolder("atomic_ok");
    const std::string path = (folder / "session.clusterlens").string();
    writeText(path, "old");
    writeFileAtomically(path, [](const std::string& temp) { writeText(temp, "new content"); });
    EXPECT_EQ(readAll(path), "new content");
    EXPECT_EQ(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 1);
    fs::remove_all(folder);
}

TEST(AtomicFile, AFailedWriteKeepsTheOldFileAndRemovesThePartialOne) {
    const fs::path folder = freshFolder("atomic_fail");
    const std::string path = (folder / "figure.pdf").string();
    writeText(path, "the user's figure");
    EXPECT_THROW(writeFileAtomically(path,
                                     [](const std::string& temp) {
                                         writeText(temp, "half of it");
                                         throw InvalidInput("disk full (injected)");
                                     }),
                 InvalidInput);
    EXPECT_EQ(readAll(path), "the user's figure");
    EXPECT_EQ(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 1);
    fs::remove_all(folder);
}

TEST(AtomicFile, AMissingFolderIsAClearErrorNamingThePath) {
    try {
        writeFileAtomically("/nonexistent/clusterlens/out.csv", [](const std::string& temp) { writeText(temp, "x"); });
        FAIL() << "no error";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("out.csv"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
    }
}

TEST(AtomicFile, AWriterThatCreatesNothingIsAnError) {
    const fs::path folder = freshFolder("atomic_none");
    EXPECT_THROW(writeFileAtomically((folder / "x.csv").string(), [](const std::string&) {}), InvalidInput);
    EXPECT_FALSE(fs::exists(folder / "x.csv"));
    fs::remove_all(folder);
}

}  // namespace
}  // namespace clusterlens
