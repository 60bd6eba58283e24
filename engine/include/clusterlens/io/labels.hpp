#pragma once
// Per-point integer labels: MHCA a-priori groups, LABELS.csv of the CLI, ground-truth files.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clusterlens {

/// Reads one integer per line (blank lines and '#' comments ignored), or the CLI's "index,label"
/// CSV with its header (indices must run 0..n-1 in order). Throws InvalidInput naming file and line on
/// a non-integer, and naming both lengths when expectedN != 0 and the count differs. O(N).
std::vector<std::int32_t> readLabels(const std::string& path, std::size_t expectedN = 0);

/// Writes "index,label" CSV (-1 = noise / unassigned).
void writeLabelsCsv(const std::string& path, const std::vector<std::int32_t>& labels);

} // namespace clusterlens
