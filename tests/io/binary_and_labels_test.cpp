#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::HasSubstr;

namespace {

std::string thesisBinary(std::uint64_t d, std::uint64_t n, const std::vector<double>& values) {
    std::string bytes(16 + values.size() * 8, '\0');
    std::memcpy(bytes.data(), &d, 8);
    std::memcpy(bytes.data() + 8, &n, 8);
    if (!values.empty()) std::memcpy(bytes.data() + 16, values.data(), values.size() * 8);
    return bytes;
}

}  // namespace

TEST(ThesisBinary, ReadsRowMajorDoubles) {
    TempDir dir;
    writeFile(dir.file("x.bin"), thesisBinary(3, 2, {1.25, -2, 3, 4, 5.5, 1e-300}));
    Dataset data = readDataset(dir.file("x.bin"));
    EXPECT_EQ(data.n, 2u);
    EXPECT_EQ(data.d, 3u);
    EXPECT_EQ(data.exact, (std::vector<double>{1.25, -2, 3, 4, 5.5, 1e-300}));
    EXPECT_EQ(data.at(1, 1), 5.5f);
    EXPECT_EQ(data.provenance.format, "bin");
}

TEST(ThesisBinary, RejectsTruncatedAndTrailingBytes) {
    TempDir dir;
    std::string full = thesisBinary(2, 3, {1, 2, 3, 4, 5, 6});
    writeFile(dir.file("cut.bin"), full.substr(0, full.size() - 4));
    EXPECT_THROW(
        {
            try {
                readDataset(dir.file("cut.bin"));
            } catch (const InvalidInput& e) {
                EXPECT_THAT(e.what(), AllOf(HasSubstr("cut.bin"), HasSubstr("truncated")));
                throw;
            }
        },
        InvalidInput);
    writeFile(dir.file("long.bin"), full + "xx");
    EXPECT_THROW(readDataset(dir.file("long.bin")), InvalidInput);
    writeFile(dir.file("short.bin"), "abc");
    EXPECT_THROW(readDataset(dir.file("short.bin")), InvalidInput);
    writeFile(dir.file("zero.bin"), thesisBinary(0, 3, {}));
    EXPECT_THROW(readDataset(dir.file("zero.bin")), InvalidInput);
}

TEST(AprioriGroups, ReadsReferenceGroupsAndChecksLength) {
    auto groups = readLabels(test::dataPath("reference/mhca/mix2000.apriori.txt"), 2000);
    ASSERT_EQ(groups.size(), 2000u);
    EXPECT_EQ(groups[0], 39);
    EXPECT_EQ(groups[1], 10);
    try {
        readLabels(test::dataPath("reference/mhca/mix2000.apriori.txt"), 1999);
        FAIL() << "length mismatch accepted";
    } catch (const InvalidInput& e) {
        EXPECT_THAT(e.what(), AllOf(HasSubstr("2000 group ids"), HasSubstr("1999 points")));
    }
}

TEST(AprioriGroups, RejectsNonIntegers) {
    TempDir dir;
    writeFile(dir.file("g.txt"), "1\n2\nx3\n");
    try {
        readLabels(dir.file("g.txt"));
        FAIL();
    } catch (const InvalidInput& e) {
        EXPECT_THAT(e.what(), AllOf(HasSubstr("g.txt"), HasSubstr("line 3"), HasSubstr("'x3'")));
    }
    writeFile(dir.file("labels.csv"), "index,label\n0,4\n1,-1\n");
    EXPECT_EQ(readLabels(dir.file("labels.csv")), (std::vector<std::int32_t>{4, -1}));
}

TEST(CsvWriter, RoundTripsValuesNamesAndLabels) {
    TempDir dir;
    Dataset data;
    data.n = 3;
    data.d = 2;
    data.features = {"CD4, naive", "x\"y"};
    data.values = {1.0f / 3.0f, -2.5e-8f, 1e30f, 7.0f, 0.1f, -0.0f};
    ExportSelection selection;
    selection.channels.push_back({"cluster", ChannelKind::ClusterIds, {2, -1, 0}});
    writeCsv(dir.file("out.csv"), data, selection);
    ReadOptions options;
    options.labelColumn = "cluster";
    Dataset back = readDataset(dir.file("out.csv"), options);
    EXPECT_EQ(back.features, data.features);
    EXPECT_EQ(back.values, data.values);
    EXPECT_EQ(back.labels, (std::vector<std::int32_t>{2, -1, 0}));
}
