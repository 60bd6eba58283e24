// Regression tests for what the fuzz targets of tests/fuzz found (docs/reliability.md): each input is
// the smallest form of a crashing one, and the test checks the clear refusal that replaced the crash.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::HasSubstr;

namespace {

std::string linkageError(const std::string& text) {
    TempDir dir;
    const std::string path = dir.file("linkage.csv");
    writeFile(path, text);
    try {
        readLinkageCsv(path);
    } catch (const InvalidInput& error) {
        return error.what();
    }
    return "accepted";
}

// fuzz_linkage: a cluster id of 5.4e21 was cast to int64 (undefined behaviour) before validation.
TEST(FuzzFindings, LinkageIdsBeyondInt64AreRefusedNotCast) {
    EXPECT_THAT(linkageError("a,b,height,size\n5.4294e+21,1,0.5,2\n"),
                HasSubstr("line 2: a, b and size must be whole numbers"));
    EXPECT_THAT(linkageError("a,b,height,size\n0,1,0.5,-1e300\n"), HasSubstr("whole numbers"));
    EXPECT_THAT(linkageError("a,b,height,size\n0,nan,0.5,2\n"), HasSubstr("whole numbers"));
    EXPECT_THAT(linkageError("a,b,height,size\n0,1.5,0.5,2\n"), HasSubstr("whole numbers"));
}

TEST(FuzzFindings, LinkageIdsWrittenAsFloatsAreStillRead) {
    EXPECT_EQ(linkageError("a,b,height,size\n0.0,1.0,0.5,2.0\n"), "accepted");
}

}  // namespace
