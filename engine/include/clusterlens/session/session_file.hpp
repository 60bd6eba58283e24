#pragma once
// The session file (.clusterlens): HDF5 with a 512-byte header in HDF5's user block that carries the
// format id, the schema version and the SHA-256 of the HDF5 part, so that a damaged file is refused
// before HDF5 parses it. The layout is documented in docs/session-format.md.
//
// Compatibility rule: a reader accepts schema versions up to its own (kSessionSchemaVersion) and
// refuses newer ones; a writer always writes its own version. New optional content within a version
// is ignored by older readers of that version.

#include <string>

#include "clusterlens/session/session.hpp"

namespace clusterlens {

class JobControl;

inline constexpr const char* kSessionFormatId = "clusterlens-session";
inline constexpr int kSessionSchemaVersion = 1;
/// The file name extension a GUI offers.
inline constexpr const char* kSessionExtension = ".clusterlens";

/// Writes `session` to `path` atomically (writeFileAtomically: temporary in the same folder, flush,
/// rename): on any failure the previous file at `path` is untouched. Validates the session first
/// (validateSession). Time and memory O(size of the session); embedded data is compressed when the
/// HDF5 library has deflate. Throws InvalidInput naming `path` (invalid session, unwritable folder,
/// full disk) or when the program was built without HDF5.
void writeSession(const std::string& path, const Session& session);

/// Reads a session file completely and validates it (validateSession). Never modifies the file.
/// Throws InvalidInput "PATH: ...: REASON" when the file is missing or unreadable, not HDF5, HDF5 but
/// not a ClusterLens session, of a newer schema version, damaged (checksum, truncation) or
/// inconsistent (missing or mis-sized datasets, out-of-range indices, lengths that differ from n).
/// `control` (when given) is checked every 1 MiB read and hashed and every ~2^20 embedded values
/// inflated: a cancel() throws Cancelled within milliseconds and nothing is returned.
Session readSession(const std::string& path, const JobControl* control = nullptr);

/// True when `path` starts with a session header (cheap: reads 512 bytes; does not validate).
bool looksLikeSession(const std::string& path);

}  // namespace clusterlens
