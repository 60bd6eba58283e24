// HDF5 readers: AnnData .h5ad, 10x Genomics .h5 and named datasets. Expected values of the shared
// files were read independently with h5py/numpy (dense X, and the CSR/CSC arrays densified by hand).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "h5_test_writer.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::AllOf;
using testing::HasSubstr;

namespace {

std::string errorOf(const std::string& path, const ReadOptions& options = {}) {
    try {
        readDataset(path, options);
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

#ifdef CLUSTERLENS_TEST_HDF5

using clusterlens::test::H5Writer;

namespace {

struct SparseArrays {
    std::vector<double> data;
    std::vector<double> indices;
    std::vector<double> indptr;
};

// An AnnData-encoded sparse group at /m (ENCODING csr_matrix or csc_matrix) in a plain .h5 file.
std::string writeSparseFile(const TempDir& dir, const std::string& encoding, const std::vector<std::int64_t>& shape,
                            const SparseArrays& arrays) {
    const std::string path = dir.file("sparse.h5");
    H5Writer writer(path);
    writer.group("/m");
    writer.stringAttribute("/m", "encoding-type", encoding);
    writer.integersAttribute("/m", "shape", shape);
    writer.numbers("/m/data", H5T_IEEE_F32LE, {arrays.data.size()}, arrays.data);
    writer.numbers("/m/indices", H5T_STD_I32LE, {arrays.indices.size()}, arrays.indices);
    writer.numbers("/m/indptr", H5T_STD_I64LE, {arrays.indptr.size()}, arrays.indptr);
    return path;
}

double sumOf(const Dataset& data) {
    return std::accumulate(data.values.begin(), data.values.end(), 0.0);
}

std::size_t nonZeros(const Dataset& data) {
    std::size_t count = 0;
    for (float v : data.values) count += v != 0.0f ? 1 : 0;
    return count;
}

struct NameAt {
    std::size_t index;
    const char* name;
};

// NAMES has SIZE entries, the listed ones as given.
void expectNames(const std::vector<std::string>& names, std::size_t size, std::initializer_list<NameAt> expected) {
    ASSERT_EQ(names.size(), size);
    for (const NameAt& e : expected) EXPECT_EQ(names[e.index], e.name) << "entry " << e.index;
}

struct CellValue {
    std::size_t row;
    std::size_t column;
    float value;
};

void expectCells(const Dataset& data, std::initializer_list<CellValue> expected) {
    for (const CellValue& e : expected)
        EXPECT_EQ(data.at(e.row, e.column), e.value) << "(" << e.row << ", " << e.column << ")";
}

ReadOptions datasetOption(const std::string& name) {
    ReadOptions options;
    options.h5Dataset = name;
    return options;
}

}  // namespace

TEST(AnnData, DenseCsrAndGzipCsrFilesGiveIdenticalMatrices) {
    const Dataset dense = readDataset(dataPath("h5ad/pbmc_small_dense.h5ad"));
    const Dataset csr = readDataset(dataPath("h5ad/pbmc_small_csr.h5ad"));
    const Dataset gzip = readDataset(dataPath("h5ad/pbmc_small_csr_gzip.h5ad"));
    for (const Dataset* data : {&dense, &csr, &gzip}) {
        EXPECT_EQ(data->n, 80u);
        EXPECT_EQ(data->d, 230u);
        EXPECT_EQ(data->provenance.format, "h5ad");
        EXPECT_EQ(data->features, dense.features);
        EXPECT_EQ(data->pointNames, dense.pointNames);
    }
    EXPECT_EQ(csr.values, dense.values);
    EXPECT_EQ(gzip.values, dense.values);
    EXPECT_EQ(dense.provenance.detail, "X as dense float32");
    EXPECT_EQ(csr.provenance.detail, "X as CSR");
    EXPECT_EQ(gzip.provenance.detail, "X as CSR (gzip)");
}

TEST(AnnData, ReadsCellAndGeneNamesAndCounts) {
    const Dataset data = readDataset(dataPath("h5ad/pbmc_small_dense.h5ad"));
    expectNames(data.features, 230, {{0, "MS4A1"}, {1, "CD79B"}, {100, "CTSB"}, {229, "S100B"}});
    expectNames(data.pointNames, 80,
                {{0, "ATGCCAGAACGACT"}, {1, "CATGGCCTGTGCAT"}, {40, "TAGGGACTGAACTC"}, {79, "CTTGATTGATCTTC"}});
    expectCells(data, {{0, 0, 0.0f},
                       {0, 1, 1.0f},
                       {12, 0, 4.0f},
                       {1, 8, 7.0f},
                       {40, 205, 10.0f},
                       {55, 172, 25.0f},
                       {64, 3, 138.0f},
                       {68, 118, 23.0f},
                       {79, 220, 1.0f},
                       {79, 229, 0.0f}});
    EXPECT_EQ(nonZeros(data), 4456u);
    EXPECT_EQ(sumOf(data), 19633.0);
    EXPECT_TRUE(data.warnings.empty());
}

TEST(AnnData, AttachesObsmUmapAsEmbedding) {
    const Dataset data = readDataset(dataPath("h5ad/pbmc_small_csr_gzip.h5ad"));
    ASSERT_EQ(data.embeddings.size(), 1u);
    const Embedding& umap = data.embeddings[0];
    EXPECT_EQ(umap.name, "X_umap");
    EXPECT_EQ(umap.n, 80u);
    EXPECT_EQ(umap.d, 2u);
    EXPECT_EQ(umap.values[0], 0.1257302165031433f);
    EXPECT_EQ(umap.values[1], -0.13210485875606537f);
    EXPECT_EQ(umap.values[159], -2.398232936859131f);
    EXPECT_TRUE(readDataset(dataPath("h5ad/pbmc_small_dense.h5ad")).embeddings.empty());
}

TEST(AnnData, EmbeddingOptionReadsObsmInsteadOfX) {
    ReadOptions options;
    options.embedding = "X_umap";
    const Dataset data = readDataset(dataPath("h5ad/pbmc_small_csr.h5ad"), options);
    EXPECT_EQ(data.n, 80u);
    EXPECT_EQ(data.d, 2u);
    EXPECT_EQ(data.features, (std::vector<std::string>{"X_umap_1", "X_umap_2"}));
    EXPECT_EQ(data.at(0, 0), 0.1257302165031433f);
    EXPECT_EQ(data.at(40, 1), -0.6331941f);
    EXPECT_EQ(data.at(79, 0), -1.1857198476791382f);
    EXPECT_EQ(data.pointNames.back(), "CTTGATTGATCTTC");
    EXPECT_EQ(data.provenance.detail, "obsm/X_umap as dense float32");
}

TEST(AnnData, MissingEmbeddingListsTheAvailableOnes) {
    ReadOptions options;
    options.embedding = "X_tsne";
    const std::string message = errorOf(dataPath("h5ad/pbmc_small_csr.h5ad"), options);
    EXPECT_THAT(message, AllOf(HasSubstr("pbmc_small_csr.h5ad: /obsm/X_tsne: not found"), HasSubstr("X_umap")));
}

TEST(AnnData, DatasetOptionChoosesAnotherMatrixOfTheFile) {
    const Dataset data = readDataset(dataPath("h5ad/pbmc_small_csr.h5ad"), datasetOption("obsm/X_umap"));
    EXPECT_EQ(data.d, 2u);
    EXPECT_EQ(data.features, (std::vector<std::string>{"V1", "V2"}));
    EXPECT_EQ(data.at(79, 1), -2.398232936859131f);
}

TEST(AnnData, ReadsCscXWithLegacyAttributesAndIndexNamedByAttribute) {
    TempDir dir;
    const std::string path = dir.file("legacy.h5ad");
    {
        H5Writer writer(path);
        // X = [[1, 0, 2], [0, 3, 0]] (2 cells x 3 genes) stored by columns, as anndata < 0.7 wrote it.
        writer.group("/X");
        writer.stringAttribute("/X", "h5sparse_format", "csc");
        writer.integersAttribute("/X", "h5sparse_shape", {2, 3});
        writer.numbers("/X/data", H5T_IEEE_F64LE, {3}, {1, 3, 2});
        writer.numbers("/X/indices", H5T_STD_I32LE, {3}, {0, 1, 0});
        writer.numbers("/X/indptr", H5T_STD_I32LE, {4}, {0, 1, 2, 3});
        writer.group("/obs");
        writer.strings("/obs/_index", {"cell-a", "cell-b"});
        writer.group("/var");
        writer.stringAttribute("/var", "_index", "gene_ids");
        writer.strings("/var/gene_ids", {"G1", "G2", "G3"}, 4);
    }
    const Dataset data = readDataset(path);
    EXPECT_EQ(data.values, (std::vector<float>{1, 0, 2, 0, 3, 0}));
    EXPECT_EQ(data.features, (std::vector<std::string>{"G1", "G2", "G3"}));
    EXPECT_EQ(data.pointNames, (std::vector<std::string>{"cell-a", "cell-b"}));
    EXPECT_EQ(data.provenance.detail, "X as CSC");
    EXPECT_TRUE(data.embeddings.empty());
    EXPECT_TRUE(data.warnings.empty());
}

TEST(TenX, ReadsVisiumMatrixAsSpotsByGenes) {
    const Dataset data = readDataset(dataPath("h5/visium_filtered_feature_bc_matrix.h5"));
    EXPECT_EQ(data.n, 2695u);
    EXPECT_EQ(data.d, 100u);
    EXPECT_EQ(data.provenance.format, "10x-h5");
    EXPECT_EQ(data.provenance.detail, "/matrix CSC genes x barcodes (CellRanger v3, gzip)");
    expectNames(data.features, 100, {{0, "Xkr4"}, {1, "Gm1992"}, {28, "Vcpip1"}, {61, "Rpl7"}, {99, "Gm28287"}});
    expectNames(data.descriptions, 100,
                {{0, "ENSMUSG00000051951"}, {61, "ENSMUSG00000043716"}, {99, "ENSMUSG00000099971"}});
    expectNames(data.pointNames, 2695,
                {{0, "AAACAAGTATCTCCCA-1"},
                 {1, "AAACACCAATAACTGC-1"},
                 {1347, "GAACAACTGGGATGAA-1"},
                 {2694, "TTGTTTCCATACAACT-1"}});
    expectCells(data, {{0, 0, 0.0f},
                       {0, 6, 2.0f},
                       {0, 9, 2.0f},
                       {1347, 28, 2.0f},
                       {2394, 61, 40.0f},
                       {2694, 97, 1.0f},
                       {2694, 99, 0.0f}});
    double firstSpot = 0.0, spot2394 = 0.0;
    for (std::size_t j = 0; j < data.d; ++j) firstSpot += data.at(0, j), spot2394 += data.at(2394, j);
    EXPECT_EQ(firstSpot, 34.0);
    EXPECT_EQ(spot2394, 87.0);
    EXPECT_EQ(nonZeros(data), 50355u);
    EXPECT_EQ(sumOf(data), 132231.0);
}

TEST(TenX, DatasetOptionNamingTheGroupReadsIt) {
    const Dataset automatic = readDataset(dataPath("h5/visium_filtered_feature_bc_matrix.h5"));
    const Dataset named = readDataset(dataPath("h5/visium_filtered_feature_bc_matrix.h5"), datasetOption("/matrix"));
    EXPECT_EQ(named.provenance.format, "10x-h5");
    EXPECT_EQ(named.values, automatic.values);
    EXPECT_EQ(named.pointNames, automatic.pointNames);
}

namespace {

// A CellRanger v2 genome group of 3 genes x 2 barcodes, CSC: barcode 0 has gene 2 = 5; barcode 1 has
// genes 0 = 1 and 2 = 7. Strings are fixed-length, as CellRanger writes them.
void writeTenxV2(const std::string& path, const std::vector<std::string>& barcodes) {
    H5Writer writer(path);
    writer.numbers("/GRCh38/data", H5T_STD_I32LE, {3}, {5, 1, 7});
    writer.numbers("/GRCh38/indices", H5T_STD_I64LE, {3}, {2, 0, 2});
    writer.numbers("/GRCh38/indptr", H5T_STD_I64LE, {3}, {0, 1, 3});
    writer.numbers("/GRCh38/shape", H5T_STD_I32LE, {2}, {3, 2});
    writer.strings("/GRCh38/barcodes", barcodes, 18);
    writer.strings("/GRCh38/genes", {"ENSG1", "ENSG2", "ENSG3"}, 15);
    writer.strings("/GRCh38/gene_names", {"CD3E", "CD4", "MS4A1"}, 15);
}

}  // namespace

TEST(TenX, ReadsCellRangerV2GenomeGroupWithFixedLengthStrings) {
    TempDir dir;
    const std::string path = dir.file("v2.h5");
    writeTenxV2(path, {"AAAC-1", "TTTG-1"});
    const Dataset data = readDataset(path);
    EXPECT_EQ(data.n, 2u);
    EXPECT_EQ(data.d, 3u);
    EXPECT_EQ(data.values, (std::vector<float>{0, 0, 5, 1, 0, 7}));
    EXPECT_EQ(data.features, (std::vector<std::string>{"CD3E", "CD4", "MS4A1"}));
    EXPECT_EQ(data.descriptions, (std::vector<std::string>{"ENSG1", "ENSG2", "ENSG3"}));
    EXPECT_EQ(data.pointNames, (std::vector<std::string>{"AAAC-1", "TTTG-1"}));
    EXPECT_EQ(data.provenance.detail, "/GRCh38 CSC genes x barcodes (CellRanger v2)");
}

TEST(TenX, BarcodeCountMustMatchTheShape) {
    TempDir dir;
    const std::string path = dir.file("v2.h5");
    writeTenxV2(path, {"AAAC-1", "TTTG-1", "GGGA-1"});
    EXPECT_THAT(errorOf(path), HasSubstr("/GRCh38/barcodes: has 3 entries but the matrix shape says 2 barcodes"));
}

TEST(Hdf5, ReadsNamedDatasetsOfIntegerAndFloatTypes) {
    TempDir dir;
    const std::string path = dir.file("named.h5");
    {
        H5Writer writer(path);
        writer.numbers("/data/X", H5T_STD_I16BE, {2, 3}, {1, -2, 3, 4, 5, -32768});
        writer.numbers("/data/counts", H5T_STD_U8LE, {3, 2}, {0, 255, 7, 8, 9, 10});
        writer.numbers("/data/Y", H5T_IEEE_F64LE, {2, 2}, {0.1, 1e30, -2.5, 3.0});
        writer.stringAttribute("/data/Y", "note", "ignored");
    }
    const Dataset x = readDataset(path, datasetOption("/data/X"));
    EXPECT_EQ(x.n, 2u);
    EXPECT_EQ(x.d, 3u);
    EXPECT_EQ(x.values, (std::vector<float>{1, -2, 3, 4, 5, -32768}));
    EXPECT_EQ(x.features, (std::vector<std::string>{"V1", "V2", "V3"}));
    EXPECT_EQ(x.provenance.format, "h5");
    EXPECT_EQ(x.provenance.detail, "/data/X as dense int16");
    EXPECT_EQ(readDataset(path, datasetOption("data/counts")).values, (std::vector<float>{0, 255, 7, 8, 9, 10}));
    const Dataset y = readDataset(path, datasetOption("/data/Y"));
    EXPECT_EQ(y.values, (std::vector<float>{0.1f, 1e30f, -2.5f, 3.0f}));
}

TEST(Hdf5, FeatureNamesComeFromTheDatasetsAttributeWhenItFits) {
    TempDir dir;
    const std::string path = dir.file("named.h5");
    {
        H5Writer writer(path);
        writer.numbers("/named", H5T_IEEE_F32LE, {2, 2}, {1, 2, 3, 4});
        writer.stringsAttribute("/named", "features", {"CD3", "CD19"});
        writer.numbers("/wrong", H5T_IEEE_F32LE, {2, 2}, {1, 2, 3, 4});
        writer.stringsAttribute("/wrong", "features", {"CD3", "CD19", "CD45"});
    }
    EXPECT_EQ(readDataset(path, datasetOption("/named")).features, (std::vector<std::string>{"CD3", "CD19"}));
    EXPECT_EQ(readDataset(path, datasetOption("/wrong")).features, (std::vector<std::string>{"V1", "V2"}));
}

TEST(Hdf5, SingleTopLevelMatrixIsReadWithoutDatasetOption) {
    TempDir dir;
    const std::string path = dir.file("single.hdf5");
    {
        H5Writer writer(path);
        writer.numbers("/values", H5T_IEEE_F32LE, {3, 1}, {1, 2, 3});
        writer.numbers("/labels", H5T_STD_I32LE, {3}, {0, 1, 1});
    }
    const Dataset data = readDataset(path);
    EXPECT_EQ(data.n, 3u);
    EXPECT_EQ(data.d, 1u);
    EXPECT_EQ(data.provenance.detail, "/values as dense float32");
}

TEST(Hdf5, WithoutDatasetOptionListsTopLevelNamesAndTheOption) {
    TempDir dir;
    const std::string path = dir.file("two.h5");
    {
        H5Writer writer(path);
        writer.numbers("/a", H5T_IEEE_F32LE, {2, 2}, {1, 2, 3, 4});
        writer.numbers("/b", H5T_IEEE_F32LE, {2, 2}, {1, 2, 3, 4});
    }
    EXPECT_THAT(errorOf(path),
                AllOf(HasSubstr("two.h5: "), HasSubstr("top level of the file holds: a, b"), HasSubstr("--dataset")));
}

namespace {

// A plain .h5 file with one object of each kind the error tests need.
std::string writeMixedFile(const TempDir& dir) {
    const std::string path = dir.file("mixed.h5");
    H5Writer writer(path);
    writer.numbers("/data/X", H5T_IEEE_F32LE, {2, 2}, {1, 2, 3, 4});
    writer.numbers("/data/labels", H5T_STD_I32LE, {2}, {0, 1});
    writer.numbers("/data/v", H5T_IEEE_F64LE, {5}, {1, 2, 3, 4, 5});
    writer.strings("/names", {"a", "b"});
    return path;
}

}  // namespace

TEST(Hdf5, MissingDatasetIsNamedWithWhatItsGroupHolds) {
    TempDir dir;
    const std::string path = writeMixedFile(dir);
    EXPECT_THAT(errorOf(path, datasetOption("/data/Z")),
                AllOf(HasSubstr("mixed.h5: /data/Z: not found"), HasSubstr("/data holds: X, labels, v"),
                      HasSubstr("--dataset")));
    EXPECT_THAT(errorOf(path, datasetOption("/nothing/here")),
                AllOf(HasSubstr("/nothing/here: not found"), HasSubstr("top level of the file holds: data, names")));
    EXPECT_THAT(errorOf(path, datasetOption("/data/X/deeper")),
                HasSubstr("/data/X/deeper: not found: /data/X is a dataset, not a group"));
}

TEST(Hdf5, DatasetsThatAreNotNumericMatricesAreRefused) {
    TempDir dir;
    const std::string path = writeMixedFile(dir);
    EXPECT_THAT(errorOf(path, datasetOption("/data/v")),
                HasSubstr("mixed.h5: /data/v: is 1-D (5 values); a 2-D dataset (points x features) is needed"));
    EXPECT_THAT(errorOf(path, datasetOption("/names")),
                HasSubstr("/names: unsupported type: the dataset holds text strings, not numbers"));
    EXPECT_THAT(errorOf(path, datasetOption("/data")),
                AllOf(HasSubstr("/data: is a group, not a 2-D dataset or a sparse matrix"),
                      HasSubstr("it holds: X, labels, v")));
}

TEST(Hdf5, EmbeddingOptionNeedsAnAnnDataFile) {
    TempDir dir;
    ReadOptions options;
    options.embedding = "X_umap";
    EXPECT_THAT(errorOf(writeMixedFile(dir), options), HasSubstr("only be chosen in an AnnData .h5ad file"));
}

TEST(Hdf5, GarbageFileWithH5ExtensionIsNotHdf5) {
    TempDir dir;
    writeFile(dir.file("garbage.h5"), "this is not HDF5 at all, just some text\n");
    EXPECT_THAT(errorOf(dir.file("garbage.h5")), HasSubstr("garbage.h5: not an HDF5 file"));
    writeFile(dir.file("empty.h5ad"), "");
    EXPECT_THAT(errorOf(dir.file("empty.h5ad")), HasSubstr("empty.h5ad: not an HDF5 file"));
}

TEST(Hdf5, CscGroupIsTransposedAndDuplicatesAreSummed) {
    TempDir dir;
    // 2 x 3 matrix [[1, 0, 2], [0, 3, 4]] stored by columns; column 2 lists row 1 twice (3 + 1).
    const std::string path =
        writeSparseFile(dir, "csc_matrix", {2, 3}, {{1, 3, 2, 3, 1}, {0, 1, 0, 1, 1}, {0, 1, 2, 5}});
    const Dataset data = readDataset(path, datasetOption("/m"));
    EXPECT_EQ(data.n, 2u);
    EXPECT_EQ(data.d, 3u);
    EXPECT_EQ(data.values, (std::vector<float>{1, 0, 2, 0, 3, 4}));
    EXPECT_EQ(data.provenance.detail, "/m as CSC");
}

TEST(Hdf5, CsrGroupWithBrokenArraysIsRefused) {
    TempDir dir;
    const std::vector<std::int64_t> shape{2, 3};
    EXPECT_THAT(
        errorOf(writeSparseFile(dir, "csr_matrix", shape, {{1, 2, 3}, {0, 1, 2}, {0, 1, 2, 3}}), datasetOption("/m")),
        HasSubstr("/m/indptr: has 4 entries; the matrix shape needs 3 (one per row plus one)"));
    EXPECT_THAT(
        errorOf(writeSparseFile(dir, "csr_matrix", shape, {{1, 2, 3}, {0, 1, 2}, {0, 2, 1}}), datasetOption("/m")),
        HasSubstr("/m/indptr: decreases at entry 2 (2 then 1)"));
    EXPECT_THAT(
        errorOf(writeSparseFile(dir, "csr_matrix", shape, {{1, 2, 3}, {0, 1, 2}, {1, 2, 3}}), datasetOption("/m")),
        HasSubstr("/m/indptr: starts at 1 instead of 0"));
    EXPECT_THAT(errorOf(writeSparseFile(dir, "csr_matrix", shape, {{1, 2}, {0, 1, 2}, {0, 1, 3}}), datasetOption("/m")),
                HasSubstr("/m/data: has 2 entries but indptr ends at 3"));
    EXPECT_THAT(
        errorOf(writeSparseFile(dir, "csr_matrix", shape, {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}}), datasetOption("/m")),
        HasSubstr("/m/indices: entry 1 is 3; the matrix shape allows indices 0..2"));
}

TEST(Hdf5, RefusesMatricesBeyondTheDenseLimitWithTheNumbers) {
    TempDir dir;
    const std::string path = dir.file("huge.h5");
    {
        H5Writer writer(path);
        writer.emptyChunked("/big", {100000, 30000});
    }
    EXPECT_THAT(errorOf(path, datasetOption("/big")),
                AllOf(HasSubstr("/big: a dense float32 copy of 100000 x 30000 = 3000000000 values"),
                      HasSubstr("11 GiB"), HasSubstr("2147483648")));
    const std::string sparse = writeSparseFile(dir, "csr_matrix", {1000000, 40000}, {{}, {}, {0}});
    EXPECT_THAT(errorOf(sparse, datasetOption("/m")), HasSubstr("1000000 x 40000 = 40000000000 values"));
}

// Found by the hdf5 fuzz target: the GiB count of a 2^62 x 2^62 shape overflowed its conversion.
TEST(Hdf5, RefusesAstronomicalSparseShapesWithoutOverflow) {
    TempDir dir;
    const std::int64_t huge = std::int64_t{1} << 62;
    EXPECT_THAT(errorOf(writeSparseFile(dir, "csr_matrix", {huge, huge}, {{}, {}, {0}}), datasetOption("/m")),
                AllOf(HasSubstr("= more than 2^64 values"), HasSubstr("would need more than 10^15 GiB")));
}

// Found by the hdf5 fuzz target: a file of a few hundred bytes whose shape promises 2^30 values made the
// reader allocate 4 GiB. The limit is an option, so that callers with less memory can lower it.
TEST(Hdf5, MaxDenseValuesBoundsWhatASmallSparseFileCanAllocate) {
    TempDir dir;
    ReadOptions options = datasetOption("/m");
    options.maxDenseValues = 1 << 20;
    const std::vector<double> noEntries((1 << 15) + 1, 0.0);
    EXPECT_THAT(errorOf(writeSparseFile(dir, "csr_matrix", {1 << 15, 1 << 15}, {{}, {}, noEntries}), options),
                HasSubstr("32768 x 32768 = 1073741824 values would need 4 GiB; at most 1048576 values (4 MiB)"));
    const std::string small = writeSparseFile(dir, "csr_matrix", {2, 3}, {{1, 2, 3}, {0, 1, 2}, {0, 1, 3}});
    options.maxDenseValues = 5;
    EXPECT_THAT(errorOf(small, options), HasSubstr("2 x 3 = 6 values"));
    options.maxDenseValues = 6;
    EXPECT_EQ(readDataset(small, options).values.size(), 6u);
}

#else  // CLUSTERLENS_TEST_HDF5

TEST(Hdf5, BuildWithoutHdf5RefusesClearly) {
    EXPECT_THAT(errorOf(dataPath("h5ad/pbmc_small_dense.h5ad")), HasSubstr("this build has no HDF5 support"));
}

#endif  // CLUSTERLENS_TEST_HDF5
