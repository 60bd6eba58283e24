// HEADER and TEXT segments of FCS files (FCS 3.1, Spidlen et al., Cytometry A 2010).

#include "fcs_text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "clusterlens/errors.hpp"

namespace clusterlens::fcs {
namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0';
}

std::string_view trimBlanks(std::string_view text) {
    while (!text.empty() && isBlank(text.front())) text.remove_prefix(1);
    while (!text.empty() && isBlank(text.back())) text.remove_suffix(1);
    return text;
}

/// Shows raw bytes in a message: printable ASCII as is, anything else as \xNN.
std::string printable(std::string_view bytes) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 32 && c < 127) {
            out += ch;
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string range(std::uint64_t begin, std::uint64_t end) {
    return std::to_string(begin) + "-" + std::to_string(end);
}

// The six offset fields of the HEADER, in file order (FCS 3.1 HEADER: bytes 10-57).
constexpr const char* kOffsetNames[6] = {"TEXT begin", "TEXT end",       "DATA begin",
                                         "DATA end",   "ANALYSIS begin", "ANALYSIS end"};

std::uint64_t headerOffset(const std::string& path, std::string_view bytes, int index) {
    const std::size_t at = 10 + 8 * static_cast<std::size_t>(index);
    const std::string_view field = bytes.substr(at, 8);
    // FCS 2.0 writers often leave the ANALYSIS (and sometimes DATA) fields blank: no segment.
    if (index >= 2 && trimBlanks(field).empty()) return 0;
    const auto value = parseUnsigned(field);
    if (!value)
        throwFileError(path, "HEADER bytes " + range(at, at + 7) + " (" + kOffsetNames[index] + ")",
                       "offset is not a number: '" + printable(field) + "'");
    return *value;
}

char delimiterAt(const std::string& path, std::string_view segment, std::uint64_t fileOffset) {
    if (segment.empty()) throwFileError(path, "TEXT byte " + std::to_string(fileOffset), "the TEXT segment is empty");
    const auto c = static_cast<unsigned char>(segment.front());
    // The standard allows any ASCII character 1-126 as delimiter; a letter, digit or '$' here means
    // the segment starts with a keyword instead, i.e. the offsets point at the wrong place.
    if (c == 0 || c > 126 || std::isalnum(c) || c == '$')
        throwFileError(path, "TEXT byte " + std::to_string(fileOffset),
                       "the TEXT segment does not start with a delimiter character (found '" +
                           printable(segment.substr(0, 16)) + "...')");
    return segment.front();
}

std::string escape(std::string_view text, char delimiter) {
    std::string out;
    for (char c : text) {
        out += c;
        if (c == delimiter) out += c;
    }
    return out;
}

std::vector<std::string> splitCommas(std::string_view text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        out.emplace_back(trimBlanks(text.substr(start, comma - start)));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

}  // namespace

std::optional<std::uint64_t> parseUnsigned(std::string_view text) {
    text = trimBlanks(text);
    if (text.empty()) return std::nullopt;
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

std::optional<double> parseNumber(std::string_view text) {
    text = trimBlanks(text);
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    if (text.empty()) return std::nullopt;
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

Header parseHeader(const std::string& path, std::string_view bytes, std::uint64_t fileSize) {
    if (fileSize < kHeaderSize || bytes.size() < kHeaderSize)
        throwFileError(
            path, "HEADER",
            "file too small for an FCS file (" + std::to_string(fileSize) + " bytes; the HEADER alone has 58)");
    if (bytes.substr(0, 3) != "FCS")
        throwFileError(path, "HEADER",
                       "not an FCS file: it starts with '" + printable(bytes.substr(0, 6)) +
                           "' instead of 'FCS2.0', 'FCS3.0' or 'FCS3.1'");
    Header header;
    header.version = std::string(bytes.substr(3, 3));
    if (header.version != "2.0" && header.version != "3.0" && header.version != "3.1")
        throwFileError(path, "HEADER",
                       "unsupported FCS version '" + printable(header.version) + "' (supported: 2.0, 3.0, 3.1)");
    header.textBegin = headerOffset(path, bytes, 0);
    header.textEnd = headerOffset(path, bytes, 1);
    header.dataBegin = headerOffset(path, bytes, 2);
    header.dataEnd = headerOffset(path, bytes, 3);
    header.analysisBegin = headerOffset(path, bytes, 4);
    header.analysisEnd = headerOffset(path, bytes, 5);

    const std::string where = "HEADER (TEXT at bytes " + range(header.textBegin, header.textEnd) + ")";
    if (header.textBegin < kHeaderSize)
        throwFileError(path, where, "the TEXT segment would overlap the 58-byte HEADER");
    if (header.textEnd <= header.textBegin) throwFileError(path, where, "the TEXT segment ends before it begins");
    if (header.textEnd >= fileSize)
        throwFileError(path, where,
                       "the TEXT segment extends beyond the end of the file (" + std::to_string(fileSize) + " bytes)");
    return header;
}

std::string formatHeader(const Header& header) {
    std::string out = "FCS" + header.version + "    ";
    for (std::uint64_t offset : {header.textBegin, header.textEnd, header.dataBegin, header.dataEnd,
                                 header.analysisBegin, header.analysisEnd}) {
        const std::string digits = std::to_string(offset);
        out += std::string(8 - std::min<std::size_t>(8, digits.size()), ' ') + digits;
    }
    return out;
}

std::string upperKey(std::string_view key) {
    std::string out(key);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
    return out;
}

bool Keywords::add(std::string key, std::string value) {
    if (!m_index.emplace(upperKey(key), m_entries.size()).second) return false;
    m_entries.emplace_back(std::move(key), std::move(value));
    return true;
}

const std::string* Keywords::find(std::string_view key) const {
    const auto it = m_index.find(upperKey(key));
    return it == m_index.end() ? nullptr : &m_entries[it->second].second;
}

const std::string& Keywords::require(const std::string& path, std::string_view key) const {
    const std::string* value = find(key);
    if (!value) throwFileError(path, "TEXT", "required keyword " + std::string(key) + " is missing");
    return *value;
}

char parseText(const std::string& path, std::string_view segment, std::uint64_t fileOffset, Keywords& into,
               std::vector<std::string>& duplicates, char delimiter) {
    std::size_t i = 0;
    if (delimiter == 0) {
        delimiter = delimiterAt(path, segment, fileOffset);
        i = 1;
    } else if (!segment.empty() && segment.front() == delimiter) {
        i = 1;
    }
    std::vector<std::string> fields;
    std::vector<std::size_t> starts;
    std::string field;
    std::size_t fieldStart = i;
    for (; i < segment.size(); ++i) {
        if (segment[i] != delimiter) {
            field += segment[i];
        } else if (i + 1 < segment.size() && segment[i + 1] == delimiter) {
            field += delimiter;  // FCS 3.1 TEXT: a doubled delimiter is a literal one
            ++i;
        } else {
            fields.push_back(std::move(field));
            starts.push_back(fieldStart);
            field.clear();
            fieldStart = i + 1;
        }
    }
    // Padding after the last delimiter (spaces, NULs) is common and carries nothing.
    if (!trimBlanks(field).empty()) {
        fields.push_back(std::move(field));
        starts.push_back(fieldStart);
    }
    if (fields.size() % 2 != 0)
        throwFileError(path, "TEXT byte " + std::to_string(fileOffset + starts.back()),
                       "odd number of TEXT fields (" + std::to_string(fields.size()) + "): keyword '" +
                           printable(fields.back()) + "' has no value");
    for (std::size_t k = 0; k < fields.size(); k += 2) {
        std::string key(trimBlanks(fields[k]));
        if (!into.add(key, std::move(fields[k + 1]))) duplicates.push_back(std::move(key));
    }
    return delimiter;
}

std::string formatText(const KeywordList& keywords, char delimiter) {
    std::string out(1, delimiter);
    for (const auto& [key, value] : keywords) {
        out += escape(key, delimiter);
        out += delimiter;
        out += escape(value, delimiter);
        out += delimiter;
    }
    return out;
}

char chooseDelimiter(const KeywordList& keywords) {
    auto startsWith = [&](char c) {
        return std::any_of(keywords.begin(), keywords.end(),
                           [c](const auto& kv) { return kv.first.starts_with(c) || kv.second.starts_with(c); });
    };
    if (!startsWith('/')) return '/';
    for (char c : {'|', '\x0c', '\x1e', '\x1f', '\x01'}) {
        const bool used = std::any_of(keywords.begin(), keywords.end(), [c](const auto& kv) {
            return kv.first.find(c) != std::string::npos || kv.second.find(c) != std::string::npos;
        });
        if (!used) return c;
    }
    return '/';
}

std::optional<Spillover> findSpillover(const std::string& path, const Keywords& keywords) {
    for (const char* name : {"$SPILLOVER", "SPILL", "$COMP"}) {
        const std::string* value = keywords.find(name);
        if (!value) continue;
        const std::string position = std::string("TEXT keyword ") + name;
        const std::vector<std::string> tokens = splitCommas(*value);
        const auto n = parseUnsigned(tokens.front());
        if (!n) throwFileError(path, position, "the matrix does not start with its size n: '" + tokens.front() + "'");
        if (*n == 0) return std::nullopt;
        if (*n > 1000) throwFileError(path, position, "implausible matrix size n = " + std::to_string(*n));
        const std::size_t count = *n;
        if (tokens.size() == 1 + count * count)
            throwFileError(path, position, "the matrix lists no detector names; expected n, n names, n*n values");
        if (tokens.size() != 1 + count + count * count)
            throwFileError(path, position,
                           "expected 1 + n + n*n = " + std::to_string(1 + count + count * count) +
                               " comma-separated entries for n = " + std::to_string(count) + ", found " +
                               std::to_string(tokens.size()));
        Spillover spill;
        spill.keyword = name;
        spill.names.assign(tokens.begin() + 1, tokens.begin() + 1 + static_cast<std::ptrdiff_t>(count));
        for (std::size_t k = 1 + count; k < tokens.size(); ++k) {
            const auto number = parseNumber(tokens[k]);
            if (!number)
                throwFileError(path, position,
                               "matrix entry " + std::to_string(k - count) + " is not a number: '" + tokens[k] + "'");
            spill.matrix.push_back(*number);
        }
        return spill;
    }
    return std::nullopt;
}

}  // namespace clusterlens::fcs
