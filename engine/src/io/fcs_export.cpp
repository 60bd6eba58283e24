// FCS export that keeps the source file: its events' bytes and its keywords unchanged, the layout
// keywords recomputed, new channels appended as parameters $P(n+1)... (FCS 3.1, Spidlen et al.,
// Cytometry A 77A:97-100, 2010).

#include "fcs_export.hpp"

#include <bit>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>

#include "clusterlens/errors.hpp"
#include "clusterlens/job_control.hpp"
#include "export_support.hpp"
#include "fcs_assemble.hpp"

namespace clusterlens::fcs {
namespace {

/// Keywords that describe the segments and the data layout, and the export's own: the writer sets
/// them for what it writes.
const std::set<std::string, std::less<>> kWrittenKeywords = {
    "$BEGINANALYSIS", "$ENDANALYSIS", "$BEGINSTEXT", "$ENDSTEXT", "$BEGINDATA", "$ENDDATA",          "$NEXTDATA",
    "$TOT",           "$PAR",         "$DATATYPE",   "$BYTEORD",  "$MODE",      "CLUSTERLENS_SOURCE"};

/// For "$P<n><suffix>" (case-insensitive) the parameter number n and the upper-case suffix; n = 0 otherwise.
std::pair<std::size_t, std::string> parameterKeyword(const std::string& upper) {
    if (upper.size() < 3 || upper[0] != '$' || upper[1] != 'P' || !std::isdigit(static_cast<unsigned char>(upper[2])))
        return {0, ""};
    std::size_t at = 2, number = 0;
    while (at < upper.size() && std::isdigit(static_cast<unsigned char>(upper[at])) && number < 1'000'000)
        number = number * 10 + static_cast<std::size_t>(upper[at++] - '0');
    return {number, upper.substr(at)};
}

/// The source's keywords minus the layout ones, $PnB (set from what is written) and keywords of
/// parameters beyond $PAR (they would collide with the appended channels).
KeywordList keptKeywords(const RawFile& raw) {
    KeywordList kept;
    const std::size_t parameters = raw.layout.params.size();
    for (const auto& [key, value] : raw.keywords.entries()) {
        const std::string upper = upperKey(key);
        if (kWrittenKeywords.contains(upper)) continue;
        const auto [number, suffix] = parameterKeyword(upper);
        if (number > parameters || (number > 0 && suffix == "B")) continue;
        kept.emplace_back(key, value);
    }
    return kept;
}

/// Keywords FCS 3.1 requires per parameter that an older source may lack.
void addMissingParameterKeywords(const RawFile& raw, const Dataset& decoded, KeywordList& keywords) {
    std::vector<std::string> ranges;
    for (std::size_t j = 0; j < raw.layout.params.size(); ++j) {
        const Parameter& p = raw.layout.params[j];
        keywords.emplace_back(pkey(j, "B"), std::to_string(8 * p.bytes));
        if (!raw.keywords.find(pkey(j, "N"))) keywords.emplace_back(pkey(j, "N"), p.name);
        if (!raw.keywords.find(pkey(j, "E"))) keywords.emplace_back(pkey(j, "E"), "0,0");
        if (raw.keywords.find(pkey(j, "R"))) continue;
        if (raw.layout.type == 'I') {
            keywords.emplace_back(pkey(j, "R"), std::to_string(std::uint64_t{1} << std::min(63u, 8 * p.bytes)));
        } else {
            if (ranges.empty()) ranges = displayRanges(decoded);
            keywords.emplace_back(pkey(j, "R"), ranges[j]);
        }
    }
}

/// Bytes of an appended channel: the data type's width, or for integer data the widest parameter.
unsigned channelBytes(const Layout& layout) {
    if (layout.type == 'F') return 4;
    if (layout.type == 'D') return 8;
    unsigned widest = 1;
    for (const Parameter& p : layout.params) widest = std::max(widest, p.bytes);
    return widest;
}

void checkChannelsFit(const std::string& path, const Layout& layout, const ExportSelection& selection) {
    if (layout.type != 'I') return;
    const unsigned bits = 8 * channelBytes(layout);
    for (const ExtraChannel& channel : selection.channels) {
        const std::uint64_t largest = detail::fcsChannelRange(channel) - 1;
        if (bits < 64 && largest >= (std::uint64_t{1} << bits))
            throwFileError(path, "",
                           "channel '" + channel.name + "' needs values up to " + std::to_string(largest) +
                               ", more than the source's " + std::to_string(bits) + "-bit integers hold");
    }
}

std::uint64_t encodeChannel(char type, double value) {
    if (type == 'F') return std::bit_cast<std::uint32_t>(static_cast<float>(value));
    if (type == 'D') return std::bit_cast<std::uint64_t>(value);
    return static_cast<std::uint64_t>(value);
}

KeywordList buildKeywords(const RawFile& raw, const Dataset& decoded, const ExportSelection& selection,
                          std::size_t events) {
    const std::size_t parameters = raw.layout.params.size();
    KeywordList keywords = {
        {"$BYTEORD", raw.layout.bigEndian ? "4,3,2,1" : "1,2,3,4"},
        {"$DATATYPE", std::string(1, raw.layout.type)},
        {"$MODE", "L"},
        {"$PAR", std::to_string(parameters + selection.channels.size())},
        {"$TOT", std::to_string(events)},
        {"CLUSTERLENS_SOURCE", std::filesystem::path(raw.path).filename().string() + ", " + std::to_string(events) +
                                   " of " + std::to_string(raw.events) + " events"},
    };
    const KeywordList kept = keptKeywords(raw);
    keywords.insert(keywords.end(), kept.begin(), kept.end());
    addMissingParameterKeywords(raw, decoded, keywords);
    const std::string bits = std::to_string(8 * channelBytes(raw.layout));
    for (std::size_t c = 0; c < selection.channels.size(); ++c) {
        const std::size_t j = parameters + c;
        const ExtraChannel& channel = selection.channels[c];
        keywords.emplace_back(pkey(j, "N"), channel.name);
        keywords.emplace_back(pkey(j, "S"), detail::fcsChannelDescription(channel.kind));
        keywords.emplace_back(pkey(j, "B"), bits);
        keywords.emplace_back(pkey(j, "E"), "0,0");
        keywords.emplace_back(pkey(j, "R"), std::to_string(detail::fcsChannelRange(channel)));
    }
    return keywords;
}

}  // namespace

void writeFcsKeepingSource(const std::string& path, const RawFile& raw, const Dataset& decoded,
                           const ExportSelection& selection) {
    validateSelection(path, selection, raw.events);
    checkChannelsFit(path, raw.layout, selection);
    const std::size_t events = detail::selectedCount(selection, raw.events);
    const KeywordList keywords = buildKeywords(raw, decoded, selection, events);
    const std::uint64_t sourceBytes = raw.layout.eventBytes;
    const unsigned extraBytes = channelBytes(raw.layout);
    const std::uint64_t eventBytes = sourceBytes + extraBytes * selection.channels.size();
    writeDataSet(path, keywords, events, eventBytes, [&](std::size_t first, std::size_t last, std::string& out) {
        if (selection.control != nullptr) selection.control->checkCancelled();  // every 1 MiB block
        for (std::size_t k = first; k < last; ++k) {
            const std::size_t i = detail::selectedEvent(selection, k);
            out.append(raw.data, i * sourceBytes, sourceBytes);
            for (const ExtraChannel& channel : selection.channels)
                appendWord(out, encodeChannel(raw.layout.type, fcsChannelValue(channel.kind, channel.values[i])),
                           extraBytes, raw.layout.bigEndian);
        }
    });
}

}  // namespace clusterlens::fcs
