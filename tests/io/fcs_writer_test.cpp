#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::readFile;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::AllOf;
using testing::HasSubstr;

namespace {

Dataset smallDataset(std::vector<std::string> names) {
    Dataset data;
    data.d = names.size();
    data.features = std::move(names);
    const std::vector<float> pool = {
        1.5f, -2.25f, 0.0f,    -0.0f, 1e-42f, 3.4e38f, 123456.789f, 0.1f, std::numeric_limits<float>::quiet_NaN(),
        7.f,  -1e-7f, 262143.f};
    data.n = pool.size();
    for (std::size_t i = 0; i < data.n; ++i)
        for (std::size_t j = 0; j < data.d; ++j) data.values.push_back(pool[(i * 5 + j) % pool.size()]);
    return data;
}

std::vector<std::uint32_t> bits(const std::vector<float>& values) {
    std::vector<std::uint32_t> out;
    for (float v : values) out.push_back(std::bit_cast<std::uint32_t>(v));
    return out;
}

/// Values of column j, as bit patterns.
std::vector<std::uint32_t> columnBits(const Dataset& data, std::size_t j) {
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < data.n; ++i) out.push_back(std::bit_cast<std::uint32_t>(data.at(i, j)));
    return out;
}

/// A selection writing every event with one cluster-id channel.
ExportSelection withClusters(std::vector<std::int32_t> ids, const std::string& name = "ClusterLens_cluster") {
    ExportSelection selection;
    selection.channels.push_back({name, ChannelKind::ClusterIds, std::move(ids)});
    return selection;
}

}  // namespace

TEST(FcsWriter, RoundTripIsBitExactWithSlashesInNamesAndClusterIdsShiftedByOne) {
    TempDir dir;
    Dataset data = smallDataset({"CD4/CD8", "FSC-A", "tail/", "x//y"});
    data.descriptions = {"helper / killer", "", "", "double"};
    std::vector<std::int32_t> ids;
    for (std::size_t i = 0; i < data.n; ++i) ids.push_back(static_cast<std::int32_t>(i % 3) - 1);
    writeFcs(dir.file("out.fcs"), data, withClusters(ids, "cluster"));

    const std::string bytes = readFile(dir.file("out.fcs"));
    EXPECT_EQ(bytes.substr(0, 10), "FCS3.1    ");
    EXPECT_THAT(bytes, HasSubstr("/$P1N/CD4//CD8/"));
    EXPECT_THAT(bytes, HasSubstr("/$BYTEORD/1,2,3,4/$DATATYPE/F/$MODE/L/$PAR/5/$TOT/12/"));

    const Dataset back = readFcs(dir.file("out.fcs"));
    EXPECT_TRUE(back.warnings.empty()) << back.warnings.front();
    ASSERT_EQ(back.n, data.n);
    ASSERT_EQ(back.d, 5u);
    EXPECT_EQ(back.features, (std::vector<std::string>{"CD4/CD8", "FSC-A", "tail/", "x//y", "cluster"}));
    EXPECT_EQ(back.descriptions,
              (std::vector<std::string>{"helper / killer", "", "", "double", "cluster id + 1 (0 = noise)"}));
    for (std::size_t j = 0; j < data.d; ++j) {
        std::vector<std::uint32_t> expected;
        for (std::size_t i = 0; i < data.n; ++i) expected.push_back(std::bit_cast<std::uint32_t>(data.at(i, j)));
        EXPECT_EQ(columnBits(back, j), expected) << "column " << j;
    }
    // FlowJo gates need non-negative values: noise (-1) is 0, cluster c is c + 1.
    for (std::size_t i = 0; i < data.n; ++i) EXPECT_EQ(back.at(i, 4), static_cast<float>(ids[i] + 1));
    EXPECT_THAT(back.provenance.detail, HasSubstr("FCS 3.1, $DATATYPE F, $BYTEORD 1,2,3,4"));
}

TEST(FcsWriter, NameStartingWithSlashStillRoundTrips) {
    TempDir dir;
    const Dataset data = smallDataset({"/leading", "b"});
    writeFcs(dir.file("lead.fcs"), data);
    const Dataset back = readFcs(dir.file("lead.fcs"));
    EXPECT_EQ(back.features, data.features);
    EXPECT_EQ(bits(back.values), bits(data.values));
    EXPECT_TRUE(back.descriptions.empty());
}

TEST(FcsWriter, WritesRangesRoundedUpAndAtLeastOne) {
    TempDir dir;
    Dataset data;
    data.n = 2;
    data.d = 3;
    data.features = {"a", "b", "c"};
    data.values = {4.2f, -3.f, 0.25f, 1023.f, -7.f, 0.5f};
    writeFcs(dir.file("r.fcs"), data, withClusters({0, 9}));
    const std::string bytes = readFile(dir.file("r.fcs"));
    EXPECT_THAT(bytes, HasSubstr("/$P1R/1023/"));
    EXPECT_THAT(bytes, HasSubstr("/$P2R/1/"));
    EXPECT_THAT(bytes, HasSubstr("/$P3R/1/"));
    // Cluster ids 0 and 9 are written as 1 and 10: the range covers 0..10.
    EXPECT_THAT(bytes,
                HasSubstr("/$P4N/ClusterLens_cluster/$P4S/cluster id + 1 (0 = noise)/$P4B/32/$P4E/0,0/$P4R/11/"));
}

TEST(FcsWriter, DataOffsetsAgreeWithTheHeaderForManyTextLengths) {
    TempDir dir;
    // Growing TEXT pushes $BEGINDATA across digit boundaries (e.g. 999 -> 1000), which changes the
    // TEXT length again; every layout must read back without an offset warning.
    for (std::size_t d = 1; d <= 40; ++d) {
        Dataset data;
        data.n = 3;
        data.d = d;
        for (std::size_t j = 0; j < d; ++j) data.features.push_back("marker" + std::to_string(j));
        for (std::size_t k = 0; k < data.n * d; ++k) data.values.push_back(static_cast<float>(k));
        writeFcs(dir.file("w.fcs"), data);
        const Dataset back = readFcs(dir.file("w.fcs"));
        EXPECT_TRUE(back.warnings.empty()) << "d = " << d << ": " << back.warnings.front();
        EXPECT_EQ(back.values, data.values) << "d = " << d;
    }
}

TEST(FcsWriter, AriaFile1RoundTrip) {
    TempDir dir;
    const Dataset original = readFcs(dataPath("fcs/AriaFile1.fcs"));
    writeFcs(dir.file("aria.fcs"), original);
    const Dataset back = readDataset(dir.file("aria.fcs"));
    EXPECT_TRUE(back.warnings.empty());
    EXPECT_EQ(back.n, original.n);
    EXPECT_EQ(back.features, original.features);
    EXPECT_EQ(bits(back.values), bits(original.values));
}

TEST(FcsWriter, ThrowsNamingThePathWhenWritingFails) {
    TempDir dir;
    const Dataset data = smallDataset({"a"});
    const std::string path = dir.file("no/such/dir/out.fcs");
    try {
        writeFcs(path, data);
        ADD_FAILURE() << "write to a missing directory succeeded";
    } catch (const InvalidInput& e) {
        EXPECT_THAT(e.what(), HasSubstr(path));
    }
    EXPECT_THROW(writeFcs(dir.file("ids.fcs"), data, withClusters({1, 2})), InvalidInput);
    EXPECT_FALSE(std::filesystem::exists(dir.file("ids.fcs")));
}

TEST(FcsWriter, WritesOnlyTheSelectedEventsWithAMembershipChannel) {
    TempDir dir;
    const Dataset data = smallDataset({"a", "b"});
    ExportSelection selection;
    selection.events = std::vector<std::int64_t>{1, 4, 11};
    std::vector<std::int32_t> member(data.n, 0);
    for (std::int64_t i : *selection.events) member[static_cast<std::size_t>(i)] = 1;
    selection.channels.push_back({"gate", ChannelKind::Membership, member});
    writeFcs(dir.file("subset.fcs"), data, selection);

    const Dataset back = readFcs(dir.file("subset.fcs"));
    ASSERT_EQ(back.n, 3u);
    ASSERT_EQ(back.d, 3u);
    EXPECT_THAT(readFile(dir.file("subset.fcs")),
                HasSubstr("/$P3N/gate/$P3S/population member (1) or not (0)/$P3B/32/$P3E/0,0/$P3R/2/"));
    for (std::size_t k = 0; k < 3; ++k) {
        const auto i = static_cast<std::size_t>((*selection.events)[k]);
        for (std::size_t j = 0; j < 2; ++j)
            EXPECT_EQ(std::bit_cast<std::uint32_t>(back.at(k, j)), std::bit_cast<std::uint32_t>(data.at(i, j)));
        EXPECT_EQ(back.at(k, 2), 1.0f);
    }
}

TEST(FcsWriter, RefusesSelectionsThatDoNotFitAndLeavesTheOldFile) {
    TempDir dir;
    const Dataset data = smallDataset({"a"});
    const std::string path = dir.file("keep.fcs");
    writeFile(path, "previous");
    auto refused = [&](const ExportSelection& selection, const std::string& reason) {
        try {
            writeFcs(path, data, selection);
            ADD_FAILURE() << "accepted: " << reason;
        } catch (const InvalidInput& e) {
            EXPECT_THAT(e.what(), AllOf(HasSubstr(path), HasSubstr(reason)));
        }
        EXPECT_EQ(readFile(path), "previous");
    };
    ExportSelection unordered;
    unordered.events = std::vector<std::int64_t>{3, 2};
    refused(unordered, "not ascending");
    ExportSelection outside;
    outside.events = std::vector<std::int64_t>{12};
    refused(outside, "outside the 12 events");
    refused(withClusters(std::vector<std::int32_t>(data.n, -2)), "cluster id -2");
    ExportSelection notBinary;
    notBinary.channels.push_back({"gate", ChannelKind::Membership, std::vector<std::int32_t>(data.n, 2)});
    refused(notBinary, "0 or 1");
}
