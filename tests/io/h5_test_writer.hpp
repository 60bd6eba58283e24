#pragma once
// Writes HDF5 files for the reader tests with the C API (tests/CMakeLists.txt gives the io tests HDF5's
// include directory and library when the engine has HDF5); CLUSTERLENS_TEST_HDF5 is defined when it can.

#include <cstdint>
#include <string>
#include <vector>

#if __has_include(<hdf5.h>)
#include <hdf5.h>
#define CLUSTERLENS_TEST_HDF5 1
#elif __has_include(<hdf5/serial/hdf5.h>)
#include <hdf5/serial/hdf5.h>
#define CLUSTERLENS_TEST_HDF5 1
#endif

#ifdef CLUSTERLENS_TEST_HDF5

namespace clusterlens::test {

// Writes small HDF5 files for the tests, creating intermediate groups on the way.
class H5Writer {
public:
    explicit H5Writer(const std::string& path)
        : m_file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)),
          m_links(H5Pcreate(H5P_LINK_CREATE)) {
        H5Pset_create_intermediate_group(m_links, 1);
    }
    ~H5Writer() {
        H5Pclose(m_links);
        H5Fclose(m_file);
    }
    H5Writer(const H5Writer&) = delete;
    H5Writer& operator=(const H5Writer&) = delete;

    void group(const std::string& path) {
        H5Gclose(H5Gcreate2(m_file, path.c_str(), m_links, H5P_DEFAULT, H5P_DEFAULT));
    }

    // VALUES are given as double and stored as FILE_TYPE (HDF5 converts on write).
    void numbers(const std::string& path, hid_t fileType, const std::vector<hsize_t>& dims,
                 const std::vector<double>& values) {
        store(path, "", fileType, H5T_NATIVE_DOUBLE, dims, values.data());
    }

    // A dataset of DIMS from DATA in TYPE (memory and file); gzip-compressed in chunks of CHUNK_ROWS
    // rows (the other dimensions whole) when CHUNK_ROWS > 0.
    void dataset(const std::string& path, hid_t type, const std::vector<hsize_t>& dims, const void* data,
                 hsize_t chunkRows = 0) {
        hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
        hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
        if (chunkRows > 0) {
            std::vector<hsize_t> chunk = dims;
            chunk[0] = chunkRows;
            H5Pset_chunk(plist, static_cast<int>(chunk.size()), chunk.data());
            H5Pset_deflate(plist, 1);
        }
        hid_t set = H5Dcreate2(m_file, path.c_str(), type, space, m_links, plist, H5P_DEFAULT);
        H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
        H5Dclose(set);
        H5Pclose(plist);
        H5Sclose(space);
    }

    // A chunked dataset that is never written: any shape costs no disk space.
    void emptyChunked(const std::string& path, const std::vector<hsize_t>& dims) {
        hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
        hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
        const std::vector<hsize_t> chunk(dims.size(), 64);
        H5Pset_chunk(plist, static_cast<int>(chunk.size()), chunk.data());
        H5Dclose(H5Dcreate2(m_file, path.c_str(), H5T_IEEE_F32LE, space, m_links, plist, H5P_DEFAULT));
        H5Pclose(plist);
        H5Sclose(space);
    }

    // Fixed-length strings (CellRanger) when WIDTH > 0, else variable-length (h5py, anndata).
    void strings(const std::string& path, const std::vector<std::string>& values, std::size_t width = 0) {
        storeStrings(path, "", values, width, {values.size()});
    }
    void stringAttribute(const std::string& object, const std::string& name, const std::string& value) {
        storeStrings(object, name, {value}, value.size(), {});
    }
    void stringsAttribute(const std::string& object, const std::string& name, const std::vector<std::string>& values) {
        storeStrings(object, name, values, 0, {values.size()});
    }
    void integersAttribute(const std::string& object, const std::string& name,
                           const std::vector<std::int64_t>& values) {
        store(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, {values.size()}, values.data());
    }

private:
    // The dataset OBJECT when ATTRIBUTE is empty, else the attribute ATTRIBUTE of OBJECT; no DIMS = scalar.
    void store(const std::string& object, const std::string& attribute, hid_t fileType, hid_t memoryType,
               const std::vector<hsize_t>& dims, const void* data) {
        hid_t space = dims.empty() ? H5Screate(H5S_SCALAR)
                                   : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
        if (attribute.empty()) {
            hid_t set = H5Dcreate2(m_file, object.c_str(), fileType, space, m_links, H5P_DEFAULT, H5P_DEFAULT);
            H5Dwrite(set, memoryType, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
            H5Dclose(set);
        } else {
            hid_t owner = H5Oopen(m_file, object.c_str(), H5P_DEFAULT);
            hid_t created = H5Acreate2(owner, attribute.c_str(), fileType, space, H5P_DEFAULT, H5P_DEFAULT);
            H5Awrite(created, memoryType, data);
            H5Aclose(created);
            H5Oclose(owner);
        }
        H5Sclose(space);
    }

    void storeStrings(const std::string& object, const std::string& attribute, const std::vector<std::string>& values,
                      std::size_t width, const std::vector<hsize_t>& dims) {
        hid_t type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, width == 0 ? H5T_VARIABLE : width);
        std::vector<const char*> pointers;
        std::string packed;
        for (const std::string& value : values) {
            pointers.push_back(value.c_str());
            if (width > 0) packed += value + std::string(width - value.size(), '\0');
        }
        store(object, attribute, type, type, dims,
              width == 0 ? static_cast<const void*>(pointers.data()) : packed.data());
        H5Tclose(type);
    }

    hid_t m_file;
    hid_t m_links;
};

}  // namespace clusterlens::test

#endif  // CLUSTERLENS_TEST_HDF5
