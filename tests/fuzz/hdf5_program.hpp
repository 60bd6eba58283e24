#pragma once
// Structure-aware HDF5 inputs for the hdf5 and session fuzz targets. libhdf5 1.10 itself hangs and
// leaks on damaged metadata (docs/reliability.md), so these targets do not flip the bytes of HDF5
// files: a fuzz input is a "program" of records, each creating one group, dataset or attribute, and
// HDF5 writes a well-formed file from them. The readers then meet arbitrary layouts, types, shapes and
// values — what ClusterLens code must check — in files HDF5 can parse.
//
// A program is a sequence of records, each
//   kind u8 (0 group, 1 dataset, 2 attribute) | path | [attribute name] | type u8 | rank u8 (0..3)
//   | rank x dim u16 | payload length u32 | payload
// where a text is a u8 length and its bytes, numbers are little endian, types are 0..9 = int8, uint8,
// int16, uint16, int32, uint32, int64, uint64, float32, float64 (payload: the elements' bytes, repeated
// to fill), 10 = variable-length UTF-8 and 11 = fixed-length strings (payload: elements separated by
// NUL). Records that HDF5 refuses (a name taken, a missing parent object) are skipped; shapes of more
// than 65536 elements are skipped, and records after the 512th are ignored.

#include <cstddef>
#include <cstdint>
#include <string>

namespace clusterlens::fuzz {

namespace program {
inline constexpr std::uint8_t kGroup = 0, kDataset = 1, kAttribute = 2;
inline constexpr std::uint8_t kVariableString = 10, kFixedString = 11, kTypeCount = 12;
}  // namespace program

/// Writes the HDF5 file that the program describes to `path` (a user block of `userBlock` bytes, 0 or
/// a power of two >= 512, comes first). Returns false when HDF5 could not create or close the file.
bool writeHdf5Program(const std::string& path, const std::uint8_t* program, std::size_t size, std::size_t userBlock);

/// The program that recreates the groups, datasets (of the types above) and attributes of the HDF5
/// file at `path`; other types are left out. For the seed corpus. Throws std::runtime_error when the
/// file cannot be read.
std::string describeHdf5File(const std::string& path);

}  // namespace clusterlens::fuzz
