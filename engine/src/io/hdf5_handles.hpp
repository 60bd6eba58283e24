#pragma once
// Internal to the HDF5 readers (hdf5_reader.cpp, anndata_reader.cpp, tenx_reader.cpp): ownership of
// HDF5 identifiers, an open file that turns every failure into a user-facing InvalidInput naming the
// file and the HDF5 object, and the matrix vocabulary the three formats share.

#ifdef CLUSTERLENS_HAVE_HDF5

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "clusterlens/io/read_options.hpp"

namespace clusterlens::h5 {

/// Owns one hid_t and releases it with the close function of its kind (H5Dclose, H5Tclose, ...).
class Handle {
public:
    using Closer = herr_t (*)(hid_t);
    Handle() = default;
    Handle(hid_t id, Closer closer) : m_id(id), m_closer(closer) {}
    ~Handle() { reset(); }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& other) noexcept : m_id(other.m_id), m_closer(other.m_closer) { other.m_id = H5I_INVALID_HID; }
    Handle& operator=(Handle&& other) noexcept;

    hid_t get() const { return m_id; }
    bool valid() const { return m_id >= 0; }
    void reset();

private:
    hid_t m_id = H5I_INVALID_HID;
    Closer m_closer = nullptr;
};

/// The HDF5 library here is not thread-safe: every use of it (readers, the session file) holds this lock.
std::mutex& libraryMutex();
/// The innermost message of HDF5's current error stack, or "" when it is empty.
std::string innermostError();

/// Joins an HDF5 group path and a child name ("/" + "X" -> "/X", "/matrix" + "data" -> "/matrix/data").
std::string join(const std::string& group, const std::string& name);
/// Parent group of an absolute object path ("/raw/X" -> "/raw", "/X" -> "/").
std::string parentOf(const std::string& object);
/// "a, b, c" for messages, the first 20 names and a count of the rest.
std::string listNames(const std::vector<std::string>& names);
/// Absolute form of a user-given object path ("data/X" -> "/data/X").
std::string absolutePath(const std::string& object);

/// An HDF5 file opened read-only. Object paths are absolute ("/matrix/data"); every failure is thrown
/// as InvalidInput "FILE: OBJECT: REASON" through fail().
class File {
public:
    /// Opens PATH; throws "not an HDF5 file" when the signature is missing.
    explicit File(const std::string& path);
    /// Takes an already opened file (an in-memory image, say); PATH names it in messages.
    File(const std::string& path, Handle file) : m_path(path), m_file(std::move(file)) {}

    const std::string& path() const { return m_path; }
    hid_t id() const { return m_file.get(); }
    [[noreturn]] void fail(const std::string& object, const std::string& reason) const;
    /// fail() with the innermost message of HDF5's error stack appended.
    [[noreturn]] void failHdf5(const std::string& object, const std::string& what) const;

    bool exists(const std::string& object) const;
    bool isGroup(const std::string& object) const;
    bool isDataset(const std::string& object) const;
    /// Names (not paths) of the links in a group, in name order.
    std::vector<std::string> children(const std::string& group) const;
    /// Throws "not found", listing what the deepest existing group holds.
    [[noreturn]] void failMissing(const std::string& object, const std::string& hint) const;

    Handle openDataset(const std::string& object) const;
    Handle openGroup(const std::string& object) const;
    /// Opens the object (group or dataset) that carries attributes.
    Handle openObject(const std::string& object) const;

    /// Dimensions of a dataset (empty for a scalar).
    std::vector<std::uint64_t> shape(const std::string& object) const;
    /// Throws unless the dataset holds integers or floating-point numbers.
    void requireNumeric(const std::string& object, hid_t dataset) const;
    /// "float32", "int64", "uint16", ... for a numeric dataset.
    std::string typeName(hid_t dataset) const;
    /// Filters of a dataset as a short text ("gzip", "shuffle+gzip", "" when none). Throws when one of
    /// them is not available in this HDF5 library, before a read would fail less clearly.
    std::string filters(const std::string& object, hid_t dataset) const;

    /// A whole numeric dataset of any integer or float type, converted by HDF5. Read in blocks of whole
    /// rows, about 2^20 values (4 MiB of float32) each and whole chunks of chunked storage (so that no
    /// chunk is inflated twice), with a look at `control` (or, when null, the file's control()) before
    /// each: a cancel() throws Cancelled and nothing is returned.
    std::vector<float> readFloats(const std::string& object, const JobControl* control = nullptr) const;
    /// As readFloats, converted to int64, looking at the file's control().
    std::vector<std::int64_t> readIntegers(const std::string& object) const;
    /// COUNT elements from OFFSET of a 1-D dataset, converted to MEMORY_TYPE (a native type).
    void readBlock(const std::string& object, hid_t dataset, hid_t memoryType, std::uint64_t offset,
                   std::uint64_t count, void* out) const;
    /// A 1-D dataset of fixed- or variable-length strings, read in blocks of 2^16 strings with a look at
    /// the file's control() before each.
    std::vector<std::string> readStrings(const std::string& object) const;

    /// A string attribute (scalar or first element), or nullopt when absent or not a string.
    std::optional<std::string> stringAttribute(const std::string& object, const std::string& name) const;
    /// A string-array attribute, or nullopt when absent or not strings.
    std::optional<std::vector<std::string>> stringsAttribute(const std::string& object, const std::string& name) const;
    /// An integer-array attribute, or nullopt when absent or not numeric.
    std::optional<std::vector<std::int64_t>> integersAttribute(const std::string& object,
                                                               const std::string& name) const;

    /// The largest dense copy of a matrix of this file that the readers make (ReadOptions::maxDenseValues).
    std::uint64_t maxDenseValues() const { return m_maxDenseValues; }
    void setMaxDenseValues(std::uint64_t limit) { m_maxDenseValues = limit; }
    /// The job whose cancel() the reads of this file look at between blocks (ReadOptions::control); null:
    /// the reads cannot be cancelled.
    const JobControl* control() const { return m_control; }
    void setControl(const JobControl* control) { m_control = control; }
    /// Throws Cancelled when control() was cancelled.
    void checkCancelled() const;

private:
    std::string m_path;
    Handle m_file;
    std::uint64_t m_maxDenseValues = ReadOptions{}.maxDenseValues;
    const JobControl* m_control = nullptr;
};

/// Throws InvalidInput with the numbers when an N x D dense copy would exceed file.maxDenseValues().
void checkDenseSize(const File& file, const std::string& object, std::uint64_t n, std::uint64_t d);

/// A matrix read into dense row-major float32, n x d.
struct Matrix {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<float> values;
    std::string detail;  ///< provenance detail, e.g. "X as CSR (gzip)"
};

/// A compressed sparse matrix in a group holding data, indices and indptr. indptr has
/// majorCount + 1 entries; indices lie in [0, minorCount). With majorIsRow the major axis becomes
/// the rows of the result (CSR, or 10x CSC genes x barcodes read as cells x genes), else its columns.
struct SparseLayout {
    std::string group;
    std::uint64_t majorCount = 0;
    std::uint64_t minorCount = 0;
    bool majorIsRow = true;
    std::string majorName;  ///< one element of the major axis in messages: "row", "column", "barcode"
};

/// Densifies a sparse group after checking indptr (length, start 0, non-decreasing, end = nnz),
/// the lengths of data and indices and the range of every index. Duplicate entries are summed.
/// Memory: the dense result plus one block of data/indices; time O(n*d + nnz). The zeros of the result
/// are written and data and indices read in blocks of 2^20 entries, with a look at the file's control()
/// before each: a cancel() throws Cancelled.
Matrix readSparse(const File& file, const SparseLayout& layout);

/// A 2-D numeric dataset, or an AnnData-encoded sparse group (encoding-type csr_matrix/csc_matrix or
/// h5sparse_format csr/csc, with its shape attribute), as dense float32.
Matrix readMatrix(const File& file, const std::string& object);

/// True when GROUP holds a 10x feature-barcode matrix (data, indices, indptr, shape, barcodes).
bool isTenxGroup(const File& file, const std::string& group);
/// A 10x matrix group (CellRanger v3 /matrix or a v2 genome group) as cells x genes.
Dataset readTenx(const File& file, const std::string& group);

/// An AnnData .h5ad file: X (or options.h5Dataset, or obsm/<options.embedding>) with obs/var names
/// and obsm embeddings.
Dataset readAnnData(const File& file, const ReadOptions& options);

}  // namespace clusterlens::h5

#endif  // CLUSTERLENS_HAVE_HDF5
