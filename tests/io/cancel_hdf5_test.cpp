// The HDF5 readers stop on Cancel at 1M cells: a named dense dataset, an .h5ad file with X dense
// (gzip-chunked) or sparse CSR, and a 10x feature-barcode matrix, each written here and read with a
// JobControl that another thread cancels while the read runs. The read throws Cancelled soon after
// the cancel and leaves no HDF5 object open; the same file then reads whole and exact, through
// blocks of rows, chunks and names.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "cancel_after.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "h5_test_writer.hpp"
#include "test_support.hpp"

#ifdef CLUSTERLENS_TEST_HDF5

using namespace clusterlens;
using clusterlens::test::H5Writer;
using std::chrono::milliseconds;

namespace {

/// Issue 31: every job idle within 200 ms of Cancel, which clusterlens-cancel-bench measures (36-96 ms
/// at 1M cells). A test on a shared machine cannot hold a read to a number of milliseconds (the sanitizer
/// build, GUI tests beside it, once took 569 ms to end a read cancelled at 80 %), so the bound is relative:
/// a read cancelled early must stop within half the time a whole read took just before, which a read
/// that looks at its control only at the end (or never) cannot.
constexpr double kStopWithinShareOfRead = 0.5;
constexpr std::size_t kCells = 1'000'000;
constexpr std::size_t kDenseColumns = 14;
/// The sparse matrices: kGenes genes, kPerCell non-zeros per cell.
constexpr std::size_t kGenes = 40;
constexpr std::size_t kPerCell = 5;

float denseValue(std::size_t i, std::size_t j) {
    return static_cast<float>((i * 31 + j * 7) % 1000) * 0.25f;
}

/// The genes of cell i in the sparse files, increasing; its values are 1 + the gene number.
std::size_t geneOf(std::size_t i, std::size_t k) {
    return (i + k * (kGenes / kPerCell)) % kGenes;
}

std::vector<float> expectedSparse() {
    std::vector<float> values(kCells * kGenes, 0.0f);
    for (std::size_t i = 0; i < kCells; ++i)
        for (std::size_t k = 0; k < kPerCell; ++k) values[i * kGenes + geneOf(i, k)] = 1.0f + geneOf(i, k);
    return values;
}

std::vector<std::string> cellNames() {
    std::vector<std::string> names(kCells);
    for (std::size_t i = 0; i < kCells; ++i) names[i] = "AAACCTG" + std::to_string(10'000'000 + i) + "-1";
    return names;
}

/// A CSR (or CSC) group of kPerCell entries per cell: indptr, indices, data.
void writeSparse(H5Writer& file, const std::string& group) {
    std::vector<std::int64_t> indptr(kCells + 1);
    std::vector<std::int32_t> indices;
    std::vector<float> data;
    for (std::size_t i = 0; i < kCells; ++i) {
        indptr[i + 1] = static_cast<std::int64_t>((i + 1) * kPerCell);
        std::vector<std::size_t> genes;
        for (std::size_t k = 0; k < kPerCell; ++k) genes.push_back(geneOf(i, k));
        std::sort(genes.begin(), genes.end());
        for (std::size_t gene : genes) {
            indices.push_back(static_cast<std::int32_t>(gene));
            data.push_back(1.0f + static_cast<float>(gene));
        }
    }
    file.dataset(group + "/indptr", H5T_NATIVE_INT64, {indptr.size()}, indptr.data());
    file.dataset(group + "/indices", H5T_NATIVE_INT32, {indices.size()}, indices.data());
    file.dataset(group + "/data", H5T_NATIVE_FLOAT, {data.size()}, data.data());
}

std::vector<float> denseValues() {
    std::vector<float> values(kCells * kDenseColumns);
    for (std::size_t i = 0; i < kCells; ++i)
        for (std::size_t j = 0; j < kDenseColumns; ++j) values[i * kDenseColumns + j] = denseValue(i, j);
    return values;
}

/// An .h5ad file (anndata >= 0.8 layout) whose obs and var are indexed by names; X is written by `x`.
template <typename WriteX>
void writeH5ad(const std::string& path, std::size_t genes, WriteX x) {
    H5Writer file(path);
    file.stringAttribute("/", "encoding-type", "anndata");
    x(file);
    file.strings("/obs/_index", cellNames());
    std::vector<std::string> geneNames;
    for (std::size_t j = 0; j < genes; ++j) geneNames.push_back("gene" + std::to_string(j));
    file.strings("/var/_index", geneNames);
    for (const char* frame : {"/obs", "/var"}) {
        file.stringAttribute(frame, "_index", "_index");
        file.stringAttribute(frame, "encoding-type", "dataframe");
    }
}

/// A 10x (CellRanger v3) file: /matrix CSC genes x barcodes, i.e. one stored column per cell.
void writeTenx(const std::string& path) {
    H5Writer file(path);
    writeSparse(file, "/matrix");
    const std::vector<std::int64_t> shape{static_cast<std::int64_t>(kGenes), static_cast<std::int64_t>(kCells)};
    file.dataset("/matrix/shape", H5T_NATIVE_INT64, {2}, shape.data());
    file.strings("/matrix/barcodes", cellNames(), 18);
    std::vector<std::string> names, ids;
    for (std::size_t j = 0; j < kGenes; ++j) {
        names.push_back("GENE" + std::to_string(j));
        ids.push_back("ENSG" + std::to_string(j));
    }
    file.strings("/matrix/features/name", names, 8);
    file.strings("/matrix/features/id", ids, 8);
}

ssize_t openHdf5Objects() {
    return H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);
}

/// Reads `path` whole (timing it), then cancels a read of it at 2 %, 40 % and 80 % of that time (in
/// the matrix, later in the names), so that the cancels land inside the read on a fast or a loaded
/// machine: the early ones throw Cancelled within kStopWithinShareOfRead of that time, the late one may
/// end normally. Returns the whole read.
Dataset expectEachCancelStopsTheRead(const std::string& path) {
    const auto start = std::chrono::steady_clock::now();
    Dataset whole = readDataset(path);
    const auto took = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - start);
    for (const int percent : {2, 40, 80}) {
        milliseconds delay = took * percent / 100;
        const auto cancelledRead = [&] {
            return test::cancelAfter(delay, [&](JobControl& control) {
                ReadOptions options;
                options.control = &control;
                readDataset(path, options);
            });
        };
        test::CancelOutcome outcome = cancelledRead();
        // A read that ran faster than the timed one ended before the cancel: again, cancelled sooner.
        for (int retry = 0; retry < 4 && outcome.endedBeforeCancel; ++retry) {
            delay /= 2;
            outcome = cancelledRead();
        }
        SCOPED_TRACE("cancelled after " + std::to_string(delay.count()) + " ms of " + std::to_string(took.count()));
        EXPECT_FALSE(outcome.endedBeforeCancel) << "the read ended before the cancel";
        // Late in the read the last blocks may be done already: then it ends normally, as soon.
        if (percent < 50) {
            EXPECT_TRUE(outcome.threwCancelled);
            EXPECT_LT(outcome.msToStop, kStopWithinShareOfRead * static_cast<double>(took.count()));
        }
        EXPECT_EQ(openHdf5Objects(), 0) << "the cancelled read left HDF5 objects open";
    }
    return whole;
}

}  // namespace

TEST(CancelHdf5, ANamedDenseDatasetOfAMillionRowsStopsSoonAfterCancelAndReadsWhole) {
    const test::TempDir dir;
    const std::string path = dir.file("dense.h5");
    const std::vector<float> values = denseValues();
    H5Writer(path).dataset("/cells", H5T_NATIVE_FLOAT, {kCells, kDenseColumns}, values.data());
    const Dataset data = expectEachCancelStopsTheRead(path);
    EXPECT_EQ(data.n, kCells);
    EXPECT_EQ(data.d, kDenseColumns);
    EXPECT_EQ(data.values, values);
}

TEST(CancelHdf5, AnH5adWithDenseGzipXOfAMillionCellsStopsSoonAfterCancelAndReadsWhole) {
    const test::TempDir dir;
    const std::string path = dir.file("dense.h5ad");
    const std::vector<float> values = denseValues();
    writeH5ad(path, kDenseColumns, [&](H5Writer& file) {
        file.dataset("/X", H5T_NATIVE_FLOAT, {kCells, kDenseColumns}, values.data(), 10'000);
    });
    const Dataset data = expectEachCancelStopsTheRead(path);
    EXPECT_EQ(data.values, values);
    ASSERT_EQ(data.pointNames.size(), kCells);
    EXPECT_EQ(data.pointNames.back(), cellNames().back());
    EXPECT_EQ(data.features.back(), "gene13");
}

TEST(CancelHdf5, AnH5adWithSparseCsrXOfAMillionCellsStopsSoonAfterCancelAndReadsWhole) {
    const test::TempDir dir;
    const std::string path = dir.file("sparse.h5ad");
    writeH5ad(path, kGenes, [](H5Writer& file) {
        writeSparse(file, "/X");
        file.stringAttribute("/X", "encoding-type", "csr_matrix");
        file.integersAttribute("/X", "shape", {kCells, kGenes});
    });
    const Dataset data = expectEachCancelStopsTheRead(path);
    EXPECT_EQ(data.n, kCells);
    EXPECT_EQ(data.d, kGenes);
    EXPECT_EQ(data.values, expectedSparse());
    EXPECT_EQ(data.pointNames.size(), kCells);
}

TEST(CancelHdf5, ATenxMatrixOfAMillionBarcodesStopsSoonAfterCancelAndReadsWhole) {
    const test::TempDir dir;
    const std::string path = dir.file("filtered_feature_bc_matrix.h5");
    writeTenx(path);
    const Dataset data = expectEachCancelStopsTheRead(path);
    EXPECT_EQ(data.provenance.format, "10x-h5");
    EXPECT_EQ(data.values, expectedSparse());
    ASSERT_EQ(data.pointNames.size(), kCells);
    EXPECT_EQ(data.pointNames[123'456], cellNames()[123'456]);
    EXPECT_EQ(data.features.front(), "GENE0");
}

#endif  // CLUSTERLENS_TEST_HDF5
