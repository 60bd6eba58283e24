#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "fcs_builder.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::encode;
using clusterlens::test::FcsBuilder;
using clusterlens::test::listMode;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::AllOf;
using testing::HasSubstr;

namespace {

void setKeyword(FcsBuilder& b, const std::string& key, const std::string& value) {
    for (auto& kv : b.keywords)
        if (kv.first == key) {
            kv.second = value;
            return;
        }
    b.keywords.emplace_back(key, value);
}

void removeKeyword(FcsBuilder& b, const std::string& key) {
    std::erase_if(b.keywords, [&](const auto& kv) { return kv.first == key; });
}

/// Reads FILE expecting InvalidInput whose message names the file and contains every REASON part.
void expectRejected(const std::string& file, const std::vector<std::string>& reasons, ReadOptions options = {}) {
    try {
        readFcs(file, options);
        ADD_FAILURE() << file << " was accepted";
    } catch (const InvalidInput& e) {
        EXPECT_THAT(e.what(), HasSubstr(file));
        for (const std::string& reason : reasons) EXPECT_THAT(e.what(), HasSubstr(reason));
    }
}

bool anyContains(const std::vector<std::string>& lines, const std::string& part) {
    for (const std::string& line : lines)
        if (line.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST(FcsReader, ReadsAriaFile1ExactlyAsStoredBigEndianFloats) {
    const Dataset data = readDataset(dataPath("fcs/AriaFile1.fcs"));
    ASSERT_EQ(data.n, 6052u);
    ASSERT_EQ(data.d, 12u);
    EXPECT_EQ(data.features, (std::vector<std::string>{"FSC-A", "FSC-H", "SSC-A", "R780-A", "B515-A", "V450-A",
                                                       "V545-A", "G560-A", "G610-A", "G660-A", "G710-A", "Time"}));
    EXPECT_TRUE(data.descriptions.empty());
    const std::vector<float> first = {
        33471.2109375f, 33250.f,        1708.f, 3018.599853515625f, 68.5999984741211f, 48.75f,
        54.75f,         9516.33984375f, 3713.f, 7363.59033203125f,  79960.640625f,     0.2000000029802f};
    const std::vector<float> last = {107755.921875f,
                                     39242.0f,
                                     4085.89990234375f,
                                     51.349998474121094f,
                                     653.0999755859375f,
                                     441.0f,
                                     1603.5f,
                                     760.77001953125f,
                                     483.4800109863281f,
                                     448.7200012207031f,
                                     1956.830078125f,
                                     1497.0999755859375f};
    for (std::size_t j = 0; j < 12; ++j) {
        EXPECT_EQ(data.at(0, j), first[j]) << "column " << j;
        EXPECT_EQ(data.at(data.n - 1, j), last[j]) << "column " << j;
    }
    EXPECT_EQ(data.provenance.format, "fcs");
    EXPECT_THAT(data.provenance.detail,
                AllOf(HasSubstr("FCS 3.0"), HasSubstr("$DATATYPE F"), HasSubstr("$BYTEORD 4,3,2,1"),
                      HasSubstr("FACSAriaII"), HasSubstr("SPILL 8x8")));
    EXPECT_TRUE(data.provenance.steps.empty());
}

TEST(FcsReader, AriaFile1WarnsAboutTruncationAndOffsetDisagreement) {
    const Dataset data = readFcs(dataPath("fcs/AriaFile1.fcs"));
    EXPECT_TRUE(anyContains(data.warnings, "announces 10000 events but only 6052 complete events are present"));
    EXPECT_TRUE(anyContains(data.warnings, "2636")) << "HEADER DATA offset";
    EXPECT_TRUE(anyContains(data.warnings, "2634")) << "$BEGINDATA";
}

TEST(FcsReader, AriaFile1RefusedWhenTruncationIsNotAllowed) {
    ReadOptions options;
    options.allowTruncated = false;
    expectRejected(dataPath("fcs/AriaFile1.fcs"), {"truncated", "10000", "6052"}, options);
}

TEST(FcsReader, AriaFile1IdentitySpilloverLeavesValuesAndIsRecorded) {
    ReadOptions options;
    options.compensate = true;
    const Dataset plain = readFcs(dataPath("fcs/AriaFile1.fcs"));
    const Dataset compensated = readFcs(dataPath("fcs/AriaFile1.fcs"), options);
    EXPECT_EQ(compensated.values, plain.values);
    EXPECT_THAT(compensated.provenance.steps, testing::ElementsAre(HasSubstr("SPILL")));
    EXPECT_THAT(compensated.provenance.detail, HasSubstr("compensated with SPILL"));
}

TEST(FcsReader, DecodesFloatAndDoubleInBothByteOrders) {
    TempDir dir;
    for (bool big : {false, true}) {
        FcsBuilder f = listMode("F", big ? "4,3,2,1" : "1,2,3,4", 2, {32, 32});
        f.data = encode(1.5f, big) + encode(-2.25f, big) + encode(1e-30f, big) + encode(65504.f, big);
        writeFile(dir.file("f.fcs"), f.build());
        const Dataset data = readFcs(dir.file("f.fcs"));
        EXPECT_EQ(data.values, (std::vector<float>{1.5f, -2.25f, 1e-30f, 65504.f})) << "big endian " << big;
        EXPECT_TRUE(data.warnings.empty());

        FcsBuilder d = listMode("D", big ? "4,3,2,1" : "1,2,3,4", 1, {64, 64});
        d.data = encode(0.1, big) + encode(-1e300, big);
        writeFile(dir.file("d.fcs"), d.build());
        const Dataset doubles = readFcs(dir.file("d.fcs"));
        EXPECT_EQ(doubles.exact, (std::vector<double>{0.1, -1e300})) << "big endian " << big;
        EXPECT_EQ(doubles.values[0], 0.1f);
    }
}

TEST(FcsReader, DecodesIntegersOfEveryWidthInBothByteOrders) {
    TempDir dir;
    for (bool big : {false, true}) {
        FcsBuilder b = listMode("I", big ? "4,3,2,1" : "1,2,3,4", 1, {8, 16, 32, 64});
        for (int j = 1; j <= 4; ++j) setKeyword(b, "$P" + std::to_string(j) + "R", "4294967296");
        b.data = encode<std::uint8_t>(200, big) + encode<std::uint16_t>(60000, big) +
                 encode<std::uint32_t>(4000000000u, big) + encode<std::uint64_t>(123456789, big);
        writeFile(dir.file("i.fcs"), b.build());
        const Dataset data = readFcs(dir.file("i.fcs"));
        EXPECT_EQ(data.values, (std::vector<float>{200.f, 60000.f, 4e9f, 123456789.f})) << "big endian " << big;
    }
}

TEST(FcsReader, Fcs20SixteenBitByteOrders) {
    TempDir dir;
    for (bool big : {false, true}) {
        FcsBuilder b = listMode("I", big ? "2,1" : "1,2", 2, {16});
        b.version = "2.0";
        b.data = encode<std::uint16_t>(513, big) + encode<std::uint16_t>(7, big);
        writeFile(dir.file("v2.fcs"), b.build());
        const Dataset data = readFcs(dir.file("v2.fcs"));
        EXPECT_EQ(data.values, (std::vector<float>{513.f, 7.f})) << "big endian " << big;
        EXPECT_THAT(data.provenance.detail, HasSubstr("FCS 2.0"));
    }
}

TEST(FcsReader, MasksIntegerValuesToTheBitsOfTheRange) {
    TempDir dir;
    FcsBuilder b = listMode("I", "1,2,3,4", 3, {16, 16});
    setKeyword(b, "$P2R", "1000");  // needs 10 bits as well: mask 1023
    b.data = encode<std::uint16_t>(1029, false) + encode<std::uint16_t>(0xffff, false) +
             encode<std::uint16_t>(1023, false) + encode<std::uint16_t>(0xfc00 | 17, false) +
             encode<std::uint16_t>(0, false) + encode<std::uint16_t>(1024, false);
    writeFile(dir.file("mask.fcs"), b.build());
    const Dataset data = readFcs(dir.file("mask.fcs"));
    EXPECT_EQ(data.values, (std::vector<float>{5.f, 1023.f, 1023.f, 17.f, 0.f, 0.f}));
}

TEST(FcsReader, AppliesLogAmplificationAndGainToIntegers) {
    TempDir dir;
    FcsBuilder b = listMode("I", "1,2,3,4", 2, {16, 16, 16});
    setKeyword(b, "$P1E", "4,1");  // 4 decades over range 1024
    setKeyword(b, "$P2E", "2,0");  // f2 = 0 is read as 1
    setKeyword(b, "$P3G", "4");    // linear, divided by the gain
    setKeyword(b, "$P1R", "1024");
    b.data = encode<std::uint16_t>(512, false) + encode<std::uint16_t>(512, false) + encode<std::uint16_t>(10, false) +
             encode<std::uint16_t>(0, false) + encode<std::uint16_t>(1023, false) + encode<std::uint16_t>(1, false);
    writeFile(dir.file("log.fcs"), b.build());
    const Dataset data = readFcs(dir.file("log.fcs"));
    EXPECT_FLOAT_EQ(data.at(0, 0), 100.f);
    EXPECT_FLOAT_EQ(data.at(0, 1), 10.f);
    EXPECT_FLOAT_EQ(data.at(0, 2), 2.5f);
    EXPECT_FLOAT_EQ(data.at(1, 0), 1.f);
    EXPECT_FLOAT_EQ(data.at(1, 1), static_cast<float>(std::pow(10.0, 2.0 * 1023 / 1024)));
    EXPECT_FLOAT_EQ(data.at(1, 2), 0.25f);
}

TEST(FcsReader, GainAndLogKeywordsDoNotChangeFloatData) {
    TempDir dir;
    FcsBuilder b = listMode("F", "1,2,3,4", 1, {32});
    setKeyword(b, "$P1G", "0.01");
    b.data = encode(0.2f, false);
    writeFile(dir.file("g.fcs"), b.build());
    EXPECT_EQ(readFcs(dir.file("g.fcs")).values, std::vector<float>{0.2f});
}

TEST(FcsReader, KeywordsAreCaseInsensitiveAndDelimitersEscaped) {
    TempDir dir;
    FcsBuilder b = listMode("F", "1,2,3,4", 1, {32, 32});
    for (auto& kv : b.keywords)
        if (kv.first == "$PAR" || kv.first == "$TOT") kv.first = kv.first == "$PAR" ? "$par" : "$Tot";
    setKeyword(b, "$P1N", "CD4/CD8");
    setKeyword(b, "$P2N", "tail/");
    setKeyword(b, "$P2S", "a // b");
    b.data = encode(1.f, false) + encode(2.f, false);
    writeFile(dir.file("case.fcs"), b.build());
    const Dataset data = readFcs(dir.file("case.fcs"));
    EXPECT_EQ(data.features, (std::vector<std::string>{"CD4/CD8", "tail/"}));
    EXPECT_EQ(data.descriptions, (std::vector<std::string>{"", "a // b"}));
}

TEST(FcsReader, UsesTextDataOffsetsWhenHeaderHoldsZeros) {
    TempDir dir;
    FcsBuilder b = listMode("F", "1,2,3,4", 1, {32});
    b.headerDataOffsets = false;
    b.data = encode(3.5f, false);
    writeFile(dir.file("big.fcs"), b.build());
    const Dataset data = readFcs(dir.file("big.fcs"));
    EXPECT_EQ(data.values, std::vector<float>{3.5f});
    EXPECT_TRUE(data.warnings.empty());

    b.dataKeywords = false;
    writeFile(dir.file("none.fcs"), b.build());
    expectRejected(dir.file("none.fcs"), {"HEADER", "$BEGINDATA"});
}

TEST(FcsReader, ReadsSupplementalText) {
    TempDir dir;
    FcsBuilder b = listMode("F", "1,2,3,4", 1, {32, 32});
    b.supplemental = "/$P2S/from supplemental TEXT/$P1N/ignored duplicate/";
    b.data = encode(1.f, false) + encode(2.f, false);
    writeFile(dir.file("stext.fcs"), b.build());
    const Dataset data = readFcs(dir.file("stext.fcs"));
    EXPECT_EQ(data.descriptions, (std::vector<std::string>{"", "from supplemental TEXT"}));
    EXPECT_EQ(data.features[0], "ch1");
    EXPECT_TRUE(anyContains(data.warnings, "$P1N"));
}

TEST(FcsReader, CutDataKeepsCompleteEventsOrRefuses) {
    TempDir dir;
    FcsBuilder b = listMode("F", "4,3,2,1", 3, {32, 32});
    for (float v : {1.f, 2.f, 3.f, 4.f, 5.f, 6.f}) b.data += encode(v, true);
    const std::string full = b.build();
    writeFile(dir.file("cut.fcs"), full.substr(0, full.size() - 6));  // half of event 3 is gone
    const Dataset data = readFcs(dir.file("cut.fcs"));
    EXPECT_EQ(data.values, (std::vector<float>{1.f, 2.f, 3.f, 4.f}));
    EXPECT_TRUE(anyContains(data.warnings, "announces 3 events but only 2 complete events are present"));
    ReadOptions strict;
    strict.allowTruncated = false;
    expectRejected(dir.file("cut.fcs"), {"truncated", "announces 3 events"}, strict);

    setKeyword(b, "$TOT", "4");  // DATA segment complete, but too short for $TOT
    writeFile(dir.file("short.fcs"), b.build());
    EXPECT_EQ(readFcs(dir.file("short.fcs")).n, 3u);
    expectRejected(dir.file("short.fcs"), {"announces 4 events but only 3 complete"}, strict);
}

TEST(FcsReader, CompensatesWithTheInverseSpillover) {
    TempDir dir;
    FcsBuilder b = listMode("F", "1,2,3,4", 2, {32, 32, 32});
    setKeyword(b, "$SPILLOVER", "2,ch3,ch1,1,0.1,0.2,1");
    for (float v : {100.f, 7.f, 50.f, 10.f, 8.f, 20.f}) b.data += encode(v, false);
    writeFile(dir.file("comp.fcs"), b.build());
    ReadOptions options;
    options.compensate = true;
    const Dataset data = readFcs(dir.file("comp.fcs"), options);
    // c * S must give back the raw (ch3, ch1) vector.
    const double s[4] = {1, 0.1, 0.2, 1};
    const double raw[2][2] = {{50, 100}, {20, 10}};
    for (std::size_t i = 0; i < 2; ++i) {
        const double c0 = data.at(i, 2), c1 = data.at(i, 0);
        EXPECT_NEAR(c0 * s[0] + c1 * s[2], raw[i][0], 1e-3);
        EXPECT_NEAR(c0 * s[1] + c1 * s[3], raw[i][1], 1e-3);
        EXPECT_EQ(data.at(i, 1), i == 0 ? 7.f : 8.f) << "uncompensated column";
    }
    EXPECT_THAT(data.provenance.steps, testing::ElementsAre(HasSubstr("$SPILLOVER")));
}

TEST(FcsReader, RejectsBadSpilloverMatrices) {
    TempDir dir;
    ReadOptions options;
    options.compensate = true;
    FcsBuilder b = listMode("F", "1,2,3,4", 1, {32, 32});
    b.data = encode(1.f, false) + encode(2.f, false);
    setKeyword(b, "SPILL", "2,ch1,nope,1,0,0,1");
    writeFile(dir.file("unknown.fcs"), b.build());
    expectRejected(dir.file("unknown.fcs"), {"SPILL", "'nope'"}, options);
    setKeyword(b, "SPILL", "2,ch1,ch2,1,2,2,4");
    writeFile(dir.file("singular.fcs"), b.build());
    expectRejected(dir.file("singular.fcs"), {"SPILL", "singular"}, options);
    setKeyword(b, "SPILL", "2,ch1,ch2,1,0,0");
    writeFile(dir.file("short.fcs"), b.build());
    expectRejected(dir.file("short.fcs"), {"SPILL", "entries"}, options);
}

TEST(FcsReader, MalformedSpilloverIsOnlyAWarningWithoutCompensation) {
    TempDir dir;
    FcsBuilder b = listMode("F", "1,2,3,4", 1, {32});
    b.data = encode(1.f, false);
    setKeyword(b, "$SPILLOVER", "two,ch1,1");
    writeFile(dir.file("spill.fcs"), b.build());
    const Dataset data = readFcs(dir.file("spill.fcs"));
    EXPECT_EQ(data.values, std::vector<float>{1.f});
    EXPECT_TRUE(anyContains(data.warnings, "$SPILLOVER"));
}

class FcsMalformed : public testing::Test {
protected:
    /// A valid two-event, two-parameter float file.
    FcsBuilder valid() const {
        FcsBuilder b = listMode("F", "1,2,3,4", 2, {32, 32});
        for (float v : {1.f, 2.f, 3.f, 4.f}) b.data += encode(v, false);
        return b;
    }
    std::string write(const std::string& name, const std::string& bytes) const {
        writeFile(m_dir.file(name), bytes);
        return m_dir.file(name);
    }
    std::string write(const std::string& name, const FcsBuilder& b) const { return write(name, b.build()); }

private:
    TempDir m_dir;
};

TEST_F(FcsMalformed, ValidBaselineIsAccepted) {
    const Dataset data = readFcs(write("ok.fcs", valid()));
    EXPECT_EQ(data.values, (std::vector<float>{1.f, 2.f, 3.f, 4.f}));
    EXPECT_TRUE(data.warnings.empty());
}

TEST_F(FcsMalformed, TruncatedHeader) {
    expectRejected(write("tiny.fcs", valid().build().substr(0, 30)), {"HEADER", "too small"});
}

TEST_F(FcsMalformed, WrongMagicOrVersion) {
    std::string bytes = valid().build();
    expectRejected(write("magic.fcs", "XYZ" + bytes.substr(3)), {"HEADER", "not an FCS file"});
    expectRejected(write("v4.fcs", "FCS4.0" + bytes.substr(6)), {"HEADER", "unsupported FCS version"});
}

TEST_F(FcsMalformed, NonNumericOffsets) {
    std::string bytes = valid().build();
    bytes.replace(10, 8, "   5x8  ");
    expectRejected(write("offsets.fcs", bytes), {"HEADER bytes 10-17", "TEXT begin", "not a number"});
    FcsBuilder b = valid();
    b.headerDataOffsets = false;
    b.dataKeywords = false;
    b.keywords.emplace_back("$BEGINDATA", "abc");
    b.keywords.emplace_back("$ENDDATA", "200");
    expectRejected(write("textoffsets.fcs", b), {"$BEGINDATA", "not a number"});
}

TEST_F(FcsMalformed, OffsetsPastTheEndOfTheFile) {
    std::string bytes = valid().build();
    std::string text = bytes;
    text.replace(18, 8, "   99999");
    expectRejected(write("text.fcs", text), {"TEXT", "beyond the end of the file"});
    std::string data = bytes;
    data.replace(26, 16, "    5000    5007");
    expectRejected(write("data.fcs", data), {"DATA", "beyond the end of the file"});
}

TEST_F(FcsMalformed, TextWithoutLeadingDelimiter) {
    std::string bytes = valid().build();
    bytes[58] = 'B';
    expectRejected(write("delim.fcs", bytes), {"TEXT byte 58", "does not start with a delimiter"});
}

TEST_F(FcsMalformed, TextWithOddFieldCount) {
    FcsBuilder b = valid();
    b.keywords.emplace_back("EXTRA", "v");
    std::string bytes = b.build();
    bytes.replace(bytes.find("/EXTRA/v/"), 9, "/EXTRA_v/");
    expectRejected(write("odd.fcs", bytes), {"TEXT byte", "odd number of TEXT fields"});
}

TEST_F(FcsMalformed, MissingRequiredKeywords) {
    for (const std::string key : {"$PAR", "$TOT", "$DATATYPE", "$BYTEORD", "$P2B"}) {
        FcsBuilder b = valid();
        removeKeyword(b, key);
        SCOPED_TRACE(key);
        expectRejected(write("missing.fcs", b), {"required keyword " + key + " is missing"});
    }
}

TEST_F(FcsMalformed, UnsupportedLayouts) {
    const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> cases = {
        {"$DATATYPE", "A", {"TEXT keyword $DATATYPE", "unsupported data type 'A'"}},
        {"$BYTEORD", "3,4,1,2", {"TEXT keyword $BYTEORD", "unsupported byte order"}},
        {"$P1B", "64", {"TEXT keyword $P1B", "must be 32"}},
        {"$PAR", "0", {"TEXT keyword $PAR", "zero parameters"}},
        {"$PAR", "two", {"TEXT keyword $PAR", "not a non-negative integer"}},
        {"$TOT", "-3", {"TEXT keyword $TOT", "not a non-negative integer"}},
        {"$MODE", "C", {"TEXT keyword $MODE", "list-mode"}},
        {"$P2E", "4", {"TEXT keyword $P2E", "f1,f2"}},
    };
    for (const auto& [key, value, reasons] : cases) {
        FcsBuilder b = valid();
        if (key == "$P2E") b = listMode("I", "1,2,3,4", 1, {16, 16});
        setKeyword(b, key, value);
        SCOPED_TRACE(key + " = " + value);
        expectRejected(write("layout.fcs", b), reasons);
    }
    FcsBuilder ints = listMode("I", "1,2,3,4", 1, {16, 12});
    ints.data = std::string(4, '\0');
    expectRejected(write("bits.fcs", ints), {"TEXT keyword $P2B", "unsupported bit width '12'"});
}
