#pragma once
// Writing a small text file (labels, linkages, heights) in one piece.

#include <string>

namespace clusterlens {

/// Writes `text` to `path` atomically (writeFileAtomically): the old file stays untouched when the
/// write fails. Throws InvalidInput naming `path` and the reason (missing folder, full disk).
/// Memory: the text, built by the caller.
void writeTextFile(const std::string& path, const std::string& text);

}  // namespace clusterlens
