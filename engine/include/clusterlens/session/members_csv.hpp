#pragma once
// MEMBERS.csv (DESIGN.md "Sessions"): a header `index`, then one whole-dataset event index per row,
// ascending.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clusterlens {

/// Writes the header `index` and one member per line. Throws InvalidInput naming the file when it
/// cannot be written.
void writeMembersCsv(const std::string& path, const std::vector<std::int64_t>& members);

/// Reads MEMBERS.csv (the header is required; blank lines are skipped); the indices must be ascending,
/// unique and below n. Throws InvalidInput naming the file and line. O(rows).
std::vector<std::int64_t> readMembersCsv(const std::string& path, std::size_t n);

}  // namespace clusterlens
