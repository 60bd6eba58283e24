#ifdef CLUSTERLENS_HAVE_HDF5

#include "session/h5_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>
#include <utility>

#include "clusterlens/errors.hpp"

namespace clusterlens::h5 {
namespace {

/// Arrays from this many elements are chunked and compressed (shuffle + deflate) when HDF5 has deflate.
constexpr hsize_t kCompressFrom = 4096;
/// Elements per chunk: large enough for deflate, small enough to keep the write buffer bounded.
constexpr hsize_t kChunkElements = hsize_t{1} << 16;

Handle utf8StringType() {
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    return type;
}

/// Dataset creation properties: chunked and compressed for large arrays, contiguous otherwise.
Handle creationProperties(int rank, const hsize_t* dims) {
    Handle plist(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    hsize_t count = 1;
    for (int i = 0; i < rank; ++i) count *= dims[i];
    if (count < kCompressFrom || H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0) return plist;
    hsize_t chunk[2] = {dims[0], rank == 2 ? dims[1] : 1};
    const hsize_t rowElements = rank == 2 ? std::max<hsize_t>(dims[1], 1) : 1;
    chunk[0] = std::clamp<hsize_t>(kChunkElements / rowElements, 1, dims[0]);
    H5Pset_chunk(plist.get(), rank, chunk);
    H5Pset_shuffle(plist.get());
    H5Pset_deflate(plist.get(), 4);
    return plist;
}

}  // namespace

Writer::Writer(const std::string& path, const std::string& displayPath, hsize_t userBlock)
    : m_path(displayPath), m_imagePath(path), m_userBlock(userBlock) {
    Handle creation(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
    if (H5Pset_userblock(creation.get(), userBlock) < 0) fail("", "the file's user block could not be set up");
    Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    // The oldest format that stores everything written here, so that older HDF5 (h5py) reads it.
    H5Pset_libver_bounds(access.get(), H5F_LIBVER_EARLIEST, H5F_LIBVER_LATEST);
    // Built in memory and written by close(): HDF5 itself never meets a full disk. A write error
    // inside HDF5 leaves a file id that the library's shutdown later crashes on (HDF5 1.10).
    if (H5Pset_fapl_core(access.get(), std::size_t{1} << 20, false) < 0)
        fail("", "the file could not be set up in memory");
    m_file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, creation.get(), access.get());
    if (m_file < 0) fail("", "the file could not be created");
}

Writer::Writer(Existing, const std::string& path, const std::string& displayPath)
    : m_path(displayPath), m_imagePath(path) {
    Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
#if H5_VERSION_GE(1, 10, 7)
    H5Pset_file_locking(access.get(), true, true);  // as the readers: locks where the file system has them
#endif
    // Read into memory and changed there, then written back by close(), as new files are: HDF5 never
    // writes to the disk itself (see the other constructor).
    if (H5Pset_fapl_core(access.get(), std::size_t{1} << 20, false) < 0)
        fail("", "the file could not be set up in memory");
    m_file = H5Fopen(path.c_str(), H5F_ACC_RDWR, access.get());
    if (m_file < 0) fail("", "the file could not be opened for writing");
    Handle creation(H5Fget_create_plist(m_file), H5Pclose);
    if (!creation.valid() || H5Pget_userblock(creation.get(), &m_userBlock) < 0)
        fail("", "the file's user block could not be read");
    if (m_userBlock > 0) {
        m_userBlockBytes.resize(static_cast<std::size_t>(m_userBlock));
        std::FILE* in = std::fopen(path.c_str(), "rb");
        const bool read =
            in && std::fread(m_userBlockBytes.data(), 1, m_userBlockBytes.size(), in) == m_userBlockBytes.size();
        if (in) std::fclose(in);
        if (!read) throwFileError(m_path, "", "the file's user block could not be read");
    }
}

Writer::~Writer() {
    if (m_file >= 0) H5Fclose(m_file);
}

void Writer::close() {
    if (H5Fflush(m_file, H5F_SCOPE_GLOBAL) < 0) fail("", "the file could not be flushed");
    const ssize_t size = H5Fget_file_image(m_file, nullptr, 0);
    if (size < 0) fail("", "the file could not be assembled");
    std::vector<char> image(static_cast<std::size_t>(size));
    if (H5Fget_file_image(m_file, image.data(), image.size()) != size) fail("", "the file could not be assembled");
    // The image starts at the superblock; on disk the user block comes first (an existing file's own
    // bytes, zeros in a new file, whose owner writes its header there).
    m_userBlockBytes.resize(static_cast<std::size_t>(m_userBlock), '\0');
    image.insert(image.begin(), m_userBlockBytes.begin(), m_userBlockBytes.end());
    const hid_t id = std::exchange(m_file, H5I_INVALID_HID);
    if (H5Fclose(id) < 0) fail("", "the file could not be closed");
    std::FILE* out = std::fopen(m_imagePath.c_str(), "wb");
    if (!out) throwFileError(m_path, "", std::string("the file could not be created: ") + std::strerror(errno));
    const bool written = std::fwrite(image.data(), 1, image.size(), out) == image.size();
    const int error = errno;
    if (std::fclose(out) != 0 || !written)
        throwFileError(m_path, "",
                       std::string("the file could not be written: ") + std::strerror(written ? errno : error));
}

void Writer::fail(const std::string& object, const std::string& what) const {
    const std::string detail = innermostError();
    throwFileError(m_path, object, detail.empty() ? what : what + " (HDF5: " + detail + ")");
}

Handle Writer::group(hid_t parent, const std::string& name, const std::string& object) const {
    Handle handle(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!handle.valid()) fail(object, "the group could not be created");
    return handle;
}

void Writer::attribute(hid_t owner, const std::string& object, const char* name, const std::string& value) const {
    Handle type = utf8StringType();
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attribute(H5Acreate2(owner, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    const char* text = value.c_str();
    if (!attribute.valid() || H5Awrite(attribute.get(), type.get(), &text) < 0)
        fail(object + " attribute " + name, "could not be written");
}

void Writer::attribute(hid_t owner, const std::string& object, const char* name, std::int64_t value) const {
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attribute(H5Acreate2(owner, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attribute.valid() || H5Awrite(attribute.get(), H5T_NATIVE_INT64, &value) < 0)
        fail(object + " attribute " + name, "could not be written");
}

void Writer::attribute(hid_t owner, const std::string& object, const char* name, double value) const {
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attribute(H5Acreate2(owner, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attribute.valid() || H5Awrite(attribute.get(), H5T_NATIVE_DOUBLE, &value) < 0)
        fail(object + " attribute " + name, "could not be written");
}

void Writer::strings(hid_t group, const std::string& object, const char* name,
                     const std::vector<std::string>& values) const {
    Handle type = utf8StringType();
    const hsize_t count = values.size();
    Handle space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    Handle dataset(H5Dcreate2(group, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
    std::vector<const char*> pointers;
    pointers.reserve(values.size());
    for (const std::string& value : values) pointers.push_back(value.c_str());
    if (!dataset.valid() ||
        (count > 0 && H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()) < 0))
        fail(object + "/" + name, "could not be written");
}

void Writer::numeric(hid_t group, const std::string& object, const char* name, hid_t fileType, hid_t memoryType,
                     const void* data, int rank, const hsize_t* dims) const {
    Handle space(H5Screate_simple(rank, dims, nullptr), H5Sclose);
    Handle plist = creationProperties(rank, dims);
    Handle dataset(H5Dcreate2(group, name, fileType, space.get(), H5P_DEFAULT, plist.get(), H5P_DEFAULT), H5Dclose);
    hsize_t count = 1;
    for (int i = 0; i < rank; ++i) count *= dims[i];
    if (!dataset.valid() || (count > 0 && H5Dwrite(dataset.get(), memoryType, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0))
        fail(object + "/" + name, "could not be written");
}

void Writer::array(hid_t group, const std::string& object, const char* name,
                   const std::vector<std::int32_t>& values) const {
    const hsize_t dims = values.size();
    numeric(group, object, name, H5T_STD_I32LE, H5T_NATIVE_INT32, values.data(), 1, &dims);
}

void Writer::array(hid_t group, const std::string& object, const char* name, const std::vector<std::int32_t>& values,
                   hid_t fileType) const {
    const hsize_t dims = values.size();
    numeric(group, object, name, fileType, H5T_NATIVE_INT32, values.data(), 1, &dims);
}

void Writer::array(hid_t group, const std::string& object, const char* name,
                   const std::vector<std::int64_t>& values) const {
    const hsize_t dims = values.size();
    numeric(group, object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, values.data(), 1, &dims);
}

void Writer::array(hid_t group, const std::string& object, const char* name, const std::vector<double>& values) const {
    const hsize_t dims = values.size();
    numeric(group, object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, values.data(), 1, &dims);
}

void Writer::array(hid_t group, const std::string& object, const char* name,
                   const std::vector<std::uint8_t>& values) const {
    const hsize_t dims = values.size();
    numeric(group, object, name, H5T_STD_U8LE, H5T_NATIVE_UINT8, values.data(), 1, &dims);
}

void Writer::matrix(hid_t group, const std::string& object, const char* name, const float* values, hsize_t rows,
                    hsize_t cols) const {
    const hsize_t dims[2] = {rows, cols};
    numeric(group, object, name, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, values, 2, dims);
}

}  // namespace clusterlens::h5

#endif  // CLUSTERLENS_HAVE_HDF5
