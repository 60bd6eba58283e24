#include "hdf5_program.hpp"

#include <algorithm>
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "io/hdf5_handles.hpp"

namespace clusterlens::fuzz {
namespace {

using h5::Handle;

using namespace program;
constexpr std::uint64_t kMaxElements = std::uint64_t{1} << 16;
constexpr int kMaxRecords = 512;

hid_t numericType(std::uint8_t code) {
    static const hid_t types[] = {H5T_STD_I8LE,  H5T_STD_U8LE,  H5T_STD_I16LE, H5T_STD_U16LE,  H5T_STD_I32LE,
                                  H5T_STD_U32LE, H5T_STD_I64LE, H5T_STD_U64LE, H5T_IEEE_F32LE, H5T_IEEE_F64LE};
    return types[code];
}

struct Record {
    std::uint8_t kind = kGroup;
    std::string path;
    std::string name;  ///< attributes only
    std::uint8_t type = 0;
    std::vector<hsize_t> dims;  ///< empty: a scalar
    std::string payload;

    std::uint64_t elements() const {
        std::uint64_t count = 1;
        for (const hsize_t d : dims) count = d == 0 || count <= kMaxElements / d ? count * d : kMaxElements + 1;
        return count;
    }
};

/// Reads records from the front of a program; every read fails once the input is used up.
class Program {
public:
    Program(const std::uint8_t* data, std::size_t size) : m_data(data), m_left(size) {}

    bool next(Record& r) {
        std::uint64_t rank = 0, length = 0;
        if (!number(r.kind, 1) || !text(r.path)) return false;
        r.kind %= 3;
        if (r.kind == kGroup) return true;
        if ((r.kind == kAttribute && !text(r.name)) || !number(r.type, 1) || !number(rank, 1)) return false;
        r.type %= kTypeCount;
        r.dims.assign(rank % 4, 0);
        for (hsize_t& d : r.dims)
            if (!number(d, 2)) return false;
        if (!number(length, 4)) return false;
        length = std::min<std::uint64_t>(length, m_left);
        r.payload.assign(reinterpret_cast<const char*>(m_data), length);
        m_data += length;
        m_left -= length;
        return true;
    }

private:
    template <typename T>
    bool number(T& value, int bytes) {
        if (m_left < static_cast<std::size_t>(bytes)) return false;
        std::uint64_t v = 0;
        for (int b = 0; b < bytes; ++b) v |= std::uint64_t{m_data[b]} << (8 * b);
        value = static_cast<T>(v);
        m_data += bytes;
        m_left -= static_cast<std::size_t>(bytes);
        return true;
    }
    bool text(std::string& value) {
        std::uint8_t length = 0;
        if (!number(length, 1) || m_left < length) return false;
        value.assign(reinterpret_cast<const char*>(m_data), length);
        m_data += length;
        m_left -= length;
        return true;
    }

    const std::uint8_t* m_data;
    std::size_t m_left;
};

/// The element type and the bytes to write (variable-length strings: pointers into `strings`).
struct Elements {
    Handle type;
    std::vector<char> bytes;
    std::vector<std::string> strings;
    std::vector<const char*> pointers;
    const void* data() const { return pointers.empty() ? static_cast<const void*>(bytes.data()) : pointers.data(); }
};

void stringElements(const Record& r, std::size_t count, Elements& e) {
    std::size_t start = 0;
    while (e.strings.size() < count && start <= r.payload.size()) {
        const std::size_t end = std::min(r.payload.find('\0', start), r.payload.size());
        e.strings.push_back(r.payload.substr(start, end - start));
        start = end + 1;
    }
    e.strings.resize(count);
    e.type = Handle(H5Tcopy(H5T_C_S1), H5Tclose);
    if (r.type == kVariableString) {
        H5Tset_size(e.type.get(), H5T_VARIABLE);
        H5Tset_cset(e.type.get(), H5T_CSET_UTF8);
        for (const std::string& s : e.strings) e.pointers.push_back(s.c_str());
        return;
    }
    std::size_t width = 1;
    for (const std::string& s : e.strings) width = std::max(width, s.size());
    H5Tset_size(e.type.get(), width);
    H5Tset_strpad(e.type.get(), H5T_STR_NULLPAD);
    e.bytes.assign(count * width, '\0');
    for (std::size_t k = 0; k < count; ++k)
        std::copy(e.strings[k].begin(), e.strings[k].end(), e.bytes.begin() + k * width);
}

Elements elementsOf(const Record& r) {
    const auto count = static_cast<std::size_t>(r.elements());
    Elements e;
    if (r.type >= kVariableString) {
        stringElements(r, count, e);
        return e;
    }
    e.type = Handle(H5Tcopy(numericType(r.type)), H5Tclose);
    e.bytes.assign(count * H5Tget_size(e.type.get()), '\0');
    for (std::size_t k = 0; !r.payload.empty() && k < e.bytes.size(); ++k) e.bytes[k] = r.payload[k % r.payload.size()];
    return e;
}

void apply(hid_t file, hid_t linkCreation, const Record& r) {
    if (r.kind == kGroup) {
        Handle(H5Gcreate2(file, r.path.c_str(), linkCreation, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
        return;
    }
    if (r.elements() > kMaxElements) return;
    const Elements e = elementsOf(r);
    Handle space = r.dims.empty()
                       ? Handle(H5Screate(H5S_SCALAR), H5Sclose)
                       : Handle(H5Screate_simple(static_cast<int>(r.dims.size()), r.dims.data(), nullptr), H5Sclose);
    const bool empty = r.elements() == 0;
    if (r.kind == kDataset) {
        Handle dataset(
            H5Dcreate2(file, r.path.c_str(), e.type.get(), space.get(), linkCreation, H5P_DEFAULT, H5P_DEFAULT),
            H5Dclose);
        if (dataset.valid() && !empty) H5Dwrite(dataset.get(), e.type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, e.data());
        return;
    }
    Handle owner(H5Oopen(file, r.path.empty() ? "/" : r.path.c_str(), H5P_DEFAULT), H5Oclose);
    if (!owner.valid()) return;
    Handle attribute(H5Acreate2(owner.get(), r.name.c_str(), e.type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                     H5Aclose);
    if (attribute.valid() && !empty) H5Awrite(attribute.get(), e.type.get(), e.data());
}

}  // namespace

bool writeHdf5Program(const std::string& path, const std::uint8_t* program, std::size_t size, std::size_t userBlock) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    Handle creation(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
    if (userBlock != 0) H5Pset_userblock(creation.get(), userBlock);
    Handle linkCreation(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    H5Pset_create_intermediate_group(linkCreation.get(), 1);
    hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, creation.get(), H5P_DEFAULT);
    if (file < 0) return false;
    Program reader(program, size);
    for (int k = 0; k < kMaxRecords; ++k) {
        Record record;
        if (!reader.next(record)) break;
        apply(file, linkCreation.get(), record);
    }
    return H5Fclose(file) >= 0;
}

}  // namespace clusterlens::fuzz
