// FCS 3.1 writer for a dataset's values: list mode, 32-bit little-endian floats, appended channels.
// Required keywords follow the FCS 3.1 standard (Spidlen et al., Cytometry A 2010).

#include <bit>
#include <cstdint>
#include <filesystem>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "clusterlens/job_control.hpp"
#include "export_support.hpp"
#include "fcs_assemble.hpp"

namespace clusterlens {
namespace {

/// One written parameter's keywords.
struct Column {
    std::string name;
    std::string description;
    std::string range;
};

std::vector<Column> describeColumns(const Dataset& data, const ExportSelection& selection) {
    const std::vector<std::string> ranges = fcs::displayRanges(data);
    std::vector<Column> columns;
    for (std::size_t j = 0; j < data.d; ++j) {
        // $PnN may not be empty (FCS 3.1); unnamed columns get their parameter number.
        const std::string& name = j < data.features.size() ? data.features[j] : std::string();
        columns.push_back({name.empty() ? "P" + std::to_string(j + 1) : name,
                           j < data.descriptions.size() ? data.descriptions[j] : std::string(), ranges[j]});
    }
    for (const ExtraChannel& channel : selection.channels)
        columns.push_back({channel.name, detail::fcsChannelDescription(channel.kind),
                           std::to_string(detail::fcsChannelRange(channel))});
    return columns;
}

/// Every keyword FCS 3.1 requires for list-mode float data besides the segment offsets, then the parameters.
fcs::KeywordList buildKeywords(const std::string& path, const std::vector<Column>& columns, std::size_t events) {
    fcs::KeywordList keywords = {
        {"$BYTEORD", "1,2,3,4"},
        {"$DATATYPE", "F"},
        {"$MODE", "L"},
        {"$PAR", std::to_string(columns.size())},
        {"$TOT", std::to_string(events)},
        {"CREATOR", "ClusterLens"},
    };
    const std::string file = std::filesystem::path(path).filename().string();
    if (!file.empty()) keywords.emplace_back("$FIL", file);
    for (std::size_t j = 0; j < columns.size(); ++j) {
        const std::string p = "$P" + std::to_string(j + 1);
        keywords.emplace_back(p + "N", columns[j].name);
        if (!columns[j].description.empty()) keywords.emplace_back(p + "S", columns[j].description);
        keywords.emplace_back(p + "B", "32");
        keywords.emplace_back(p + "E", "0,0");
        keywords.emplace_back(p + "R", columns[j].range);
    }
    return keywords;
}

void appendFloat(std::string& out, float value) {
    fcs::appendWord(out, std::bit_cast<std::uint32_t>(value), 4, false);
}

}  // namespace

void writeFcs(const std::string& path, const Dataset& data, const ExportSelection& selection) {
    if (data.values.size() != data.n * data.d)
        throw InvalidInput(path + ": cannot write FCS: the dataset holds " + std::to_string(data.values.size()) +
                           " values, not N*D = " + std::to_string(data.n * data.d));
    validateSelection(path, selection, data.n);
    const std::vector<Column> columns = describeColumns(data, selection);
    const std::size_t events = detail::selectedCount(selection, data.n);
    const fcs::KeywordList keywords = buildKeywords(path, columns, events);
    fcs::writeDataSet(
        path, keywords, events, 4 * columns.size(), [&](std::size_t first, std::size_t last, std::string& out) {
            if (selection.control != nullptr) selection.control->checkCancelled();  // every 1 MiB block
            for (std::size_t k = first; k < last; ++k) {
                const std::size_t i = detail::selectedEvent(selection, k);
                for (std::size_t j = 0; j < data.d; ++j) appendFloat(out, data.values[i * data.d + j]);
                for (const ExtraChannel& channel : selection.channels)
                    appendFloat(out, static_cast<float>(fcsChannelValue(channel.kind, channel.values[i])));
            }
        });
}

}  // namespace clusterlens
