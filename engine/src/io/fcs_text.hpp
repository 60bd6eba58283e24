#pragma once
// Internal: the HEADER and TEXT segments of FCS files, shared by the FCS reader and writer.
// Layout and keyword rules follow the FCS 3.1 standard (Spidlen et al., Cytometry A 77A:97-100, 2010);
// FCS 2.0 and 3.0 files use the same HEADER and TEXT syntax.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clusterlens::fcs {

/// HEADER length: "FCSx.y", four spaces, six 8-character ASCII offsets (TEXT, DATA, ANALYSIS begin/end).
inline constexpr std::size_t kHeaderSize = 58;
/// Largest offset the 8-character HEADER fields can hold; beyond it the standard writes 0 there and
/// keeps the real offsets in $BEGINDATA/$ENDDATA.
inline constexpr std::uint64_t kMaxHeaderOffset = 99'999'999;

/// The decoded HEADER segment. Offsets are byte positions from the start of the data set, inclusive.
struct Header {
    std::string version;  ///< "2.0", "3.0", "3.1"
    std::uint64_t textBegin = 0;
    std::uint64_t textEnd = 0;
    std::uint64_t dataBegin = 0;
    std::uint64_t dataEnd = 0;
    std::uint64_t analysisBegin = 0;
    std::uint64_t analysisEnd = 0;
};

/// Decodes the first 58 bytes. Throws InvalidInput naming PATH and the HEADER field on a bad magic,
/// an unsupported version, non-numeric offsets or a TEXT segment outside the file.
Header parseHeader(const std::string& path, std::string_view bytes, std::uint64_t fileSize);

/// Formats a HEADER for the writer (offsets above kMaxHeaderOffset must be passed as 0).
std::string formatHeader(const Header& header);

using KeywordList = std::vector<std::pair<std::string, std::string>>;

/// TEXT keywords, looked up case-insensitively (the standard makes keyword names case-insensitive),
/// kept in file order with their spelling so a writer can copy them.
class Keywords {
public:
    /// Adds a pair; returns false (and keeps the old value) when the keyword is already present.
    bool add(std::string key, std::string value);
    /// The value of KEY, or nullptr.
    const std::string* find(std::string_view key) const;
    /// The value of KEY; throws InvalidInput "PATH: TEXT: required keyword KEY is missing" otherwise.
    const std::string& require(const std::string& path, std::string_view key) const;
    std::size_t size() const { return m_entries.size(); }
    /// Every pair in the order it was added, keys spelled as in the file.
    const KeywordList& entries() const { return m_entries; }

private:
    KeywordList m_entries;
    std::map<std::string, std::size_t, std::less<>> m_index;  ///< upper-case key -> position in m_entries
};

/// The key in upper case (keyword names compare case-insensitively).
std::string upperKey(std::string_view key);

/// Parses one TEXT segment (bytes as stored in the file; `fileOffset` is where they start, used in
/// error positions). With `delimiter` 0 the first byte is the delimiter (primary TEXT); otherwise the
/// given delimiter is used and an optional leading delimiter is skipped (supplemental TEXT).
/// A doubled delimiter inside a keyword or value is a literal delimiter. Returns the delimiter.
/// Duplicate keywords keep their first value; their names are appended to `duplicates`.
char parseText(const std::string& path, std::string_view segment, std::uint64_t fileOffset, Keywords& into,
               std::vector<std::string>& duplicates, char delimiter = 0);

/// Formats keyword/value pairs as a TEXT segment (leading and trailing delimiter, delimiters inside
/// keywords and values doubled).
std::string formatText(const KeywordList& keywords, char delimiter);

/// '/' unless some keyword or value starts with it (a doubled delimiter right after a separator is
/// ambiguous); then the first of a few fallback characters that occurs nowhere in the pairs.
char chooseDelimiter(const KeywordList& keywords);

/// A non-negative integer, allowing surrounding blanks (HEADER fields are right-justified).
std::optional<std::uint64_t> parseUnsigned(std::string_view text);
/// A finite number with surrounding blanks allowed.
std::optional<double> parseNumber(std::string_view text);

/// A spillover matrix from $SPILLOVER (FCS 3.1), SPILL (BD) or $COMP: "n,name1..namen,m11..mnn".
struct Spillover {
    std::string keyword;             ///< the keyword it came from
    std::vector<std::string> names;  ///< n detector names ($PnN)
    std::vector<double> matrix;      ///< n*n, row-major, rows = source detectors
};

/// Finds and parses the spillover keyword; std::nullopt when the file has none. Throws InvalidInput
/// naming the keyword when its value is malformed.
std::optional<Spillover> findSpillover(const std::string& path, const Keywords& keywords);

}  // namespace clusterlens::fcs
