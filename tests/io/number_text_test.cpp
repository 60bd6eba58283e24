#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/io/number_text.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using clusterlens::test::readFile;
using clusterlens::test::TempDir;
using testing::HasSubstr;

namespace {

std::string shortestFloat(float value) {
    std::string out;
    appendShortest(out, value);
    return out;
}

/// Doubles of every magnitude, sign and bit pattern: random 64-bit patterns that are finite.
std::vector<double> randomDoubles(std::uint64_t seed, std::size_t count) {
    std::mt19937_64 rng(seed);
    std::vector<double> out;
    while (out.size() < count) {
        const double v = std::bit_cast<double>(rng());
        if (std::isfinite(v)) out.push_back(v);
    }
    return out;
}

}  // namespace

TEST(NumberText, WritesTheShortestTextThatReadsBack) {
    EXPECT_EQ(shortestText(15.55), "15.55");
    EXPECT_EQ(shortestText(0.1 + 0.2), "0.30000000000000004");
    EXPECT_EQ(shortestText(1e-300), "1e-300");
    EXPECT_EQ(shortestText(-0.0), "-0");
    EXPECT_EQ(shortestText(262144.0), "262144");
    EXPECT_EQ(shortestText(std::numeric_limits<double>::infinity()), "inf");
    EXPECT_EQ(shortestText(-std::numeric_limits<double>::infinity()), "-inf");
    EXPECT_EQ(shortestText(-std::numeric_limits<double>::quiet_NaN()), "nan");
    EXPECT_EQ(shortestFloat(0.1f), "0.1");
    EXPECT_EQ(shortestFloat(3018.5999f), "3018.5999");
}

TEST(NumberText, RandomDoublesAndFloatsRoundTripExactly) {
    const std::uint64_t seed = test::testSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    for (double v : randomDoubles(seed, 200000)) {
        const std::string text = shortestText(v);
        double back = 0;
        std::from_chars(text.data(), text.data() + text.size(), back);
        ASSERT_EQ(std::bit_cast<std::uint64_t>(back), std::bit_cast<std::uint64_t>(v)) << text;
    }
    // Float values are read back as doubles and rounded to float, as the text reader does.
    std::mt19937 rng(static_cast<std::uint32_t>(seed));
    for (int k = 0; k < 200000; ++k) {
        const float v = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
        if (!std::isfinite(v)) continue;
        const std::string text = shortestFloat(v);
        double back = 0;
        std::from_chars(text.data(), text.data() + text.size(), back);
        ASSERT_EQ(std::bit_cast<std::uint32_t>(static_cast<float>(back)), std::bit_cast<std::uint32_t>(v)) << text;
    }
}

TEST(NumberText, CsvWritersPrintShortestNumbersThatReadBackExactly) {
    TempDir dir;
    Linkage linkage;
    linkage.leafCount = 3;
    linkage.merges = {Merge{0, 1, 15.55, 2}, Merge{2, 3, 1.0 / 3.0, 3}};
    writeLinkageCsv(dir.file("l.csv"), linkage);
    EXPECT_EQ(readFile(dir.file("l.csv")), "a,b,height,size\n0,1,15.55,2\n2,3,0.3333333333333333,3\n");
    EXPECT_EQ(readLinkageCsv(dir.file("l.csv")).merges[1].height, 1.0 / 3.0);

    const std::uint64_t seed = test::testSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    Dataset data;
    data.d = 3;
    data.features = {"a", "b", "c"};
    data.exact = randomDoubles(seed, 3000);
    data.exact[0] = 15.55;
    data.n = data.exact.size() / data.d;
    for (double& v : data.exact) v = std::isfinite(static_cast<float>(v)) ? v : 1.0 / v;  // keep float-sized
    data.values.assign(data.exact.begin(), data.exact.end());
    writeCsv(dir.file("t.csv"), data);
    EXPECT_THAT(readFile(dir.file("t.csv")), HasSubstr("\n15.55,"));
    const Dataset back = readDataset(dir.file("t.csv"));
    ASSERT_EQ(back.exact.size(), data.exact.size());
    for (std::size_t k = 0; k < data.exact.size(); ++k)
        ASSERT_EQ(std::bit_cast<std::uint64_t>(back.exact[k]), std::bit_cast<std::uint64_t>(data.exact[k])) << k;
}
