#pragma once
// Atomic file replacement: a crash, a full disk or an exception while writing never leaves a damaged
// or partial file where the user expects one, and never destroys the file that was there before.

#include <functional>
#include <string>

namespace clusterlens {

/// Calls `write(tempPath)`, where tempPath is a new file name in the folder of `path`; when it returns,
/// flushes the temporary to disk and renames it over `path` (atomic on POSIX file systems). On any
/// exception from `write`, the flush or the rename, the temporary is removed, `path` keeps its
/// previous content, and the error propagates; failures of the flush or the rename (an unwritable
/// folder, a full disk) throw InvalidInput naming `path` and the reason.
void writeFileAtomically(const std::string& path, const std::function<void(const std::string& tempPath)>& write);

}  // namespace clusterlens
