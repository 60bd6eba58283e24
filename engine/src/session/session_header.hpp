#pragma once
// Internal to the session file: the 512-byte text header in HDF5's user block (docs/session-format.md)
//   clusterlens-session\n schema 1\n app 0.1.0\n bytes SIZE\n sha256 HEX\n  then NUL bytes up to 512
// SIZE is the length of the whole file, HEX the SHA-256 of every byte after the header. A reader checks
// both before HDF5 parses anything, so a truncated or altered file is refused without trusting the
// HDF5 library to survive damaged metadata.

#include <cstddef>
#include <string>

namespace clusterlens {
class JobControl;
}

namespace clusterlens::session_detail {

inline constexpr std::size_t kHeaderBytes = 512;

/// Writes the header into the first kHeaderBytes of the file at `path` (its user block), for the bytes
/// that follow. Throws InvalidInput naming `displayPath` when the file cannot be read or written.
void sealFile(const std::string& path, const std::string& displayPath, const std::string& appVersion);

/// Reads the file at `path` whole and checks its header: format id, schema version (refusing newer
/// ones), size and checksum. Returns the file's bytes. Throws InvalidInput "PATH: REASON" for a missing
/// or unreadable file, a file that is not HDF5, HDF5 without a session header, a newer schema, a size
/// or checksum that does not match. `appVersion` receives the writer's version. `control` (when given)
/// is checked every 1 MiB read and hashed: a cancel() throws Cancelled.
std::string readVerifiedFile(const std::string& path, std::string& appVersion, const JobControl* control = nullptr);

/// True when the first bytes of the file are a session header's first line.
bool hasSessionMagic(const std::string& path);

}  // namespace clusterlens::session_detail
