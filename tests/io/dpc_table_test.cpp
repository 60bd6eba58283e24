// DPC.csv read back as a stored result (readDpcTable): a table of all events (indices 0..n-1) and the
// table of a run on a population (whole-dataset indices, links among them); readDpcCsv keeps refusing
// the latter, and both refuse rows out of order and links to points not in the table.

#include <gtest/gtest.h>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/dpc_csv.hpp"
#include "test_support.hpp"

namespace clusterlens {
namespace {

constexpr const char* kHeader = "index,rho,delta,nearest_higher,gamma\n";

std::string table(const test::TempDir& dir, const std::string& name, const std::string& rows) {
    const std::string path = dir.file(name);
    test::writeFile(path, kHeader + rows);
    return path;
}

TEST(DpcTable, AllEventsHaveNoMembers) {
    test::TempDir dir;
    const DpcResult r = readDpcTable(table(dir, "all.csv", "0,3,2,-1,6\n1,2,1,0,2\n2,1,0.5,1,0.5\n"));
    EXPECT_TRUE(r.info.members.empty());
    EXPECT_EQ(r.nearestHigher, (std::vector<std::int64_t>{-1, 0, 1}));
    EXPECT_EQ(r.gamma, (std::vector<double>{6, 2, 0.5}));
}

TEST(DpcTable, APopulationKeepsItsWholeDatasetIndices) {
    test::TempDir dir;
    const std::string path = table(dir, "pop.csv", "1,3,2,-1,6\n4,2,1,1,2\n9,1,0.5,4,0.5\n");
    const DpcResult r = readDpcTable(path);
    EXPECT_EQ(r.info.members, (std::vector<std::int64_t>{1, 4, 9}));
    EXPECT_EQ(r.nearestHigher, (std::vector<std::int64_t>{-1, 1, 4}));
    EXPECT_EQ(r.rho, (std::vector<double>{3, 2, 1}));
    EXPECT_THROW(readDpcCsv(path), InvalidInput);
}

TEST(DpcTable, RowsOutOfOrderAndLinksOutsideTheTableAreRefused) {
    test::TempDir dir;
    for (const auto& [name, rows] :
         std::vector<std::pair<std::string, std::string>>{{"order.csv", "4,3,2,-1,6\n1,2,1,4,2\n"},
                                                          {"repeat.csv", "1,3,2,-1,6\n1,2,1,1,2\n"},
                                                          {"link.csv", "1,3,2,-1,6\n4,2,1,2,2\n"},
                                                          {"one.csv", "1,3,2,-1,6\n"}}) {
        const std::string path = table(dir, name, rows);
        try {
            readDpcTable(path);
            ADD_FAILURE() << name << " was read";
        } catch (const InvalidInput& e) {
            EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
        }
    }
}

}  // namespace
}  // namespace clusterlens
