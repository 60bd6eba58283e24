// Readers and writers stop on a cancelled job (ReadOptions::control, ExportSelection::control): the
// read throws Cancelled, and a cancelled export leaves the output as it was (no file, or the old one).

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/export_events.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "clusterlens/job_control.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::TempDir;

namespace {

JobControl& cancelledJob() {
    static JobControl control;
    control.cancel();
    return control;
}

ReadOptions cancelledRead() {
    ReadOptions options;
    options.control = &cancelledJob();
    return options;
}

}  // namespace

TEST(CancelIo, ACancelledReadOfEachKindOfFileThrowsCancelled) {
    for (const char* file : {"fcs/AriaFile1.fcs", "benchmarks/uci/ecoli.data.gz"}) {
        SCOPED_TRACE(file);
        EXPECT_GT(readDataset(dataPath(file)).n, 0u);  // the same read without a cancel
        EXPECT_THROW(readDataset(dataPath(file), cancelledRead()), Cancelled);
    }
}

TEST(CancelIo, ACancelledExportLeavesNoFileAndKeepsAnOldOne) {
    const TempDir dir;
    const ExportSource source = ExportSource::open(dataPath("fcs/AriaFile1.fcs"));
    ExportSelection selection;
    selection.control = &cancelledJob();
    for (const char* name : {"events.fcs", "events.csv"}) {
        SCOPED_TRACE(name);
        EXPECT_THROW(exportEvents(dir.file(name), source, selection), Cancelled);
        EXPECT_FALSE(std::filesystem::exists(dir.file(name)));
    }
    const std::string old = dir.file("old.fcs");
    test::writeFile(old, "the user's earlier export");
    EXPECT_THROW(exportEvents(old, source, selection), Cancelled);
    EXPECT_EQ(test::readFile(old), "the user's earlier export");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1);
}

TEST(CancelIo, ACancelledWriteOfDataWithoutASourceFileThrowsCancelled) {
    const TempDir dir;
    const Dataset data = readDataset(dataPath("benchmarks/uci/ecoli.data.gz"));
    ExportSelection selection;
    selection.control = &cancelledJob();
    EXPECT_THROW(writeFcs(dir.file("d.fcs"), data, selection), Cancelled);
    EXPECT_THROW(writeCsv(dir.file("d.csv"), data, selection), Cancelled);
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}
