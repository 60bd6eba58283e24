// describeHdf5File (hdf5_program.hpp): an HDF5 file as a program, for the seed corpus.

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "hdf5_program.hpp"
#include "io/hdf5_handles.hpp"

namespace clusterlens::fuzz {
namespace {

using h5::Handle;

using namespace program;
constexpr std::uint8_t kUnsupported = 255;

/// The program's type code of an HDF5 type, kUnsupported for enums, compounds and the like.
std::uint8_t typeCode(hid_t type) {
    const std::size_t size = H5Tget_size(type);
    switch (H5Tget_class(type)) {
        case H5T_INTEGER: {
            const bool isSigned = H5Tget_sign(type) == H5T_SGN_2;
            const std::uint8_t base = size == 1 ? 0 : size == 2 ? 2 : size == 4 ? 4 : size == 8 ? 6 : kUnsupported;
            return base == kUnsupported ? kUnsupported : static_cast<std::uint8_t>(base + (isSigned ? 0 : 1));
        }
        case H5T_FLOAT:
            return size == 4 ? 8 : size == 8 ? 9 : kUnsupported;
        case H5T_STRING:
            return H5Tis_variable_str(type) > 0 ? kVariableString : kFixedString;
        default:
            return kUnsupported;
    }
}

class Describer {
public:
    std::string program;

    void text(const std::string& value) {
        program += static_cast<char>(value.size());
        program += value;
    }
    void number(std::uint64_t value, int bytes) {
        for (int b = 0; b < bytes; ++b) program += static_cast<char>((value >> (8 * b)) & 0xff);
    }

    /// Type, shape and payload of a dataset or attribute; `read` reads it with a memory type.
    template <typename Read>
    void values(hid_t type, hid_t space, Read&& read) {
        const std::uint8_t code = typeCode(type);
        std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(0, H5Sget_simple_extent_ndims(space))));
        H5Sget_simple_extent_dims(space, dims.data(), nullptr);
        std::size_t count = 1;
        for (const hsize_t d : dims) count *= d;
        number(code, 1);
        number(dims.size(), 1);
        for (const hsize_t d : dims) number(d, 2);
        std::string payload;
        if (code == kVariableString) {
            Handle memory(H5Tcopy(H5T_C_S1), H5Tclose);
            H5Tset_size(memory.get(), H5T_VARIABLE);
            H5Tset_cset(memory.get(), H5Tget_cset(type));
            std::vector<char*> strings(count, nullptr);
            if (count > 0 && read(memory.get(), strings.data()) < 0) throw std::runtime_error("cannot read strings");
            for (std::size_t k = 0; k < count; ++k) payload += std::string(strings[k] ? strings[k] : "") + '\0';
            for (char* s : strings) H5free_memory(s);
        } else {
            const std::size_t size = H5Tget_size(type);
            std::vector<char> bytes(count * size);
            if (count > 0 && read(type, bytes.data()) < 0) throw std::runtime_error("cannot read values");
            if (code != kFixedString) payload.assign(bytes.begin(), bytes.end());
            for (std::size_t k = 0; code == kFixedString && k < count; ++k)
                payload += std::string(bytes.data() + k * size, strnlen(bytes.data() + k * size, size)) + '\0';
        }
        number(payload.size(), 4);
        program += payload;
    }

    static herr_t attribute(hid_t owner, const char* name, const H5A_info_t* /*info*/, void* self) {
        auto& d = *static_cast<Describer*>(self);
        Handle a(H5Aopen(owner, name, H5P_DEFAULT), H5Aclose);
        Handle type(H5Aget_type(a.get()), H5Tclose), space(H5Aget_space(a.get()), H5Sclose);
        if (typeCode(type.get()) == kUnsupported) return 0;
        d.number(kAttribute, 1);
        d.text(d.m_path);
        d.text(name);
        d.values(type.get(), space.get(), [&](hid_t memory, void* out) { return H5Aread(a.get(), memory, out); });
        return 0;
    }

    void object(hid_t file, const std::string& path) {
        Handle o(H5Oopen(file, path.c_str(), H5P_DEFAULT), H5Oclose);
        if (H5Iget_type(o.get()) == H5I_DATASET) {
            Handle type(H5Dget_type(o.get()), H5Tclose), space(H5Dget_space(o.get()), H5Sclose);
            if (typeCode(type.get()) == kUnsupported) return;
            number(kDataset, 1);
            text(path);
            values(type.get(), space.get(), [&](hid_t memory, void* out) {
                return H5Dread(o.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, out);
            });
        } else if (path != "/") {
            number(kGroup, 1);
            text(path);
        }
        m_path = path;
        H5Aiterate2(o.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, attribute, this);
        if (H5Iget_type(o.get()) != H5I_GROUP) return;
        H5G_info_t info{};
        H5Gget_info(o.get(), &info);
        for (hsize_t k = 0; k < info.nlinks; ++k) {
            char name[256] = {};
            H5Lget_name_by_idx(o.get(), ".", H5_INDEX_NAME, H5_ITER_INC, k, name, sizeof name, H5P_DEFAULT);
            object(file, (path == "/" ? "/" : path + "/") + name);
        }
    }

private:
    std::string m_path;
};

}  // namespace

std::string describeHdf5File(const std::string& path) {
    Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file.valid()) throw std::runtime_error("cannot open " + path);
    Describer describer;
    describer.object(file.get(), "/");
    return describer.program;
}

}  // namespace clusterlens::fuzz
