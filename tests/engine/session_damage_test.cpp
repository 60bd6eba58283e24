// Refusal of files that are not sessions, newer sessions and damaged sessions: always InvalidInput,
// never a crash, and the file is never modified by a failed open.

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/file_hash.hpp"
#include "clusterlens/session/session_file.hpp"
#include "session_fixture.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_TEST_HDF5
#include <hdf5.h>
#endif

namespace clusterlens {
namespace {

using test::TempDir;

constexpr std::size_t kHeaderBytes = 512;

/// The message of the InvalidInput that reading `path` throws ("" when it does not throw).
std::string refusal(const std::string& path) {
    try {
        readSession(path);
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "";
}

/// Rewrites the documented header (docs/session-format.md) for the file's current bytes, as a writer
/// of SCHEMA would: the way to make a consistent file with chosen content.
void reseal(const std::string& path, int schema) {
    std::string bytes = test::readFile(path);
    std::string header = "clusterlens-session\nschema " + std::to_string(schema) + "\napp 99.0\nbytes " +
                         std::to_string(bytes.size()) + "\nsha256 " +
                         sha256Hex(bytes.data() + kHeaderBytes, bytes.size() - kHeaderBytes) + "\n";
    header.resize(kHeaderBytes, '\0');
    bytes.replace(0, kHeaderBytes, header);
    test::writeFile(path, bytes);
}

TEST(SessionRefusal, ANonHdf5FileIsRefusedAsNotASession) {
    TempDir dir;
    test::writeFile(dir.file("x.clusterlens"), "index,label\n0,1\n");
    const std::string message = refusal(dir.file("x.clusterlens"));
    EXPECT_NE(message.find("x.clusterlens"), std::string::npos) << message;
    EXPECT_NE(message.find("not an HDF5 file"), std::string::npos) << message;
}

TEST(SessionRefusal, AMissingFileIsRefused) {
    TempDir dir;
    EXPECT_NE(refusal(dir.file("none.clusterlens")).find("cannot open"), std::string::npos);
}

TEST(SessionRefusal, ANewerSchemaVersionIsRefusedAndNamed) {
    TempDir dir;
    const std::string path = dir.file("new.clusterlens");
    writeSession(path, test::richSession(1));
    reseal(path, kSessionSchemaVersion + 1);
    const std::string before = test::readFile(path);
    const std::string message = refusal(path);
    EXPECT_NE(message.find("newer"), std::string::npos) << message;
    EXPECT_NE(message.find("schema " + std::to_string(kSessionSchemaVersion + 1)), std::string::npos) << message;
    EXPECT_EQ(test::readFile(path), before);
}

TEST(SessionRefusal, TheDocumentedHeaderIsWhatTheWriterWrites) {
    TempDir dir;
    const std::string path = dir.file("s.clusterlens");
    writeSession(path, test::richSession(1));
    reseal(path, kSessionSchemaVersion);
    EXPECT_EQ(test::sessionDifference(test::richSession(1), readSession(path)), "");
}

TEST(SessionRefusal, TruncationsAndFlippedBytesAreRefusedOrReadConsistently) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    TempDir dir;
    const std::string good = dir.file("good.clusterlens");
    const Session original = test::richSession(seed);
    writeSession(good, original);
    const std::string bytes = test::readFile(good);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> offset(0, bytes.size() - 1);
    std::uniform_int_distribution<int> bit(0, 7);
    const std::string path = dir.file("damaged.clusterlens");
    std::size_t refused = 0;
    for (int trial = 0; trial < 400; ++trial) {
        std::string damaged = bytes;
        const std::size_t at = offset(rng);
        if (trial % 2 == 0)
            damaged.resize(at);
        else
            damaged[at] = static_cast<char>(damaged[at] ^ (1 << bit(rng)));
        test::writeFile(path, damaged);
        try {
            const Session back = readSession(path);
            EXPECT_EQ(test::sessionDifference(original, back), "");  // only a change that means nothing may be accepted
        } catch (const InvalidInput&) {
            ++refused;
        }
        ASSERT_EQ(test::readFile(path), damaged) << "trial " << trial << " modified the file";
    }
    EXPECT_GE(refused, 390u);
}

#ifdef CLUSTERLENS_TEST_HDF5

/// Applies `edit` to the HDF5 part of a valid session file, then reseals it.
template <typename Edit>
void editHdf5(const std::string& path, Edit edit) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    edit(file);
    H5Fclose(file);
    reseal(path, kSessionSchemaVersion);
}

TEST(SessionRefusal, AForeignHdf5FileIsRefusedAsNotASession) {
    TempDir dir;
    const std::string path = dir.file("foreign.h5");
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hsize_t dims = 3;
    const hid_t space = H5Screate_simple(1, &dims, nullptr);
    const double values[3] = {1, 2, 3};
    const hid_t dataset = H5Dcreate2(file, "X", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
    H5Dclose(dataset);
    H5Sclose(space);
    H5Fclose(file);
    const std::string before = test::readFile(path);
    const std::string message = refusal(path);
    EXPECT_NE(message.find("HDF5 file but not a ClusterLens session"), std::string::npos) << message;
    EXPECT_EQ(test::readFile(path), before);
}

TEST(SessionRefusal, AMissingDatasetIsRefusedByName) {
    TempDir dir;
    const std::string path = dir.file("s.clusterlens");
    writeSession(path, test::richSession(1));
    editHdf5(path, [](hid_t file) { H5Ldelete(file, "/dpc/0/rho", H5P_DEFAULT); });
    const std::string message = refusal(path);
    EXPECT_NE(message.find("/dpc/0/rho"), std::string::npos) << message;
    EXPECT_NE(message.find("damaged"), std::string::npos) << message;
}

/// Overwrites the first element of an int64 dataset.
void setFirst(hid_t file, const char* object, std::int64_t value) {
    const hid_t dataset = H5Dopen2(file, object, H5P_DEFAULT);
    const hid_t space = H5Dget_space(dataset);
    const hsize_t start = 0, count = 1;
    H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, nullptr, &count, nullptr);
    const hid_t memory = H5Screate_simple(1, &count, nullptr);
    H5Dwrite(dataset, H5T_NATIVE_INT64, memory, space, H5P_DEFAULT, &value);
    H5Sclose(memory);
    H5Sclose(space);
    H5Dclose(dataset);
}

TEST(SessionRefusal, OutOfRangeIndicesAreRefused) {
    TempDir dir;
    const std::string path = dir.file("s.clusterlens");
    writeSession(path, test::richSession(1));
    editHdf5(path, [](hid_t file) { setFirst(file, "/vat/0/order", 40); });
    EXPECT_NE(refusal(path).find("VAT result 'VAT euclidean'"), std::string::npos) << refusal(path);
    writeSession(path, test::richSession(1));
    editHdf5(path, [](hid_t file) { setFirst(file, "/populations/1/members", 0); });
    EXPECT_NE(refusal(path).find("outside its parent"), std::string::npos) << refusal(path);
}

TEST(SessionRefusal, ArraysThatDisagreeWithTheEventCountAreRefused) {
    TempDir dir;
    const std::string path = dir.file("s.clusterlens");
    Session session = test::richSession(1);
    writeSession(path, session);
    editHdf5(path, [](hid_t file) {
        const hid_t group = H5Gopen2(file, "/data", H5P_DEFAULT);
        const hid_t attribute = H5Aopen(group, "n", H5P_DEFAULT);
        const std::int64_t n = 41;
        ASSERT_GE(H5Awrite(attribute, H5T_NATIVE_INT64, &n), 0);
        H5Aclose(attribute);
        H5Gclose(group);
    });
    const std::string message = refusal(path);
    EXPECT_NE(message.find("damaged"), std::string::npos) << message;
    EXPECT_NE(message.find("41"), std::string::npos) << message;
}

#endif  // CLUSTERLENS_TEST_HDF5

}  // namespace
}  // namespace clusterlens
