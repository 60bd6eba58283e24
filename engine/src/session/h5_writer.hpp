#pragma once
// Internal to the session writer and the .h5ad annotation (h5ad_annotate.hpp): creating an HDF5 file, or
// adding to one, and writing attributes and 1-D/2-D datasets, every failure thrown as InvalidInput
// "FILE: OBJECT: could not be written (HDF5: ...)".

#ifdef CLUSTERLENS_HAVE_HDF5

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/hdf5_handles.hpp"

namespace clusterlens::h5 {

/// A new HDF5 file at `path` (truncating) with a user block of `userBlock` bytes before the HDF5 part,
/// or an existing file opened to add objects to it; messages name `displayPath` (the file the user asked
/// for, not the temporary being written). Either is built in memory (the whole file: an existing file's
/// size, and the same again while close() assembles it) and written to `path` by close() with checked
/// writes, so a full disk is an exception, never a half-written file inside HDF5.
class Writer {
public:
    Writer(const std::string& path, const std::string& displayPath, hsize_t userBlock);
    struct Existing {};
    Writer(Existing, const std::string& path, const std::string& displayPath);
    ~Writer();
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;

    /// Flushes and closes the file; throws when HDF5 could not finish it (full disk).
    void close();
    hid_t root() const { return m_file; }

    /// A new child group of `parent`; `object` names it in messages.
    Handle group(hid_t parent, const std::string& name, const std::string& object) const;

    void attribute(hid_t owner, const std::string& object, const char* name, const std::string& value) const;
    void attribute(hid_t owner, const std::string& object, const char* name, std::int64_t value) const;
    void attribute(hid_t owner, const std::string& object, const char* name, double value) const;

    /// A 1-D dataset of variable-length UTF-8 strings.
    void strings(hid_t group, const std::string& object, const char* name,
                 const std::vector<std::string>& values) const;
    /// A 1-D numeric dataset (little-endian file types; compressed when large and deflate exists).
    void array(hid_t group, const std::string& object, const char* name, const std::vector<std::int32_t>& values) const;
    void array(hid_t group, const std::string& object, const char* name, const std::vector<std::int64_t>& values) const;
    void array(hid_t group, const std::string& object, const char* name, const std::vector<double>& values) const;
    void array(hid_t group, const std::string& object, const char* name, const std::vector<std::uint8_t>& values) const;
    /// Stored as `fileType`, an integer type that holds every value (HDF5 converts).
    void array(hid_t group, const std::string& object, const char* name, const std::vector<std::int32_t>& values,
               hid_t fileType) const;
    /// A rows x cols float32 dataset.
    void matrix(hid_t group, const std::string& object, const char* name, const float* values, hsize_t rows,
                hsize_t cols) const;

private:
    [[noreturn]] void fail(const std::string& object, const std::string& what) const;
    void numeric(hid_t group, const std::string& object, const char* name, hid_t fileType, hid_t memoryType,
                 const void* data, int rank, const hsize_t* dims) const;

    std::string m_path;
    std::string m_imagePath;  ///< where close() writes the file built in memory
    hsize_t m_userBlock = 0;
    std::vector<char> m_userBlockBytes;  ///< an existing file's user block, written back before the image
    hid_t m_file = H5I_INVALID_HID;      ///< closed by close() (checked) or the destructor
};

}  // namespace clusterlens::h5

#endif  // CLUSTERLENS_HAVE_HDF5
