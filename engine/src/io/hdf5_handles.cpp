#ifdef CLUSTERLENS_HAVE_HDF5

#include "io/hdf5_handles.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <utility>

#include "clusterlens/errors.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens::h5 {
namespace {

// Names HDF5 gives in H5Pget_filter2 are long ("deflate"); users know the h5py spellings.
std::string filterName(H5Z_filter_t filter, const char* libraryName) {
    switch (filter) {
        case H5Z_FILTER_DEFLATE:
            return "gzip";
        case H5Z_FILTER_SHUFFLE:
            return "shuffle";
        case H5Z_FILTER_FLETCHER32:
            return "fletcher32";
        case H5Z_FILTER_SZIP:
            return "szip";
        case H5Z_FILTER_NBIT:
            return "nbit";
        case H5Z_FILTER_SCALEOFFSET:
            return "scaleoffset";
        case 32000:
            return "lzf";
        case 32001:
            return "blosc";
        case 32004:
            return "lz4";
        case 32008:
            return "bitshuffle";
        case 32015:
            return "zstd";
        default:
            return libraryName[0] != '\0' ? std::string(libraryName) : "filter " + std::to_string(filter);
    }
}

herr_t keepInnermostError(unsigned /*n*/, const H5E_error2_t* error, void* clientData) {
    auto* message = static_cast<std::string*>(clientData);
    if (message->empty() && error->desc != nullptr) *message = error->desc;
    return 0;
}

void reclaimStrings(hid_t memoryType, hid_t space, void* pointers) {
#if H5_VERSION_GE(1, 12, 0)
    H5Treclaim(memoryType, space, H5P_DEFAULT, pointers);
#else
    H5Dvlen_reclaim(memoryType, space, H5P_DEFAULT, pointers);
#endif
}

/// Strings per block of a 1-D string dataset: 1M cell names are read in 16 blocks of milliseconds each.
constexpr std::size_t kStringsPerBlock = std::size_t{1} << 16;

/// Values per block of a numeric read: 4 MiB of float32, milliseconds of reading or inflating.
constexpr std::uint64_t kValuesPerBlock = std::uint64_t{1} << 20;

/// The pointers HDF5 fills for variable-length strings, freed together however the read ends: freed
/// block by block, malloc gave the memory back and faulted it in again for every block.
struct VariableStrings {
    hid_t memoryType;
    std::vector<char*> pointers;
    hsize_t filled = 0;
    ~VariableStrings() {
        if (filled == 0) return;
        Handle space(H5Screate_simple(1, &filled, nullptr), H5Sclose);
        reclaimStrings(memoryType, space.get(), pointers.data());
    }
};

// Strings of a dataset or an attribute: variable-length ones are copied out of HDF5's buffers,
// fixed-length ones are cut at the first NUL (HDF5 converts space padding to NUL padding). A 1-D
// dataset is read in blocks with a look at the file's control before each; attributes are small.
std::vector<std::string> readStringData(const File& file, const std::string& object, hid_t source, bool isAttribute) {
    Handle type(isAttribute ? H5Aget_type(source) : H5Dget_type(source), H5Tclose);
    Handle space(isAttribute ? H5Aget_space(source) : H5Dget_space(source), H5Sclose);
    if (!type.valid() || !space.valid()) file.failHdf5(object, "could not be inspected");
    if (H5Tget_class(type.get()) != H5T_STRING) file.fail(object, "holds numbers, not text");
    const hssize_t points = H5Sget_simple_extent_npoints(space.get());
    const auto count = static_cast<std::size_t>(points < 0 ? 0 : points);
    Handle memoryType(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_cset(memoryType.get(), H5Tget_cset(type.get()));
    const bool variable = H5Tis_variable_str(type.get()) > 0;
    const std::size_t width = variable ? sizeof(char*) : H5Tget_size(type.get());
    H5Tset_size(memoryType.get(), variable ? H5T_VARIABLE : width);
    if (!variable) H5Tset_strpad(memoryType.get(), H5T_STR_NULLPAD);
    const bool blocked = !isAttribute && H5Sget_simple_extent_ndims(space.get()) == 1;
    const std::size_t block = blocked ? kStringsPerBlock : std::max<std::size_t>(count, 1);
    std::vector<std::string> result;
    result.reserve(count);
    VariableStrings strings{memoryType.get(), std::vector<char*>(variable ? count : 0, nullptr)};
    std::vector<char> fixed(variable ? 0 : std::min(count, block) * width);
    for (std::size_t first = 0; first < count; first += block) {
        file.checkCancelled();
        const hsize_t offset = first, size = std::min(block, count - first);
        void* buffer = variable ? static_cast<void*>(strings.pointers.data() + first) : fixed.data();
        Handle memorySpace(blocked ? H5Screate_simple(1, &size, nullptr) : H5Scopy(space.get()), H5Sclose);
        const bool selected =
            !blocked || H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &offset, nullptr, &size, nullptr) >= 0;
        const herr_t status =
            isAttribute ? H5Aread(source, memoryType.get(), buffer)
                        : H5Dread(source, memoryType.get(), memorySpace.get(), space.get(), H5P_DEFAULT, buffer);
        if (!memorySpace.valid() || !selected || status < 0) file.failHdf5(object, "could not be read");
        if (variable) strings.filled = first + size;
        for (std::size_t i = 0; i < size; ++i) {
            if (variable) {
                const char* text = strings.pointers[first + i];
                result.emplace_back(text != nullptr ? text : "");
            } else {
                const char* cell = fixed.data() + i * width;
                result.emplace_back(cell, ::strnlen(cell, width));
            }
        }
    }
    return result;
}

/// Rows of a dataset of extent `dims` per block of a read: whole rows of about kValuesPerBlock values,
/// rounded up to whole chunks of chunked storage (HDF5's chunk cache of 1 MiB would otherwise inflate a
/// larger chunk again for every block that touches it). A chunk spanning all rows makes one block.
hsize_t rowsPerBlock(hid_t dataset, const std::vector<hsize_t>& dims) {
    const std::uint64_t rowValues =
        std::accumulate(dims.begin() + 1, dims.end(), std::uint64_t{1}, std::multiplies<std::uint64_t>());
    hsize_t rows = std::max<std::uint64_t>(1, kValuesPerBlock / std::max<std::uint64_t>(rowValues, 1));
    Handle plist(H5Dget_create_plist(dataset), H5Pclose);
    std::vector<hsize_t> chunk(dims.size(), 0);
    const int rank = static_cast<int>(dims.size());
    if (plist.valid() && H5Pget_layout(plist.get()) == H5D_CHUNKED &&
        H5Pget_chunk(plist.get(), rank, chunk.data()) == rank && chunk[0] > 0)
        rows = (rows + chunk[0] - 1) / chunk[0] * chunk[0];
    return rows;
}

/// A whole numeric dataset as `memoryType` (native T) into `values`: a scalar in one read, else in
/// blocks of rowsPerBlock rows with a look at `control` (when given) before each. `values` grows
/// block by block (its capacity reserved first), so that the page faults of a large result are spread
/// between the looks too.
template <typename T>
void readRowBlocks(const File& file, const std::string& object, hid_t dataset, hid_t memoryType, std::vector<T>& values,
                   const JobControl* control) {
    const std::vector<std::uint64_t> extent = file.shape(object);
    std::vector<hsize_t> start(extent.size(), 0), count(extent.begin(), extent.end());
    const std::size_t rowValues = std::accumulate(count.begin() + (count.empty() ? 0 : 1), count.end(), std::size_t{1},
                                                  std::multiplies<std::size_t>());
    const std::size_t rows = extent.empty() ? 1 : extent[0];
    values.reserve(rows * rowValues);
    if (extent.empty() || rowValues == 0) {
        values.resize(rows * rowValues);
        if (!values.empty() && H5Dread(dataset, memoryType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
            file.failHdf5(object, "could not be read");
        return;
    }
    const hsize_t blockRows = rowsPerBlock(dataset, count);
    Handle fileSpace(H5Dget_space(dataset), H5Sclose);
    for (hsize_t row = 0; row < extent[0]; row += blockRows) {
        if (control != nullptr) control->checkCancelled();
        start[0] = row;
        count[0] = std::min<hsize_t>(blockRows, extent[0] - row);
        values.resize((row + count[0]) * rowValues);
        Handle memorySpace(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr), H5Sclose);
        if (!fileSpace.valid() || !memorySpace.valid() ||
            H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr) < 0 ||
            H5Dread(dataset, memoryType, memorySpace.get(), fileSpace.get(), H5P_DEFAULT,
                    values.data() + row * rowValues) < 0)
            file.failHdf5(object, "rows " + std::to_string(row) + ".." + std::to_string(row + count[0] - 1) +
                                      " could not be read");
    }
}

template <typename T>
std::vector<T> readWhole(const File& file, const std::string& object, hid_t memoryType, const JobControl* control) {
    Handle dataset = file.openDataset(object);
    file.requireNumeric(object, dataset.get());
    file.filters(object, dataset.get());
    std::vector<T> values;
    readRowBlocks(file, object, dataset.get(), memoryType, values, control);
    return values;
}

}  // namespace

Handle& Handle::operator=(Handle&& other) noexcept {
    if (this != &other) {
        reset();
        m_id = std::exchange(other.m_id, H5I_INVALID_HID);
        m_closer = other.m_closer;
    }
    return *this;
}

void Handle::reset() {
    if (m_id >= 0 && m_closer != nullptr) m_closer(m_id);
    m_id = H5I_INVALID_HID;
}

std::mutex& libraryMutex() {
    static std::mutex mutex;
    return mutex;
}

std::string innermostError() {
    std::string detail;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keepInnermostError, &detail);
    return detail;
}

std::string join(const std::string& group, const std::string& name) {
    return group.empty() || group.back() == '/' ? group + name : group + "/" + name;
}

std::string parentOf(const std::string& object) {
    const auto slash = object.rfind('/');
    return slash == 0 || slash == std::string::npos ? "/" : object.substr(0, slash);
}

std::string listNames(const std::vector<std::string>& names) {
    constexpr std::size_t kShown = 20;
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < kShown; ++i) text += (i == 0 ? "" : ", ") + names[i];
    if (names.size() > kShown) text += ", ... (" + std::to_string(names.size() - kShown) + " more)";
    return text;
}

std::string absolutePath(const std::string& object) {
    std::string result = object.starts_with('/') ? object : "/" + object;
    while (result.size() > 1 && result.back() == '/') result.pop_back();
    return result;
}

File::File(const std::string& path) : m_path(path) {
#if H5_VERSION_GE(1, 12, 0)
    const htri_t isHdf5 = H5Fis_accessible(path.c_str(), H5P_DEFAULT);
#else
    const htri_t isHdf5 = H5Fis_hdf5(path.c_str());
#endif
    if (isHdf5 <= 0) fail("", "not an HDF5 file (no HDF5 signature found); .h5, .hdf5 and .h5ad inputs must be HDF5");
    Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
#if H5_VERSION_GE(1, 10, 7)
    // Network file systems often refuse locks; a reader does not need them to be enforced.
    H5Pset_file_locking(access.get(), true, true);
#endif
    m_file = Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get()), H5Fclose);
    if (!m_file.valid()) failHdf5("", "the HDF5 file could not be opened");
}

void File::fail(const std::string& object, const std::string& reason) const {
    throwFileError(m_path, object, reason);
}

void File::failHdf5(const std::string& object, const std::string& what) const {
    const std::string detail = innermostError();
    fail(object, detail.empty() ? what : what + " (HDF5: " + detail + ")");
}

bool File::exists(const std::string& object) const {
    const std::string path = absolutePath(object);
    if (path == "/") return true;
    // H5Lexists fails rather than answering when an intermediate group is missing: check each prefix.
    for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
        const std::string prefix = path.substr(0, slash);
        if (H5Lexists(id(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
        if (slash == std::string::npos) break;
    }
    return H5Oexists_by_name(id(), path.c_str(), H5P_DEFAULT) > 0;
}

bool File::isGroup(const std::string& object) const {
    if (!exists(object)) return false;
    Handle handle(H5Oopen(id(), absolutePath(object).c_str(), H5P_DEFAULT), H5Oclose);
    return handle.valid() && H5Iget_type(handle.get()) == H5I_GROUP;
}

bool File::isDataset(const std::string& object) const {
    if (!exists(object)) return false;
    Handle handle(H5Oopen(id(), absolutePath(object).c_str(), H5P_DEFAULT), H5Oclose);
    return handle.valid() && H5Iget_type(handle.get()) == H5I_DATASET;
}

std::vector<std::string> File::children(const std::string& group) const {
    Handle handle = openGroup(group);
    H5G_info_t info;
    if (H5Gget_info(handle.get(), &info) < 0) failHdf5(group, "could not be listed");
    std::vector<std::string> names;
    for (hsize_t i = 0; i < info.nlinks; ++i) {
        const ssize_t length =
            H5Lget_name_by_idx(handle.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
        if (length < 0) continue;
        std::string name(static_cast<std::size_t>(length) + 1, '\0');
        H5Lget_name_by_idx(handle.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT);
        name.resize(static_cast<std::size_t>(length));
        names.push_back(std::move(name));
    }
    return names;
}

void File::failMissing(const std::string& object, const std::string& hint) const {
    std::string ancestor = parentOf(absolutePath(object));
    while (ancestor != "/" && !exists(ancestor)) ancestor = parentOf(ancestor);
    if (!isGroup(ancestor)) fail(absolutePath(object), "not found: " + ancestor + " is a dataset, not a group");
    const std::vector<std::string> names = children(ancestor);
    const std::string listing = listNames(names);
    std::string reason = "not found; ";
    if (names.empty())
        reason += ancestor == "/" ? "the file is empty" : ancestor + " is empty";
    else
        reason += (ancestor == "/" ? "the top level of the file holds: " : ancestor + " holds: ") + listing;
    fail(absolutePath(object), hint.empty() ? reason : reason + " (" + hint + ")");
}

Handle File::openDataset(const std::string& object) const {
    if (!exists(object)) failMissing(object, "");
    if (!isDataset(object)) fail(object, "is a group, not a dataset");
    Handle handle(H5Dopen2(id(), absolutePath(object).c_str(), H5P_DEFAULT), H5Dclose);
    if (!handle.valid()) failHdf5(object, "the dataset could not be opened");
    return handle;
}

Handle File::openGroup(const std::string& object) const {
    if (!exists(object)) failMissing(object, "");
    if (!isGroup(object)) fail(object, "is a dataset, not a group");
    Handle handle(H5Gopen2(id(), absolutePath(object).c_str(), H5P_DEFAULT), H5Gclose);
    if (!handle.valid()) failHdf5(object, "the group could not be opened");
    return handle;
}

Handle File::openObject(const std::string& object) const {
    if (!exists(object)) failMissing(object, "");
    Handle handle(H5Oopen(id(), absolutePath(object).c_str(), H5P_DEFAULT), H5Oclose);
    if (!handle.valid()) failHdf5(object, "could not be opened");
    return handle;
}

std::vector<std::uint64_t> File::shape(const std::string& object) const {
    Handle dataset = openDataset(object);
    Handle space(H5Dget_space(dataset.get()), H5Sclose);
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank < 0) failHdf5(object, "the dataset's shape could not be read");
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    return {dims.begin(), dims.end()};
}

void File::requireNumeric(const std::string& object, hid_t dataset) const {
    Handle type(H5Dget_type(dataset), H5Tclose);
    switch (H5Tget_class(type.get())) {
        case H5T_INTEGER:
        case H5T_FLOAT:
            return;
        case H5T_STRING:
            fail(object, "unsupported type: the dataset holds text strings, not numbers");
        case H5T_ENUM:
            fail(object, "unsupported type: the dataset holds enumerated or boolean values, not numbers");
        case H5T_COMPOUND:
            fail(object, "unsupported type: the dataset holds compound records (a table), not numbers");
        default:
            fail(object, "unsupported type: the dataset's elements are not integers or floating-point numbers");
    }
}

std::string File::typeName(hid_t dataset) const {
    Handle type(H5Dget_type(dataset), H5Tclose);
    const std::string bits = std::to_string(H5Tget_size(type.get()) * 8);
    if (H5Tget_class(type.get()) == H5T_FLOAT) return "float" + bits;
    return (H5Tget_sign(type.get()) == H5T_SGN_NONE ? "uint" : "int") + bits;
}

std::string File::filters(const std::string& object, hid_t dataset) const {
    Handle plist(H5Dget_create_plist(dataset), H5Pclose);
    const int count = plist.valid() ? H5Pget_nfilters(plist.get()) : 0;
    std::string text;
    for (int i = 0; i < count; ++i) {
        unsigned flags = 0, config = 0;
        std::size_t parameterCount = 0;
        char libraryName[64] = {};
        const H5Z_filter_t filter = H5Pget_filter2(plist.get(), static_cast<unsigned>(i), &flags, &parameterCount,
                                                   nullptr, sizeof libraryName, libraryName, &config);
        const std::string name = filterName(filter, libraryName);
        if (H5Zfilter_avail(filter) <= 0)
            fail(object, "is compressed with the " + name + " filter (HDF5 filter id " + std::to_string(filter) +
                             "), which this HDF5 library cannot decode; re-save the file with gzip compression");
        text += (text.empty() ? "" : "+") + name;
    }
    return text;
}

void File::checkCancelled() const {
    if (m_control != nullptr) m_control->checkCancelled();
}

std::vector<float> File::readFloats(const std::string& object, const JobControl* control) const {
    return readWhole<float>(*this, object, H5T_NATIVE_FLOAT, control != nullptr ? control : m_control);
}

std::vector<std::int64_t> File::readIntegers(const std::string& object) const {
    return readWhole<std::int64_t>(*this, object, H5T_NATIVE_INT64, m_control);
}

void File::readBlock(const std::string& object, hid_t dataset, hid_t memoryType, std::uint64_t offset,
                     std::uint64_t count, void* out) const {
    if (count == 0) return;
    Handle fileSpace(H5Dget_space(dataset), H5Sclose);
    const hsize_t start = offset, extent = count;
    Handle memorySpace(H5Screate_simple(1, &extent, nullptr), H5Sclose);
    if (!fileSpace.valid() || !memorySpace.valid() ||
        H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, &start, nullptr, &extent, nullptr) < 0 ||
        H5Dread(dataset, memoryType, memorySpace.get(), fileSpace.get(), H5P_DEFAULT, out) < 0)
        failHdf5(object, "entries " + std::to_string(offset) + ".." + std::to_string(offset + count - 1) +
                             " could not be read");
}

std::vector<std::string> File::readStrings(const std::string& object) const {
    Handle dataset = openDataset(object);
    if (shape(object).size() > 1) fail(object, "is not a 1-D list of names");
    filters(object, dataset.get());
    return readStringData(*this, object, dataset.get(), false);
}

std::optional<std::string> File::stringAttribute(const std::string& object, const std::string& name) const {
    auto values = stringsAttribute(object, name);
    if (!values || values->empty()) return std::nullopt;
    return values->front();
}

std::optional<std::vector<std::string>> File::stringsAttribute(const std::string& object,
                                                               const std::string& name) const {
    Handle owner = openObject(object);
    if (H5Aexists(owner.get(), name.c_str()) <= 0) return std::nullopt;
    Handle attribute(H5Aopen(owner.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
    Handle type(H5Aget_type(attribute.get()), H5Tclose);
    if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING) return std::nullopt;
    return readStringData(*this, absolutePath(object) + " attribute " + name, attribute.get(), true);
}

std::optional<std::vector<std::int64_t>> File::integersAttribute(const std::string& object,
                                                                 const std::string& name) const {
    Handle owner = openObject(object);
    if (H5Aexists(owner.get(), name.c_str()) <= 0) return std::nullopt;
    Handle attribute(H5Aopen(owner.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
    Handle type(H5Aget_type(attribute.get()), H5Tclose);
    Handle space(H5Aget_space(attribute.get()), H5Sclose);
    const H5T_class_t typeClass = H5Tget_class(type.get());
    if (typeClass != H5T_INTEGER && typeClass != H5T_FLOAT) return std::nullopt;
    const hssize_t points = H5Sget_simple_extent_npoints(space.get());
    std::vector<std::int64_t> values(static_cast<std::size_t>(points < 0 ? 0 : points));
    if (!values.empty() && H5Aread(attribute.get(), H5T_NATIVE_INT64, values.data()) < 0)
        failHdf5(absolutePath(object) + " attribute " + name, "could not be read");
    return values;
}

}  // namespace clusterlens::h5

#endif  // CLUSTERLENS_HAVE_HDF5
