#pragma once
// Internal helpers for parsing text fields (shared by the text, linkage and apriori readers).

#include <string>
#include <string_view>
#include <vector>

namespace clusterlens::detail {

/// Strips spaces, tabs and CR from both ends.
std::string trim(std::string_view text);
/// Splits on `sep`; for ' ' any run of spaces/tabs separates. Double-quoted fields may contain
/// the separator; "" inside quotes is a literal quote. Quotes are removed.
std::vector<std::string> splitFields(std::string_view line, char sep);
/// Parses a full field as a double (leading/trailing blanks allowed; "NA", "nan", "inf" accepted
/// as non-finite). Returns false when the field is not a number.
bool parseDouble(std::string_view field, double& value);

}  // namespace clusterlens::detail
