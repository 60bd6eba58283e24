#pragma once
// A-priori group assignments (one integer group id per point, one per line).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clusterlens {

/// Reads one integer per line (blank lines and '#' comments ignored; "index,label" CSV with header
/// accepted). Throws InvalidInput naming file and line on a non-integer, and naming both lengths
/// when expectedN != 0 and the count differs.
std::vector<std::int32_t> readAprioriGroups(const std::string& path, std::size_t expectedN = 0);

} // namespace clusterlens
