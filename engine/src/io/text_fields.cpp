#include "text_fields.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <limits>

namespace clusterlens::detail {

std::string trim(std::string_view text) {
    std::size_t begin = 0, end = text.size();
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (begin < end && blank(text[begin])) ++begin;
    while (end > begin && blank(text[end - 1])) --end;
    return std::string(text.substr(begin, end - begin));
}

std::vector<std::string> splitFields(std::string_view line, char sep) {
    std::vector<std::string> fields;
    const bool whitespace = sep == ' ';
    std::size_t i = 0;
    const std::size_t n = line.size();
    auto isSep = [&](char c) { return whitespace ? (c == ' ' || c == '\t') : c == sep; };
    if (whitespace)
        while (i < n && isSep(line[i])) ++i;
    while (i <= n) {
        std::string field;
        while (i < n && (line[i] == ' ' || line[i] == '\t') && !whitespace) ++i;  // blanks before a quote
        if (i < n && line[i] == '"') {
            ++i;
            while (i < n) {
                if (line[i] == '"') {
                    if (i + 1 < n && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += line[i++];
            }
            while (i < n && !isSep(line[i])) field += line[i++];  // junk after the closing quote is kept
        } else {
            while (i < n && !isSep(line[i])) field += line[i++];
        }
        fields.push_back(whitespace ? field : trim(field));
        if (i >= n) break;
        ++i;  // the separator
        if (whitespace) {
            while (i < n && isSep(line[i])) ++i;
            if (i >= n) break;
        }
    }
    return fields;
}

bool parseDouble(std::string_view field, double& value) {
    std::string text = trim(field);
    if (text.empty()) return false;
    std::string lower;
    for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "na" || lower == "nan") {
        value = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    if (lower == "inf" || lower == "+inf" || lower == "infinity") {
        value = std::numeric_limits<double>::infinity();
        return true;
    }
    if (lower == "-inf" || lower == "-infinity") {
        value = -std::numeric_limits<double>::infinity();
        return true;
    }
    // from_chars is locale-independent (the GUI runs under the user's locale) and exact.
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (*begin == '+') ++begin;
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec == std::errc::result_out_of_range) {
        // Overflow becomes +-inf (refused later with its position), underflow a denormal or 0.
        value = std::strtod(std::string(begin, end).c_str(), nullptr);
        return true;
    }
    if (ec != std::errc() || ptr != end) return false;
    return true;
}

}  // namespace clusterlens::detail
