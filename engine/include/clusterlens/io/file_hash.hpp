#pragma once
// SHA-256 (FIPS 180-4) of files and buffers: the identity of a data file in sessions and in the
// provenance of exported figures.

#include <cstddef>
#include <string>

namespace clusterlens {

class JobControl;

/// SHA-256 of `size` bytes at `data`, as 64 lowercase hex digits. O(size) time, O(1) memory.
/// `control`, when given, is checked every 1 MiB: a cancel() throws Cancelled within milliseconds.
std::string sha256Hex(const void* data, std::size_t size, const JobControl* control = nullptr);

/// SHA-256 of the bytes of the file at `path`, as 64 lowercase hex digits. Streams the file in
/// blocks of 1 MiB (O(1) memory), checking `control` (when given) before each block: a cancel()
/// throws Cancelled. Throws InvalidInput naming the path when it cannot be read.
std::string sha256File(const std::string& path, const JobControl* control = nullptr);

}  // namespace clusterlens
