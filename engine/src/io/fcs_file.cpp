// Reading an FCS data set as stored: HEADER, TEXT, event layout and the complete events' bytes.
// Segment layout, keywords and scaling follow the FCS 3.1 standard (Spidlen et al., Cytometry A
// 77A:97-100, 2010), which defines the keywords named below.

#include "fcs_file.hpp"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>

#include "clusterlens/errors.hpp"

namespace clusterlens::fcs {
namespace {
/// Random access to the file; callers check offsets against size() before reading.
class FcsFile {
public:
    explicit FcsFile(const std::string& path) : m_path(path), m_in(path, std::ios::binary | std::ios::ate) {
        if (!m_in) throwFileError(path, "", "cannot open the file for reading");
        m_size = static_cast<std::uint64_t>(m_in.tellg());
    }
    std::uint64_t size() const { return m_size; }
    std::string read(std::uint64_t offset, std::uint64_t length) {
        std::string bytes(length, '\0');
        m_in.seekg(static_cast<std::streamoff>(offset));
        m_in.read(bytes.data(), static_cast<std::streamsize>(length));
        if (!m_in) throwFileError(m_path, "byte " + std::to_string(offset), "read error");
        return bytes;
    }

private:
    std::string m_path;
    std::ifstream m_in;
    std::uint64_t m_size = 0;
};

std::string upperTrimmed(const std::string& text) {
    std::string out;
    for (char c : text)
        if (c != ' ') out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::uint64_t requireUnsigned(const std::string& path, const Keywords& keywords, const std::string& key) {
    const std::string& value = keywords.require(path, key);
    const auto number = parseUnsigned(value);
    if (!number) throwFileError(path, "TEXT keyword " + key, "not a non-negative integer: '" + value + "'");
    return *number;
}

std::optional<double> optionalNumber(const std::string& path, const Keywords& keywords, const std::string& key) {
    const std::string* value = keywords.find(key);
    if (!value) return std::nullopt;
    const auto number = parseNumber(*value);
    if (!number) throwFileError(path, "TEXT keyword " + key, "not a number: '" + *value + "'");
    return number;
}

bool parseByteOrder(const std::string& path, const std::string& value) {
    std::string order;
    for (char c : value)
        if (c != ' ') order += c;
    if (order == "1,2,3,4" || order == "1,2" || order == "1" || order == "1,2,3,4,5,6,7,8") return false;
    if (order == "4,3,2,1" || order == "2,1" || order == "8,7,6,5,4,3,2,1") return true;
    throwFileError(path, "TEXT keyword $BYTEORD",
                   "unsupported byte order '" + value + "' (supported: 1,2,3,4 little endian, 4,3,2,1 big endian)");
}

/// Integer data keep only the bits needed for $PnR (FCS 3.1, $PnB/$PnR): the mask is the next
/// power of two at or above the range, minus one.
std::uint64_t rangeMask(double range, unsigned bits) {
    if (!(range > 0)) return ~std::uint64_t{0};
    unsigned needed = 1;
    while (needed < 64 && std::ldexp(1.0, static_cast<int>(needed)) < range) ++needed;
    if (needed >= bits) return ~std::uint64_t{0};
    return (std::uint64_t{1} << needed) - 1;
}

/// $PnE "f1,f2": log amplification over f1 decades with offset f2 (FCS 3.1; f2 = 0 in old
/// files means 1).
void parseAmplification(const std::string& path, const Keywords& keywords, std::size_t j, Parameter& p) {
    const std::string* value = keywords.find(pkey(j, "E"));
    if (!value) return;
    const auto comma = value->find(',');
    const auto f1 = parseNumber(value->substr(0, comma));
    const auto f2 = comma == std::string::npos ? std::nullopt : parseNumber(value->substr(comma + 1));
    if (!f1 || !f2 || *f1 < 0 || *f2 < 0)
        throwFileError(path, "TEXT keyword " + pkey(j, "E"),
                       "expected 'f1,f2' with non-negative numbers (e.g. 0,0 or 4,1), found '" + *value + "'");
    p.decades = *f1;
    p.logOffset = (*f1 > 0 && *f2 == 0) ? 1.0 : *f2;
}

Parameter readParameter(const std::string& path, const Keywords& keywords, std::size_t j, char type) {
    Parameter p;
    const std::string bitsKey = pkey(j, "B");
    const std::string& bitsText = keywords.require(path, bitsKey);
    const auto bits = parseUnsigned(bitsText);
    const bool ok = bits && (type == 'I' ? (*bits == 8 || *bits == 16 || *bits == 32 || *bits == 64)
                                         : *bits == (type == 'F' ? 32u : 64u));
    if (!ok)
        throwFileError(path, "TEXT keyword " + bitsKey,
                       "unsupported bit width '" + bitsText + "' for $DATATYPE " + type +
                           (type == 'I'   ? " (supported: 8, 16, 32, 64)"
                            : type == 'F' ? " (must be 32)"
                                          : " (must be 64)"));
    p.bytes = static_cast<unsigned>(*bits / 8);
    const std::string* name = keywords.find(pkey(j, "N"));
    p.name = name ? *name : "P" + std::to_string(j + 1);
    if (const std::string* description = keywords.find(pkey(j, "S"))) p.description = *description;
    p.range = optionalNumber(path, keywords, pkey(j, "R")).value_or(0);
    if (type != 'I') return p;  // float data are stored already scaled; $PnE must be 0,0 and $PnG is informative
    p.mask = rangeMask(p.range, static_cast<unsigned>(*bits));
    parseAmplification(path, keywords, j, p);
    if (const auto gain = optionalNumber(path, keywords, pkey(j, "G"))) {
        if (*gain <= 0) throwFileError(path, "TEXT keyword " + pkey(j, "G"), "the gain must be positive");
        p.gain = *gain;
    }
    if (p.decades > 0 && !(p.range > 0))
        throwFileError(path, "TEXT keyword " + pkey(j, "R"), "log amplification ($PnE) needs a positive range");
    return p;
}

Layout readLayout(const std::string& path, const Keywords& keywords) {
    Layout layout;
    const std::string& declared = keywords.require(path, "$DATATYPE");
    const std::string type = upperTrimmed(declared);
    if (type != "I" && type != "F" && type != "D")
        throwFileError(path, "TEXT keyword $DATATYPE",
                       "unsupported data type '" + declared + "' (supported: I integer, F float, D double)");
    layout.type = type.front();
    layout.bigEndian = parseByteOrder(path, keywords.require(path, "$BYTEORD"));
    const std::uint64_t count = requireUnsigned(path, keywords, "$PAR");
    if (count == 0) throwFileError(path, "TEXT keyword $PAR", "the file declares zero parameters");
    for (std::size_t j = 0; j < count; ++j) {
        layout.params.push_back(readParameter(path, keywords, j, layout.type));
        layout.eventBytes += layout.params.back().bytes;
    }
    return layout;
}

void checkMode(const std::string& path, const Keywords& keywords) {
    const std::string* mode = keywords.find("$MODE");
    if (mode && upperTrimmed(*mode) != "L")
        throwFileError(path, "TEXT keyword $MODE",
                       "only list-mode data ($MODE L) can be read; this file stores '" + *mode +
                           "' (histograms), which hold no individual events");
}

struct DataSegment {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
};

/// The HEADER offsets win when they disagree with $BEGINDATA/$ENDDATA. A HEADER offset is 0 when
/// it does not fit the 8 digits, beyond byte 99,999,999 (FCS 3.1 HEADER); then the TEXT keywords are used.
DataSegment locateData(const std::string& path, const Header& header, const Keywords& keywords,
                       std::vector<std::string>& warnings) {
    const std::string* beginText = keywords.find("$BEGINDATA");
    const std::string* endText = keywords.find("$ENDDATA");
    std::optional<std::uint64_t> begin, end;
    if (beginText && !(begin = parseUnsigned(*beginText)))
        throwFileError(path, "TEXT keyword $BEGINDATA", "offset is not a number: '" + *beginText + "'");
    if (endText && !(end = parseUnsigned(*endText)))
        throwFileError(path, "TEXT keyword $ENDDATA", "offset is not a number: '" + *endText + "'");
    if (header.dataBegin == 0 || header.dataEnd == 0) {
        if (!begin || !end)
            throwFileError(path, "HEADER", "the DATA offsets are 0 and $BEGINDATA/$ENDDATA are missing");
        return {*begin, *end};
    }
    if (begin && end && (*begin != header.dataBegin || *end != header.dataEnd))
        warnings.push_back("the HEADER places the DATA segment at bytes " + std::to_string(header.dataBegin) + "-" +
                           std::to_string(header.dataEnd) + " but $BEGINDATA/$ENDDATA say " + std::to_string(*begin) +
                           "-" + std::to_string(*end) + "; the HEADER offsets are used");
    return {header.dataBegin, header.dataEnd};
}

/// Number of complete events to load; never more than the bytes present ($TOT events of
/// $PAR parameters). A cut file yields its complete events with a warning, or an error.
std::uint64_t countEvents(const std::string& path, const std::string& version, const Keywords& keywords,
                          const Layout& layout, const DataSegment& data, std::uint64_t fileSize,
                          const ReadOptions& options, std::vector<std::string>& warnings) {
    const std::string* tot = keywords.find("$TOT");
    if (!tot && version != "2.0") keywords.require(path, "$TOT");
    if (data.end < data.begin && data.end != 0)
        throwFileError(path, "DATA segment (bytes " + std::to_string(data.begin) + "-" + std::to_string(data.end) + ")",
                       "the DATA segment ends before it begins");
    const std::uint64_t declared = data.end >= data.begin ? data.end - data.begin + 1 : 0;
    const std::uint64_t present = data.begin >= fileSize ? 0 : std::min(declared, fileSize - data.begin);
    if (!tot) return present / layout.eventBytes;  // $TOT is optional in FCS 2.0
    const std::uint64_t announced = requireUnsigned(path, keywords, "$TOT");
    if (announced == 0) return 0;
    if (data.begin >= fileSize)
        throwFileError(path, "DATA segment (bytes " + std::to_string(data.begin) + "-" + std::to_string(data.end) + ")",
                       "the DATA offsets lie beyond the end of the file (" + std::to_string(fileSize) + " bytes)");
    if (announced > std::numeric_limits<std::uint64_t>::max() / layout.eventBytes)
        throwFileError(path, "TEXT keyword $TOT", "implausible event count " + *tot);
    const std::uint64_t complete = std::min(announced, present / layout.eventBytes);
    if (complete == announced) return complete;
    const std::string where = present < declared ? "the file has only " + std::to_string(fileSize) + " bytes"
                                                 : "the DATA segment ends at byte " + std::to_string(data.end);
    const std::string reason = where + ": $TOT announces " + std::to_string(announced) + " events but only " +
                               std::to_string(complete) + " complete events are present (" +
                               std::to_string(layout.eventBytes) + " bytes each)";
    if (!options.allowTruncated)
        throwFileError(path, "byte " + std::to_string(data.begin + present), "truncated DATA segment: " + reason);
    warnings.push_back("truncated file: " + reason + "; the incomplete rest was dropped");
    return complete;
}

/// Primary TEXT plus the optional supplemental TEXT ($BEGINSTEXT/$ENDSTEXT).
Keywords readKeywords(const std::string& path, FcsFile& file, const Header& header,
                      std::vector<std::string>& warnings) {
    Keywords keywords;
    std::vector<std::string> duplicates;
    const std::string text = file.read(header.textBegin, header.textEnd - header.textBegin + 1);
    const char delimiter = parseText(path, text, header.textBegin, keywords, duplicates);
    const std::string* sBegin = keywords.find("$BEGINSTEXT");
    const std::string* sEnd = keywords.find("$ENDSTEXT");
    // 0 (or a missing/unparsable offset) means "no supplemental TEXT".
    const std::uint64_t begin = sBegin ? parseUnsigned(*sBegin).value_or(0) : 0;
    const std::uint64_t end = sEnd ? parseUnsigned(*sEnd).value_or(0) : 0;
    if (begin != 0 && end != 0) {
        if (end < begin || end >= file.size()) {
            warnings.push_back("the supplemental TEXT segment (bytes " + *sBegin + "-" + *sEnd +
                               ") lies outside the file; it was ignored");
        } else {
            try {
                parseText(path, file.read(begin, end - begin + 1), begin, keywords, duplicates, delimiter);
            } catch (const InvalidInput& e) {
                warnings.push_back(std::string("the supplemental TEXT segment was ignored: ") + e.what());
            }
        }
    }
    for (const std::string& key : duplicates)
        warnings.push_back("keyword " + key + " appears more than once in TEXT; the first value is used");
    return keywords;
}
}  // namespace

std::string pkey(std::size_t j, const char* suffix) {
    return "$P" + std::to_string(j + 1) + suffix;
}

RawFile readRawFile(const std::string& path, const ReadOptions& options) {
    FcsFile file(path);
    RawFile raw;
    raw.path = path;
    raw.header = parseHeader(path, file.read(0, std::min<std::uint64_t>(file.size(), kHeaderSize)), file.size());
    raw.keywords = readKeywords(path, file, raw.header, raw.warnings);
    checkMode(path, raw.keywords);
    raw.layout = readLayout(path, raw.keywords);
    const DataSegment segment = locateData(path, raw.header, raw.keywords, raw.warnings);
    raw.events =
        countEvents(path, raw.header.version, raw.keywords, raw.layout, segment, file.size(), options, raw.warnings);
    if (raw.events > 0) raw.data = file.read(segment.begin, raw.events * raw.layout.eventBytes);
    return raw;
}

}  // namespace clusterlens::fcs
