// FCS 3.1 writer: list mode, 32-bit little-endian floats, one optional extra cluster-id parameter.
// Required keywords and segment layout follow the FCS 3.1 standard (Spidlen et al., Cytometry A 2010).

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "fcs_text.hpp"

namespace clusterlens {
namespace {

using KeywordList = std::vector<std::pair<std::string, std::string>>;

/// The columns written: the dataset's features, then the cluster ids when given.
struct Columns {
    std::vector<std::string> names;
    std::vector<std::string> descriptions;
    std::vector<std::string> ranges;
};

/// $PnR: for float data only a hint for display, the largest value rounded up (at least 1).
std::string rangeText(double maximum) {
    const double range = std::max(1.0, std::ceil(maximum));
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.0f", range);
    return buffer;
}

Columns describeColumns(const Dataset& data, const std::vector<std::int32_t>& clusterIds,
                        const std::string& clusterName) {
    Columns columns;
    std::vector<double> maxima(data.d, 0.0);
    for (std::size_t k = 0; k < data.values.size(); ++k) {
        const float v = data.values[k];
        if (std::isfinite(v)) maxima[k % data.d] = std::max(maxima[k % data.d], static_cast<double>(v));
    }
    for (std::size_t j = 0; j < data.d; ++j) {
        // $PnN may not be empty (FCS 3.1); unnamed columns get their parameter number.
        const std::string& name = j < data.features.size() ? data.features[j] : std::string();
        columns.names.push_back(name.empty() ? "P" + std::to_string(j + 1) : name);
        columns.descriptions.push_back(j < data.descriptions.size() ? data.descriptions[j] : std::string());
        columns.ranges.push_back(rangeText(maxima[j]));
    }
    if (!clusterIds.empty()) {
        double maximum = 0;
        for (std::int32_t id : clusterIds) maximum = std::max(maximum, static_cast<double>(id));
        columns.names.push_back(clusterName.empty() ? "cluster" : clusterName);
        columns.descriptions.emplace_back();
        columns.ranges.push_back(rangeText(maximum + 1));
    }
    return columns;
}

/// Every keyword FCS 3.1 requires for list-mode float data, then the parameters.
KeywordList buildKeywords(const std::string& path, const Dataset& data, const Columns& columns, std::uint64_t dataBegin,
                          std::uint64_t dataEnd) {
    KeywordList keywords = {
        {"$BEGINANALYSIS", "0"},
        {"$ENDANALYSIS", "0"},
        {"$BEGINSTEXT", "0"},
        {"$ENDSTEXT", "0"},
        {"$BEGINDATA", std::to_string(dataBegin)},
        {"$ENDDATA", std::to_string(dataEnd)},
        {"$BYTEORD", "1,2,3,4"},
        {"$DATATYPE", "F"},
        {"$MODE", "L"},
        {"$NEXTDATA", "0"},
        {"$PAR", std::to_string(columns.names.size())},
        {"$TOT", std::to_string(data.n)},
        {"CREATOR", "ClusterLens"},
    };
    const std::string file = std::filesystem::path(path).filename().string();
    if (!file.empty()) keywords.emplace_back("$FIL", file);
    for (std::size_t j = 0; j < columns.names.size(); ++j) {
        const std::string p = "$P" + std::to_string(j + 1);
        keywords.emplace_back(p + "N", columns.names[j]);
        if (!columns.descriptions[j].empty()) keywords.emplace_back(p + "S", columns.descriptions[j]);
        keywords.emplace_back(p + "B", "32");
        keywords.emplace_back(p + "E", "0,0");
        keywords.emplace_back(p + "R", columns.ranges[j]);
    }
    return keywords;
}

struct Segments {
    std::string header;
    std::string text;
};

/// TEXT starts right after the HEADER and DATA right after TEXT, but TEXT holds the DATA offsets, so
/// its length depends on them: recompute until the offsets no longer change (a few rounds at most,
/// since the lengths only grow with the digit counts).
Segments layoutSegments(const std::string& path, const Dataset& data, const Columns& columns, std::uint64_t dataBytes) {
    std::uint64_t dataBegin = 0;
    std::uint64_t dataEnd = 0;
    std::string text;
    for (int round = 0; round < 16; ++round) {
        const KeywordList keywords = buildKeywords(path, data, columns, dataBegin, dataEnd);
        text = fcs::formatText(keywords, fcs::chooseDelimiter(keywords));
        const std::uint64_t begin = dataBytes == 0 ? 0 : fcs::kHeaderSize + text.size();
        const std::uint64_t end = dataBytes == 0 ? 0 : begin + dataBytes - 1;
        if (begin == dataBegin && end == dataEnd) break;
        dataBegin = begin;
        dataEnd = end;
    }
    fcs::Header header;
    header.version = "3.1";
    header.textBegin = fcs::kHeaderSize;
    header.textEnd = fcs::kHeaderSize + text.size() - 1;
    if (header.textEnd > fcs::kMaxHeaderOffset)
        throwFileError(path, "",
                       "the TEXT segment is too long for an FCS HEADER (" + std::to_string(text.size()) + " bytes)");
    // Offsets past 99,999,999 do not fit the HEADER: 0 there, the real ones in TEXT (FCS 3.1 HEADER).
    if (dataEnd <= fcs::kMaxHeaderOffset) {
        header.dataBegin = dataBegin;
        header.dataEnd = dataEnd;
    }
    return {fcs::formatHeader(header), text};
}

void appendFloat(std::string& out, float value) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    for (int b = 0; b < 4; ++b) out += static_cast<char>((bits >> (8 * b)) & 0xffu);
}

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

}  // namespace

void writeFcs(const std::string& path, const Dataset& data, const std::vector<std::int32_t>& clusterIds,
              const std::string& clusterName) {
    if (data.values.size() != data.n * data.d)
        throw InvalidInput(path + ": cannot write FCS: the dataset holds " + std::to_string(data.values.size()) +
                           " values, not N*D = " + std::to_string(data.n * data.d));
    if (!clusterIds.empty() && clusterIds.size() != data.n)
        throw InvalidInput(path + ": cannot write FCS: " + std::to_string(clusterIds.size()) + " cluster ids for " +
                           std::to_string(data.n) + " points");
    const Columns columns = describeColumns(data, clusterIds, clusterName);
    const std::size_t width = columns.names.size();
    const Segments segments = layoutSegments(path, data, columns, std::uint64_t{data.n} * width * 4);

    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "wb"));
    if (!file) throwFileError(path, "", "cannot open the file for writing");
    bool ok = std::fwrite(segments.header.data(), 1, segments.header.size(), file.get()) == segments.header.size() &&
              std::fwrite(segments.text.data(), 1, segments.text.size(), file.get()) == segments.text.size();
    constexpr std::size_t kChunkEvents = 1 << 14;
    std::string chunk;
    for (std::size_t first = 0; ok && first < data.n; first += kChunkEvents) {
        chunk.clear();
        const std::size_t last = std::min(data.n, first + kChunkEvents);
        for (std::size_t i = first; i < last; ++i) {
            for (std::size_t j = 0; j < data.d; ++j) appendFloat(chunk, data.values[i * data.d + j]);
            if (!clusterIds.empty()) appendFloat(chunk, static_cast<float>(clusterIds[i]));
        }
        ok = std::fwrite(chunk.data(), 1, chunk.size(), file.get()) == chunk.size();
    }
    // FCS 3.0+ closes a data set with an 8-character CRC; "00000000" means not computed.
    ok = ok && std::fwrite("00000000", 1, 8, file.get()) == 8;
    ok = std::fclose(file.release()) == 0 && ok;
    if (!ok) throwFileError(path, "", "write failed (disk full?)");
}

}  // namespace clusterlens
