// HDF5 input: a named 2-D dataset (--dataset), a 10x Genomics feature-barcode matrix, or an AnnData
// .h5ad file. This file chooses the format and reads matrices; tenx_reader.cpp and anndata_reader.cpp
// add the names and embeddings of their formats.

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"

#ifdef CLUSTERLENS_HAVE_HDF5

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <mutex>

#include "hdf5_handles.hpp"

namespace clusterlens {
namespace h5 {
namespace {

constexpr std::uint64_t kSparseBlock = std::uint64_t{1} << 20;

std::string withFilters(const std::string& text, const std::string& filters) {
    return filters.empty() ? text : text + " (" + filters + ")";
}

std::string rankText(const std::vector<std::uint64_t>& dims) {
    if (dims.empty()) return "a single value (scalar)";
    if (dims.size() == 1) return "1-D (" + std::to_string(dims[0]) + " values)";
    std::string text = std::to_string(dims.size()) + "-D (";
    for (std::size_t i = 0; i < dims.size(); ++i) text += (i == 0 ? "" : " x ") + std::to_string(dims[i]);
    return text + ")";
}

void checkIndptr(const File& file, const SparseLayout& layout, const std::vector<std::int64_t>& indptr) {
    const std::string object = join(layout.group, "indptr");
    if (indptr.size() != layout.majorCount + 1)
        file.fail(object, "has " + std::to_string(indptr.size()) + " entries; the matrix shape needs " +
                              std::to_string(layout.majorCount + 1) + " (one per " + layout.majorName + " plus one)");
    if (indptr.front() != 0) file.fail(object, "starts at " + std::to_string(indptr.front()) + " instead of 0");
    for (std::size_t k = 0; k + 1 < indptr.size(); ++k)
        if (indptr[k + 1] < indptr[k])
            file.fail(object, "decreases at entry " + std::to_string(k + 1) + " (" + std::to_string(indptr[k]) +
                                  " then " + std::to_string(indptr[k + 1]) + ")");
}

/// `values` = `count` zeros, written in blocks of kSparseBlock with a look at the file's control before
/// each: the page faults of a dense copy of a million cells take a few hundred milliseconds.
void zeroFill(const File& file, std::vector<float>& values, std::size_t count) {
    values.reserve(count);
    for (std::size_t done = 0; done < count; done += kSparseBlock) {
        file.checkCancelled();
        values.resize(std::min<std::size_t>(count, done + kSparseBlock));
    }
}

void checkEntryCount(const File& file, const std::string& object, std::uint64_t nnz) {
    const std::vector<std::uint64_t> dims = file.shape(object);
    if (dims.size() != 1) file.fail(object, "is " + rankText(dims) + "; a 1-D array is needed");
    if (dims[0] != nnz)
        file.fail(object, "has " + std::to_string(dims[0]) + " entries but indptr ends at " + std::to_string(nnz) +
                              " (the number of stored values)");
}

Matrix readDense(const File& file, const std::string& object) {
    Handle dataset = file.openDataset(object);
    file.requireNumeric(object, dataset.get());
    const std::vector<std::uint64_t> dims = file.shape(object);
    if (dims.size() != 2) file.fail(object, "is " + rankText(dims) + "; a 2-D dataset (points x features) is needed");
    checkDenseSize(file, object, dims[0], dims[1]);
    const std::string filters = file.filters(object, dataset.get());
    Matrix matrix;
    matrix.n = dims[0];
    matrix.d = dims[1];
    matrix.values = file.readFloats(object);
    matrix.detail = withFilters(object.substr(1) + " as dense " + file.typeName(dataset.get()), filters);
    return matrix;
}

// AnnData's encodings of scipy sparse matrices: anndata >= 0.7 writes encoding-type and shape,
// older versions (and the h5sparse package) h5sparse_format and h5sparse_shape.
Matrix readEncodedSparse(const File& file, const std::string& group) {
    const auto encoding = file.stringAttribute(group, "encoding-type");
    const auto legacy = file.stringAttribute(group, "h5sparse_format");
    const bool csr = encoding == "csr_matrix" || legacy == "csr";
    if (!csr && encoding != "csc_matrix" && legacy != "csc") {
        file.fail(group,
                  "is a group, not a 2-D dataset or a sparse matrix (no encoding-type csr_matrix or "
                  "csc_matrix attribute); it holds: " +
                      listNames(file.children(group)));
    }
    auto shape = file.integersAttribute(group, "shape");
    if (!shape) shape = file.integersAttribute(group, "h5sparse_shape");
    if (!shape || shape->size() != 2 || (*shape)[0] < 0 || (*shape)[1] < 0)
        file.fail(group, "sparse matrix without a valid 'shape' attribute (rows, columns)");
    const auto rows = static_cast<std::uint64_t>((*shape)[0]), columns = static_cast<std::uint64_t>((*shape)[1]);
    SparseLayout layout{group, csr ? rows : columns, csr ? columns : rows, csr, csr ? "row" : "column"};
    Matrix matrix = readSparse(file, layout);
    const std::string data = join(group, "data");
    matrix.detail =
        withFilters(group.substr(1) + (csr ? " as CSR" : " as CSC"), file.filters(data, file.openDataset(data).get()));
    return matrix;
}

std::vector<std::string> columnNames(const File& file, const std::string& object, std::size_t d) {
    for (const char* attribute : {"features", "column_names", "colnames"}) {
        auto names = file.stringsAttribute(object, attribute);
        if (names && names->size() == d) return *names;
    }
    std::vector<std::string> names;
    for (std::size_t j = 0; j < d; ++j) names.push_back("V" + std::to_string(j + 1));
    return names;
}

Dataset readNamed(const File& file, const std::string& object) {
    if (!file.exists(object)) file.failMissing(object, "choose a 2-D dataset with --dataset /path/in/file");
    if (file.isGroup(object) && isTenxGroup(file, object)) return readTenx(file, object);
    Matrix matrix = readMatrix(file, object);
    Dataset data;
    data.n = matrix.n;
    data.d = matrix.d;
    data.values = std::move(matrix.values);
    data.features = columnNames(file, object, data.d);
    data.provenance.format = "h5";
    data.provenance.detail = "/" + matrix.detail;
    return data;
}

// Without --dataset: a 10x matrix (/matrix, or one genome group of CellRanger v2), else the only
// 2-D dataset at the top level; anything else asks the user to choose.
Dataset readAutomatic(const File& file) {
    if (file.isGroup("/matrix") && isTenxGroup(file, "/matrix")) return readTenx(file, "/matrix");
    std::vector<std::string> tenxGroups, matrices, names = file.children("/");
    for (const std::string& name : names) {
        const std::string object = join("/", name);
        if (file.isGroup(object) && isTenxGroup(file, object)) tenxGroups.push_back(object);
        if (file.isDataset(object) && file.shape(object).size() == 2) matrices.push_back(object);
    }
    if (tenxGroups.size() == 1) return readTenx(file, tenxGroups.front());
    if (tenxGroups.size() > 1)
        file.fail("", "holds several 10x matrices (" + listNames(tenxGroups) + "); choose one with --dataset " +
                          tenxGroups.front());
    if (matrices.size() == 1) return readNamed(file, matrices.front());
    file.fail("", "no 10x matrix (/matrix) and no single 2-D dataset found; the top level of the file holds: " +
                      (names.empty() ? std::string("nothing") : listNames(names)) +
                      "; choose a 2-D dataset with --dataset /path/in/file");
}

bool isAnnData(const File& file, const std::string& path) {
    std::string extension = std::filesystem::path(path).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension == ".h5ad") return true;
    if (file.stringAttribute("/", "encoding-type") == "anndata") return true;
    return file.exists("/X") && file.isGroup("/obs") && file.isGroup("/var");
}

}  // namespace

void checkDenseSize(const File& file, const std::string& object, std::uint64_t n, std::uint64_t d) {
    const std::uint64_t limit = file.maxDenseValues();
    if (d == 0 || n <= limit / d) return;
    const double gib = static_cast<double>(n) * static_cast<double>(d) * 4.0 / (1024.0 * 1024.0 * 1024.0);
    const std::string product = n <= UINT64_MAX / d ? std::to_string(n * d) : std::string("more than 2^64");
    // A shape read from a file can be up to 2^64 x 2^64: beyond 10^15 GiB the count is not converted.
    const std::string size = gib < 1e15 ? std::to_string(static_cast<long long>(gib + 0.5)) : "more than 10^15";
    file.fail(object, "a dense float32 copy of " + std::to_string(n) + " x " + std::to_string(d) + " = " + product +
                          " values would need " + size + " GiB; at most " + std::to_string(limit) + " values (" +
                          std::to_string(limit >> 18) +
                          " MiB) are loaded: select features or "
                          "subsample the points first");
}

Matrix readSparse(const File& file, const SparseLayout& layout) {
    Matrix matrix;
    matrix.n = layout.majorIsRow ? layout.majorCount : layout.minorCount;
    matrix.d = layout.majorIsRow ? layout.minorCount : layout.majorCount;
    checkDenseSize(file, layout.group, matrix.n, matrix.d);
    const std::string dataPath = join(layout.group, "data"), indicesPath = join(layout.group, "indices");
    const std::vector<std::int64_t> indptr = file.readIntegers(join(layout.group, "indptr"));
    checkIndptr(file, layout, indptr);
    const auto nnz = static_cast<std::uint64_t>(indptr.back());
    checkEntryCount(file, dataPath, nnz);
    checkEntryCount(file, indicesPath, nnz);
    Handle data = file.openDataset(dataPath), indices = file.openDataset(indicesPath);
    file.requireNumeric(dataPath, data.get());
    file.requireNumeric(indicesPath, indices.get());
    file.filters(dataPath, data.get());
    file.filters(indicesPath, indices.get());

    zeroFill(file, matrix.values, matrix.n * matrix.d);
    std::vector<float> blockValues(std::min(nnz, kSparseBlock));
    std::vector<std::int64_t> blockIndices(blockValues.size());
    std::uint64_t major = 0;
    for (std::uint64_t start = 0; start < nnz; start += kSparseBlock) {
        file.checkCancelled();
        const std::uint64_t count = std::min(kSparseBlock, nnz - start);
        file.readBlock(dataPath, data.get(), H5T_NATIVE_FLOAT, start, count, blockValues.data());
        file.readBlock(indicesPath, indices.get(), H5T_NATIVE_INT64, start, count, blockIndices.data());
        for (std::uint64_t k = 0; k < count; ++k) {
            while (static_cast<std::uint64_t>(indptr[major + 1]) <= start + k) ++major;
            const std::int64_t minor = blockIndices[k];
            if (minor < 0 || static_cast<std::uint64_t>(minor) >= layout.minorCount)
                file.fail(indicesPath, "entry " + std::to_string(start + k) + " is " + std::to_string(minor) +
                                           "; the matrix shape allows indices " +
                                           (layout.minorCount == 0 ? std::string("none")
                                                                   : "0.." + std::to_string(layout.minorCount - 1)));
            const auto m = static_cast<std::size_t>(minor);
            const std::size_t row = layout.majorIsRow ? major : m, column = layout.majorIsRow ? m : major;
            matrix.values[row * matrix.d + column] += blockValues[k];
        }
    }
    return matrix;
}

Matrix readMatrix(const File& file, const std::string& object) {
    const std::string path = absolutePath(object);
    if (!file.exists(path)) file.failMissing(path, "");
    return file.isGroup(path) ? readEncodedSparse(file, path) : readDense(file, path);
}

}  // namespace h5

Dataset readHdf5(const std::string& path, const ReadOptions& options) {
    // The HDF5 library is not thread-safe unless built so; readers may run on several job threads.
    const std::lock_guard<std::mutex> lock(h5::libraryMutex());
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);

    h5::File file(path);
    file.setMaxDenseValues(options.maxDenseValues);
    file.setControl(options.control);
    Dataset data;
    if (h5::isAnnData(file, path)) {
        data = h5::readAnnData(file, options);
    } else if (!options.embedding.empty()) {
        file.fail("", "an embedding (" + options.embedding + ") can only be chosen in an AnnData .h5ad file");
    } else if (!options.h5Dataset.empty()) {
        data = h5::readNamed(file, h5::absolutePath(options.h5Dataset));
    } else {
        data = h5::readAutomatic(file);
    }
    data.provenance.path = path;
    return data;
}

}  // namespace clusterlens

#else  // CLUSTERLENS_HAVE_HDF5

namespace clusterlens {

Dataset readHdf5(const std::string& path, const ReadOptions& /*options*/) {
    throw InvalidInput(path + ": this build has no HDF5 support");
}

}  // namespace clusterlens

#endif  // CLUSTERLENS_HAVE_HDF5
