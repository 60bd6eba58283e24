// Labels files of other tools (readLabelFile): one label per line or KEY,LABEL, integers kept, text
// labels numbered in order of first appearance with their names, headers recognised, events named by
// index or by name, and every malformed file refused with the file, the line and the reason.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using namespace clusterlens::test;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

std::string failureOf(const std::string& path, std::size_t n, const std::vector<std::string>& names = {}) {
    try {
        readLabelFile(path, n, names);
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST(LabelFile, TextLabelsBecomeClassesInOrderOfFirstAppearanceWithTheirNames) {
    TempDir dir;
    writeFile(dir.file("gates.csv"), "cell,gate\n0,T cells\n1,B cells\n2,T cells\n3,NA\n");
    const LabelFile file = readLabelFile(dir.file("gates.csv"), 4);
    EXPECT_EQ(file.labels, (std::vector<std::int32_t>{0, 1, 0, -1}));
    EXPECT_EQ(file.names, (std::vector<std::string>{"T cells", "B cells"}));
    EXPECT_EQ(file.column, "gate");
}

TEST(LabelFile, IntegerLabelsAreKeptOnePerLineOrByIndexInAnyOrder) {
    TempDir dir;
    writeFile(dir.file("flowsom.txt"), "3\n1\n2\n");
    EXPECT_EQ(readLabelFile(dir.file("flowsom.txt"), 3).labels, (std::vector<std::int32_t>{3, 1, 2}));
    EXPECT_TRUE(readLabelFile(dir.file("flowsom.txt"), 3).names.empty());
    writeFile(dir.file("leiden.tsv"), "index\tleiden\n2\t0\n0\t5\n1\t-1\n");
    EXPECT_EQ(readLabelFile(dir.file("leiden.tsv")).labels, (std::vector<std::int32_t>{5, -1, 0}));
}

TEST(LabelFile, EventNamesAreMatchedAgainstTheDatasNames) {
    TempDir dir;
    writeFile(dir.file("leiden.csv"), ",leiden\nBBB-1,1\nAAA-1,0\n");
    const LabelFile file = readLabelFile(dir.file("leiden.csv"), 2, {"AAA-1", "BBB-1"});
    EXPECT_EQ(file.labels, (std::vector<std::int32_t>{0, 1}));
    EXPECT_THAT(failureOf(dir.file("leiden.csv"), 2, {"AAA-1", "CCC-1"}),
                AllOf(HasSubstr("leiden.csv"), HasSubstr("line 2"), HasSubstr("'BBB-1'")));
}

TEST(LabelFile, MalformedFilesNameFileLineAndReason) {
    TempDir dir;
    writeFile(dir.file("short.csv"), "1\n2\n3\n");
    EXPECT_THAT(failureOf(dir.file("short.csv"), 5),
                AllOf(HasSubstr("short.csv"), HasSubstr("has 3 labels but the data has 5 events")));
    writeFile(dir.file("wide.csv"), "0,a\n1,b,c\n");
    EXPECT_THAT(failureOf(dir.file("wide.csv"), 2),
                AllOf(HasSubstr("wide.csv"), HasSubstr("line 2"), HasSubstr("3 fields")));
    writeFile(dir.file("twice.csv"), "0,a\n0,b\n");
    EXPECT_THAT(failureOf(dir.file("twice.csv"), 2), AllOf(HasSubstr("line 2"), HasSubstr("labelled twice")));
    writeFile(dir.file("range.csv"), "0,a\n7,b\n");
    EXPECT_THAT(failureOf(dir.file("range.csv"), 2), AllOf(HasSubstr("line 2"), HasSubstr("outside 0..1")));
    writeFile(dir.file("empty.csv"), "# nothing\n\n");
    EXPECT_THAT(failureOf(dir.file("empty.csv"), 0), HasSubstr("no labels"));
}
