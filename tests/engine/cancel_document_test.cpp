// The document jobs stop when cancelled from another thread while they run: the transform step, the
// hash of a data file, opening a session (its file hashed and inflated, its referenced data hashed
// and read) and writing clusters into an .h5ad copy. Each throws Cancelled soon after the cancel and
// leaves nothing behind (no output file, no temporary).

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "cancel_after.hpp"
#include "clusterlens/io/file_hash.hpp"
#include "clusterlens/io/h5ad_annotate.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "clusterlens/session/session_data.hpp"
#include "clusterlens/session/session_file.hpp"
#include "clusterlens/transforms.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using namespace std::chrono_literals;
using clusterlens::test::cancelAfter;
using clusterlens::test::CancelOutcome;
using clusterlens::test::TempDir;

namespace {

/// From cancel() until the job has stopped. The jobs look at their control every few milliseconds;
/// the bound leaves room for a loaded two-core machine and still fails a job that runs on to its end.
constexpr double kStopWithinMs = 500.0;

/// Large enough that every job here runs ten times longer than the delay before its cancel.
const Dataset& largeData() {
    static const Dataset data = test::unlabelledCytometryLike(400'000, 12);
    return data;
}

void expectStoppedSoon(const CancelOutcome& outcome) {
    EXPECT_FALSE(outcome.endedBeforeCancel) << "the job ended before the cancel: make it larger";
    EXPECT_TRUE(outcome.threwCancelled);
    EXPECT_LT(outcome.msToStop, kStopWithinMs);
}

std::size_t filesIn(const std::string& folder) {
    return static_cast<std::size_t>(
        std::distance(std::filesystem::directory_iterator(folder), std::filesystem::directory_iterator()));
}

}  // namespace

TEST(CancelDocumentJobs, EachTransformStopsSoonAfterCancel) {
    Dataset counts = largeData();
    for (float& v : counts.values) v = std::floor(std::abs(v));
    for (const auto& [spec, data] : {std::pair<std::string, const Dataset*>{"asinh:5", &largeData()},
                                     {"zscore", &largeData()},
                                     {"normalize-total,log1p", &counts},
                                     {"pca:5", &largeData()}}) {
        SCOPED_TRACE(spec);
        expectStoppedSoon(cancelAfter(10ms, [&](JobControl& c) { applyTransformSpec(*data, spec, &c); }));
    }
    // Per-channel cofactors take their own path through prepareData.
    DatasetReadSpec spec;
    spec.transform = "asinh:5";
    spec.cofactors = {{largeData().features[0], 150.0}};
    expectStoppedSoon(cancelAfter(10ms, [&](JobControl& c) { prepareData(largeData(), spec, &c); }));
}

TEST(CancelDocumentJobs, HashingADataFileStopsSoonAfterCancel) {
    const TempDir dir;
    const std::string path = dir.file("large.bin");
    test::writeFile(path, std::string(std::size_t{64} << 20, 'x'));
    expectStoppedSoon(cancelAfter(5ms, [&](JobControl& c) { sha256File(path, &c); }));
    // The fingerprint the GUI takes of a file it opened (describeDataFile hashes it).
    expectStoppedSoon(
        cancelAfter(5ms, [&](JobControl& c) { describeDataFile(path, DatasetReadSpec{}, Dataset{}, &c); }));
    DatasetReference reference;
    reference.sha256 = sha256File(path);
    expectStoppedSoon(cancelAfter(5ms, [&](JobControl& c) { requireSameDataFile(reference, path, &c); }));
}

#ifdef CLUSTERLENS_TEST_HDF5

TEST(CancelDocumentJobs, OpeningASessionWithEmbeddedDataStopsSoonAfterCancel) {
    const TempDir dir;
    Session session;
    session.data.path = dir.file("gone.csv");
    session.data.n = largeData().n;
    session.data.d = largeData().d;
    session.data.features = largeData().features;
    embedData(session.data, largeData());
    const std::string path = dir.file("embedded.clusterlens");
    writeSession(path, session);
    expectStoppedSoon(cancelAfter(5ms, [&](JobControl& c) { readSession(path, &c); }));
    EXPECT_EQ(filesIn(dir.path()), 1u);
}

TEST(CancelDocumentJobs, ReadingASessionsReferencedDataStopsSoonAfterCancel) {
    const TempDir dir;
    const std::string csv = dir.file("data.csv");
    writeCsv(csv, largeData());
    const DatasetReference reference = describeDataFile(csv, DatasetReadSpec{}, readDataset(csv));
    for (const auto delay : {5ms, 150ms}) {  // in the hash, then in the read
        SCOPED_TRACE(delay.count());
        expectStoppedSoon(cancelAfter(delay, [&](JobControl& c) { loadReferencedData(reference, "", &c); }));
    }
}

TEST(CancelDocumentJobs, ACancelledH5adWriteBackLeavesNoFile) {
    const TempDir dir;
    const std::string source = test::dataPath("h5ad/pbmc_small_dense.h5ad");
    const std::vector<ObsCategorical> columns{categoricalFromMembership("chosen", std::vector<std::int32_t>(80, 1))};
    JobControl cancelled;
    cancelled.cancel();
    const std::string out = dir.file("annotated.h5ad");
    EXPECT_THROW(writeH5adWithObsColumns(source, out, columns, &cancelled), Cancelled);
    EXPECT_EQ(filesIn(dir.path()), 0u);
    JobControl running;
    writeH5adWithObsColumns(source, out, columns, &running);
    EXPECT_EQ(readH5adObsCategorical(out, "chosen").codes, columns.front().codes);
}

#endif
