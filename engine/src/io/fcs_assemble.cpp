// FCS 3.1 data set assembly. Required segment keywords and layout follow the FCS 3.1 standard
// (Spidlen et al., Cytometry A 77A:97-100, 2010).

#include "fcs_assemble.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/atomic_file.hpp"

namespace clusterlens::fcs {
namespace {

KeywordList withOffsets(const KeywordList& keywords, std::uint64_t dataBegin, std::uint64_t dataEnd) {
    KeywordList all = {
        {"$BEGINANALYSIS", "0"},
        {"$ENDANALYSIS", "0"},
        {"$BEGINSTEXT", "0"},
        {"$ENDSTEXT", "0"},
        {"$BEGINDATA", std::to_string(dataBegin)},
        {"$ENDDATA", std::to_string(dataEnd)},
        {"$NEXTDATA", "0"},
    };
    all.insert(all.end(), keywords.begin(), keywords.end());
    return all;
}

struct Segments {
    std::string header;
    std::string text;
};

/// TEXT starts right after the HEADER and DATA right after TEXT, but TEXT holds the DATA offsets, so
/// its length depends on them: recompute until the offsets no longer change (a few rounds at most,
/// since the lengths only grow with the digit counts).
Segments layoutSegments(const std::string& path, const KeywordList& keywords, std::uint64_t dataBytes) {
    std::uint64_t dataBegin = 0;
    std::uint64_t dataEnd = 0;
    std::string text;
    for (int round = 0; round < 16; ++round) {
        const KeywordList all = withOffsets(keywords, dataBegin, dataEnd);
        text = formatText(all, chooseDelimiter(all));
        const std::uint64_t begin = dataBytes == 0 ? 0 : kHeaderSize + text.size();
        const std::uint64_t end = dataBytes == 0 ? 0 : begin + dataBytes - 1;
        if (begin == dataBegin && end == dataEnd) break;
        dataBegin = begin;
        dataEnd = end;
    }
    Header header;
    header.version = "3.1";
    header.textBegin = kHeaderSize;
    header.textEnd = kHeaderSize + text.size() - 1;
    if (header.textEnd > kMaxHeaderOffset)
        throwFileError(path, "",
                       "the TEXT segment is too long for an FCS HEADER (" + std::to_string(text.size()) + " bytes)");
    // Offsets past 99,999,999 do not fit the HEADER: 0 there, the real ones in TEXT (FCS 3.1 HEADER).
    if (dataEnd <= kMaxHeaderOffset) {
        header.dataBegin = dataBegin;
        header.dataEnd = dataEnd;
    }
    return {formatHeader(header), text};
}

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

bool put(std::FILE* file, const std::string& bytes) {
    return std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
}

}  // namespace

void writeDataSet(const std::string& path, const KeywordList& keywords, std::uint64_t events, std::uint64_t eventBytes,
                  const EventEncoder& encode) {
    const Segments segments = layoutSegments(path, keywords, events * eventBytes);
    writeFileAtomically(path, [&](const std::string& temp) {
        std::unique_ptr<std::FILE, FileCloser> file(std::fopen(temp.c_str(), "wb"));
        if (!file) throwFileError(path, "", "cannot open the file for writing");
        bool ok = put(file.get(), segments.header) && put(file.get(), segments.text);
        const std::uint64_t chunkEvents =
            std::max<std::uint64_t>(1, (std::uint64_t{1} << 20) / std::max<std::uint64_t>(1, eventBytes));
        std::string chunk;
        for (std::uint64_t first = 0; ok && first < events; first += chunkEvents) {
            chunk.clear();
            encode(first, std::min(events, first + chunkEvents), chunk);
            ok = put(file.get(), chunk);
        }
        // FCS 3.0+ closes a data set with an 8-character CRC; "00000000" means not computed.
        ok = ok && put(file.get(), "00000000");
        ok = std::fclose(file.release()) == 0 && ok;
        if (!ok) throwFileError(path, "", "write failed (disk full?)");
    });
}

std::vector<std::string> displayRanges(const Dataset& data) {
    std::vector<double> maxima(data.d, 0.0);
    for (std::size_t k = 0; k < data.values.size(); ++k) {
        const float v = data.values[k];
        if (std::isfinite(v)) maxima[k % data.d] = std::max(maxima[k % data.d], static_cast<double>(v));
    }
    std::vector<std::string> ranges;
    for (double maximum : maxima) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.0f", std::max(1.0, std::ceil(maximum)));
        ranges.emplace_back(buffer);
    }
    return ranges;
}

void appendWord(std::string& out, std::uint64_t word, unsigned bytes, bool bigEndian) {
    for (unsigned b = 0; b < bytes; ++b) {
        const unsigned shift = 8 * (bigEndian ? bytes - 1 - b : b);
        out += static_cast<char>((word >> shift) & 0xffu);
    }
}

}  // namespace clusterlens::fcs
