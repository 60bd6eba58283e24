#pragma once
// FCS files for tests, written independently of the engine, and a reader of their TEXT keywords.

#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace clusterlens::test {

using KeywordList = std::vector<std::pair<std::string, std::string>>;

template <typename T>
std::string encode(T value, bool bigEndian) {
    std::uint64_t bits = 0;
    if constexpr (std::is_floating_point_v<T>) {
        bits = sizeof(T) == 4 ? std::bit_cast<std::uint32_t>(static_cast<float>(value))
                              : std::bit_cast<std::uint64_t>(static_cast<double>(value));
    } else {
        bits = static_cast<std::uint64_t>(value);
    }
    std::string out;
    for (std::size_t b = 0; b < sizeof(T); ++b) {
        const std::size_t shift = 8 * (bigEndian ? sizeof(T) - 1 - b : b);
        out += static_cast<char>((bits >> shift) & 0xff);
    }
    return out;
}

inline std::string padded(std::uint64_t value, std::size_t width) {
    std::string digits = std::to_string(value);
    return std::string(width - digits.size(), ' ') + digits;
}

/// An FCS file written independently of the engine: HEADER, TEXT at byte 58 (delimiter '/',
/// keywords escaped), DATA right after it, then an optional supplemental TEXT.
struct FcsBuilder {
    std::string version = "3.1";
    KeywordList keywords;
    std::string data;
    std::string supplemental;  ///< raw supplemental TEXT, placed after DATA
    bool dataKeywords = true;  ///< write $BEGINDATA/$ENDDATA
    bool headerDataOffsets = true;

    std::string build() const {
        auto escape = [](const std::string& s) {
            std::string out;
            for (char c : s) out += c == '/' ? std::string("//") : std::string(1, c);
            return out;
        };
        // Offsets in TEXT use a fixed width, so the TEXT length does not depend on them.
        auto textFor = [&](std::uint64_t begin, std::uint64_t end, std::uint64_t sBegin, std::uint64_t sEnd) {
            std::string text = "/";
            KeywordList all = keywords;
            if (dataKeywords) {
                all.emplace_back("$BEGINDATA", padded(begin, 10));
                all.emplace_back("$ENDDATA", padded(end, 10));
            }
            if (!supplemental.empty()) {
                all.emplace_back("$BEGINSTEXT", padded(sBegin, 10));
                all.emplace_back("$ENDSTEXT", padded(sEnd, 10));
            }
            for (const auto& [k, v] : all) text += escape(k) + "/" + escape(v) + "/";
            return text;
        };
        const std::size_t textSize = textFor(0, 0, 0, 0).size();
        const std::uint64_t dataBegin = 58 + textSize;
        const std::uint64_t dataEnd = dataBegin + data.size() - 1;
        const std::uint64_t sBegin = dataEnd + 1;
        const std::uint64_t sEnd = sBegin + supplemental.size() - 1;
        std::string header = "FCS" + version + "    " + padded(58, 8) + padded(58 + textSize - 1, 8) +
                             padded(headerDataOffsets ? dataBegin : 0, 8) + padded(headerDataOffsets ? dataEnd : 0, 8) +
                             padded(0, 8) + padded(0, 8);
        return header + textFor(dataBegin, dataEnd, sBegin, sEnd) + data + supplemental;
    }
};

/// A list-mode file with the given $DATATYPE/$BYTEORD and parameters ($PnB for each).
inline FcsBuilder listMode(const std::string& type, const std::string& byteOrder, std::size_t events,
                           const std::vector<int>& bits) {
    FcsBuilder b;
    b.keywords = {{"$BYTEORD", byteOrder},
                  {"$DATATYPE", type},
                  {"$MODE", "L"},
                  {"$NEXTDATA", "0"},
                  {"$PAR", std::to_string(bits.size())},
                  {"$TOT", std::to_string(events)}};
    for (std::size_t j = 0; j < bits.size(); ++j) {
        const std::string p = "$P" + std::to_string(j + 1);
        b.keywords.emplace_back(p + "N", "ch" + std::to_string(j + 1));
        b.keywords.emplace_back(p + "B", std::to_string(bits[j]));
        b.keywords.emplace_back(p + "E", "0,0");
        b.keywords.emplace_back(p + "R", "1024");
    }
    return b;
}

/// The primary TEXT keywords of an FCS file's bytes (offsets from the HEADER, first byte the
/// delimiter, doubled delimiters literal), keys as written. Empty when the bytes are not FCS.
inline std::map<std::string, std::string> textKeywords(const std::string& file) {
    std::map<std::string, std::string> keywords;
    if (file.size() < 58 || file.compare(0, 3, "FCS") != 0) return keywords;
    const std::size_t begin = std::stoul(file.substr(10, 8));
    const std::size_t end = std::stoul(file.substr(18, 8));
    const char delimiter = file[begin];
    std::vector<std::string> fields(1);
    for (std::size_t i = begin + 1; i <= end; ++i) {
        if (file[i] != delimiter) {
            fields.back() += file[i];
        } else if (i + 1 <= end && file[i + 1] == delimiter) {
            fields.back() += delimiter;
            ++i;
        } else {
            fields.emplace_back();
        }
    }
    for (std::size_t k = 0; k + 1 < fields.size(); k += 2) keywords[fields[k]] = fields[k + 1];
    return keywords;
}

}  // namespace clusterlens::test
