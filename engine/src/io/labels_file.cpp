// Label files: one integer per line, or "index,label" CSV with a header.

#include <charconv>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/text_file.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "text_fields.hpp"

namespace clusterlens {

std::vector<std::int32_t> readLabels(const std::string& path, std::size_t expectedN) {
    const std::string content = readFileMaybeGzip(path);
    std::vector<std::int32_t> groups;
    std::size_t start = 0, lineNo = 0;
    bool twoColumns = false;
    while (start < content.size()) {
        std::size_t end = content.find('\n', start);
        if (end == std::string::npos) end = content.size();
        ++lineNo;
        std::string line = detail::trim(std::string_view(content).substr(start, end - start));
        start = end + 1;
        if (line.empty() || line.front() == '#') continue;
        if (lineNo == 1 && (line == "index,label" || line == "index,group")) {
            twoColumns = true;
            continue;
        }
        std::string cell = line;
        if (twoColumns) {
            const std::vector<std::string> fields = detail::splitFields(line, ',');
            if (fields.size() != 2) throwFileError(path, "line " + std::to_string(lineNo), "expected index,label");
            if (fields[0] != std::to_string(groups.size()))
                throwFileError(path, "line " + std::to_string(lineNo),
                               "expected index " + std::to_string(groups.size()) + ", found '" + fields[0] + "'");
            cell = fields[1];
        }
        long long value = 0;
        auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
        if (ec != std::errc() || ptr != cell.data() + cell.size())
            throwFileError(path, "line " + std::to_string(lineNo), "'" + cell + "' is not an integer group id");
        groups.push_back(static_cast<std::int32_t>(value));
    }
    if (groups.empty()) throwFileError(path, "", "the file holds no group ids");
    if (expectedN != 0 && groups.size() != expectedN)
        throwFileError(path, "",
                       "has " + std::to_string(groups.size()) + " group ids but the data has " +
                           std::to_string(expectedN) + " points");
    return groups;
}

void writeLabelsCsv(const std::string& path, const std::vector<std::int32_t>& labels) {
    std::string text = "index,label\n";
    for (std::size_t i = 0; i < labels.size(); ++i) text += std::to_string(i) + ',' + std::to_string(labels[i]) + '\n';
    writeTextFile(path, text);
}

}  // namespace clusterlens
