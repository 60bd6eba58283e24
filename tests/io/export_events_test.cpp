#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/export_events.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "fcs_builder.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::encode;
using clusterlens::test::readFile;
using clusterlens::test::TempDir;
using clusterlens::test::textKeywords;
using clusterlens::test::writeFile;
using testing::HasSubstr;

namespace {

const std::string kAria = "fcs/AriaFile1.fcs";

/// Keywords the export recomputes: segment offsets, data layout, event and parameter counts.
bool isLayoutKeyword(const std::string& key) {
    static const std::vector<std::string> layout = {"$BEGINANALYSIS", "$ENDANALYSIS", "$BEGINSTEXT", "$ENDSTEXT",
                                                    "$BEGINDATA",     "$ENDDATA",     "$NEXTDATA",   "$TOT",
                                                    "$PAR",           "$DATATYPE",    "$BYTEORD",    "$MODE"};
    if (std::find(layout.begin(), layout.end(), key) != layout.end()) return true;
    return key.size() > 3 && key.starts_with("$P") && key.back() == 'B' &&
           key.find_first_not_of("0123456789", 2) == key.size() - 1;
}

std::vector<std::uint32_t> rowBits(const Dataset& data, std::size_t i, std::size_t columns) {
    std::vector<std::uint32_t> out;
    for (std::size_t j = 0; j < columns; ++j) out.push_back(std::bit_cast<std::uint32_t>(data.at(i, j)));
    return out;
}

/// Cluster ids 0..3 with noise on every fifth event.
std::vector<std::int32_t> someClusters(std::size_t n) {
    std::vector<std::int32_t> ids(n);
    for (std::size_t i = 0; i < n; ++i) ids[i] = i % 5 == 0 ? -1 : static_cast<std::int32_t>(i % 4);
    return ids;
}

}  // namespace

TEST(ExportEvents, AriaFcsKeepsEveryChannelBitIdenticalAndEveryKeyword) {
    TempDir dir;
    const ExportSource source = ExportSource::open(dataPath(kAria));
    ExportSelection selection;
    selection.channels.push_back({"ClusterLens_cluster", ChannelKind::ClusterIds, someClusters(source.events())});
    exportEvents(dir.file("out.fcs"), source, selection);

    const Dataset original = readFcs(dataPath(kAria));
    const Dataset back = readFcs(dir.file("out.fcs"));
    EXPECT_TRUE(back.warnings.empty()) << back.warnings.front();  // neither cut nor offsets disagreeing
    ASSERT_EQ(back.n, 6052u);
    ASSERT_EQ(back.d, 13u);
    for (std::size_t j = 0; j < 12; ++j) EXPECT_EQ(back.features[j], original.features[j]);
    EXPECT_EQ(back.features[12], "ClusterLens_cluster");
    for (std::size_t i = 0; i < back.n; ++i) {
        ASSERT_EQ(rowBits(back, i, 12), rowBits(original, i, 12)) << "event " << i;
        ASSERT_EQ(back.at(i, 12), static_cast<float>(selection.channels[0].values[i] + 1)) << "event " << i;
    }

    const auto before = textKeywords(readFile(dataPath(kAria)));
    const auto after = textKeywords(readFile(dir.file("out.fcs")));
    for (const auto& [key, value] : before) {
        if (isLayoutKeyword(key)) continue;
        ASSERT_TRUE(after.contains(key)) << key << " was dropped";
        EXPECT_EQ(after.at(key), value) << key;
    }
    for (const char* key : {"SPILL", "$CYT", "$DATE", "$BTIM", "$ETIM", "$FIL", "$P1V", "$P1R", "$P12R", "$P3G"})
        EXPECT_TRUE(before.contains(key)) << key << " is not in the source: the check above proves nothing for it";
    EXPECT_EQ(after.at("$TOT"), "6052");
    EXPECT_EQ(after.at("$PAR"), "13");
    EXPECT_EQ(after.at("$DATATYPE"), "F");
    EXPECT_EQ(after.at("$BYTEORD"), "4,3,2,1");
    EXPECT_EQ(after.at("$P12B"), "32");
    EXPECT_EQ(after.at("$P13N"), "ClusterLens_cluster");
    EXPECT_EQ(after.at("$P13R"), "5");  // ids up to 3 are written up to 4
    EXPECT_EQ(after.at("$P13E"), "0,0");
}

TEST(ExportEvents, AriaSubsetWritesExactlyThoseEventsWithTheirMembership) {
    TempDir dir;
    const ExportSource source = ExportSource::open(dataPath(kAria));
    ExportSelection selection;
    selection.events = std::vector<std::int64_t>{0, 7, 1234, 6051};
    std::vector<std::int32_t> member(source.events(), 0);
    for (std::int64_t i : *selection.events) member[static_cast<std::size_t>(i)] = 1;
    selection.channels.push_back({"CD4 gate", ChannelKind::Membership, member});
    exportEvents(dir.file("gate.fcs"), source, selection);

    const Dataset original = readFcs(dataPath(kAria));
    const Dataset back = readFcs(dir.file("gate.fcs"));
    ASSERT_EQ(back.n, 4u);
    ASSERT_EQ(back.d, 13u);
    for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(rowBits(back, k, 12), rowBits(original, static_cast<std::size_t>((*selection.events)[k]), 12));
        EXPECT_EQ(back.at(k, 12), 1.0f);
    }
    const auto after = textKeywords(readFile(dir.file("gate.fcs")));
    EXPECT_EQ(after.at("$TOT"), "4");
    EXPECT_EQ(after.at("CLUSTERLENS_SOURCE"), "AriaFile1.fcs, 4 of 6052 events");
}

TEST(ExportEvents, AriaCsvHoldsTheStoredValuesOfEveryChannel) {
    TempDir dir;
    const ExportSource source = ExportSource::open(dataPath(kAria));
    ExportSelection selection;
    selection.events = std::vector<std::int64_t>{2, 3, 5000};
    selection.channels.push_back({"cluster", ChannelKind::ClusterIds, someClusters(source.events())});
    exportEvents(dir.file("events.csv"), source, selection);

    ReadOptions options;
    options.labelColumn = "cluster";
    const Dataset back = readDataset(dir.file("events.csv"), options);
    const Dataset original = readFcs(dataPath(kAria));
    ASSERT_EQ(back.n, 3u);
    EXPECT_EQ(back.features, original.features);
    for (std::size_t k = 0; k < 3; ++k)
        EXPECT_EQ(rowBits(back, k, 12), rowBits(original, static_cast<std::size_t>((*selection.events)[k]), 12));
    // CSV keeps the ids as they are, -1 = noise (event 5000 is a multiple of 5).
    EXPECT_EQ(back.labels, (std::vector<std::int32_t>{2, 3, -1}));
}

TEST(ExportEvents, IntegerFcsKeepsItsStoredIntegersAndScaling) {
    TempDir dir;
    // Big-endian 16-bit integers, one channel log-amplified ($PnE 4,1), one with a gain.
    test::FcsBuilder b = test::listMode("I", "4,3,2,1", 3, {16, 16});
    b.keywords.emplace_back("$P1E", "4,1");
    b.keywords.emplace_back("$P2G", "2");
    b.keywords.emplace_back("$CYT", "Test cytometer");
    b.keywords.erase(std::remove_if(b.keywords.begin(), b.keywords.end(),
                                    [](const auto& kv) { return kv.first == "$P1E" && kv.second == "0,0"; }),
                     b.keywords.end());
    for (std::uint16_t v : {0, 10, 256, 20, 1023, 1000}) b.data += encode<std::uint16_t>(v, true);
    writeFile(dir.file("int.fcs"), b.build());

    const ExportSource source = ExportSource::open(dir.file("int.fcs"));
    ExportSelection selection;
    selection.channels.push_back({"k", ChannelKind::ClusterIds, {4, -1, 0}});
    exportEvents(dir.file("out.fcs"), source, selection);

    const std::string bytes = readFile(dir.file("out.fcs"));
    const auto after = textKeywords(bytes);
    EXPECT_EQ(after.at("$DATATYPE"), "I");
    EXPECT_EQ(after.at("$P1E"), "4,1");
    EXPECT_EQ(after.at("$P2G"), "2");
    EXPECT_EQ(after.at("$P3B"), "16");
    EXPECT_EQ(after.at("$CYT"), "Test cytometer");
    const std::size_t dataBegin = std::stoul(after.at("$BEGINDATA"));
    std::string expected = b.data.substr(0, 4) + encode<std::uint16_t>(5, true) + b.data.substr(4, 4) +
                           encode<std::uint16_t>(0, true) + b.data.substr(8, 4) + encode<std::uint16_t>(1, true);
    EXPECT_EQ(bytes.substr(dataBegin, expected.size()), expected);
    const Dataset back = readFcs(dir.file("out.fcs"));
    const Dataset original = readFcs(dir.file("int.fcs"));
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(rowBits(back, i, 2), rowBits(original, i, 2));
}

TEST(ExportEvents, NonFcsSourceToFcsWritesTheValuesAsRead) {
    TempDir dir;
    writeFile(dir.file("t.csv"), "cell,x,y\nc1,1.5,-2\nc2,33471.21,0.1\n");
    const ExportSource source = ExportSource::open(dir.file("t.csv"));
    ExportSelection selection;
    selection.channels.push_back({"k", ChannelKind::ClusterIds, {0, 1}});
    exportEvents(dir.file("t.fcs"), source, selection);
    const Dataset back = readFcs(dir.file("t.fcs"));
    EXPECT_EQ(back.features, (std::vector<std::string>{"x", "y", "k"}));
    EXPECT_EQ(back.values, (std::vector<float>{1.5f, -2.f, 1.f, 33471.21f, 0.1f, 2.f}));
}

TEST(ExportEvents, RefusesOtherExtensionsAndCompensationNeverApplies) {
    TempDir dir;
    ReadOptions compensate;
    compensate.compensate = true;
    const ExportSource source = ExportSource::open(dataPath(kAria), compensate);
    EXPECT_THAT(source.data().provenance.detail, HasSubstr("not applied"));
    EXPECT_THROW(exportEvents(dir.file("out.txt"), source, {}), InvalidInput);
    EXPECT_FALSE(std::filesystem::exists(dir.file("out.txt")));
}
