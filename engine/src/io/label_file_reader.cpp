// Labels files written by other tools (readLabelFile in labels.hpp): one label per line or KEY,LABEL,
// integer labels or class names, with or without a header.

#include <charconv>
#include <cctype>
#include <limits>
#include <unordered_map>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "text_fields.hpp"

namespace clusterlens {
namespace {

struct Row {
    std::size_t line = 0;
    std::vector<std::string> fields;
};

std::string lineText(std::size_t line) {
    return "line " + std::to_string(line);
}

bool parseInteger(const std::string& text, long long& value) {
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && ptr == text.data() + text.size();
}

bool isInteger(const std::string& text) {
    long long value = 0;
    return parseInteger(text, value);
}

bool isMissing(const std::string& text) {
    std::string lower;
    for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower.empty() || lower == "na" || lower == "nan";
}

char separatorOf(const std::string& line) {
    for (char sep : {'\t', ',', ';'})
        if (line.find(sep) != std::string::npos) return sep;
    return '\0';
}

std::vector<Row> splitRows(const std::string& path, const std::string& content) {
    std::vector<Row> rows;
    char sep = '\0';
    std::size_t start = 0, lineNo = 0;
    while (start < content.size()) {
        std::size_t end = content.find('\n', start);
        if (end == std::string::npos) end = content.size();
        ++lineNo;
        const std::string line = detail::trim(std::string_view(content).substr(start, end - start));
        start = end + 1;
        if (line.empty() || line.front() == '#') continue;
        if (rows.empty()) sep = separatorOf(line);
        Row row{lineNo, sep ? detail::splitFields(line, sep) : std::vector<std::string>{line}};
        for (std::string& field : row.fields) field = detail::trim(field);
        if (row.fields.size() > 2)
            throwFileError(
                path, lineText(lineNo),
                std::to_string(row.fields.size()) +
                    " fields; a labels file has one label per line, or two columns (event index or name, label)");
        if (!rows.empty() && row.fields.size() != rows.front().fields.size())
            throwFileError(path, lineText(lineNo),
                           std::to_string(row.fields.size()) + " fields where the lines before have " +
                               std::to_string(rows.front().fields.size()));
        rows.push_back(std::move(row));
    }
    if (rows.empty()) throwFileError(path, "", "the file holds no labels");
    return rows;
}

bool hasHeader(const std::vector<Row>& rows, std::size_t expectedN) {
    if (expectedN != 0 && rows.size() == expectedN + 1) return true;
    if (expectedN != 0 && rows.size() == expectedN) return false;
    if (rows.size() < 2) return false;
    const auto textThenNumber = [&](std::size_t field) {
        return !isInteger(rows[0].fields[field]) && isInteger(rows[1].fields[field]);
    };
    return textThenNumber(rows[0].fields.size() - 1) || (rows[0].fields.size() == 2 && textThenNumber(0));
}

/// Integer labels as they are, or class names numbered in order of first appearance.
void assignLabels(const std::string& path, const std::vector<Row>& rows, std::size_t first, LabelFile& out,
                  std::vector<std::int32_t>& values) {
    const std::size_t labelField = rows.front().fields.size() - 1;
    bool integers = true;
    for (std::size_t r = first; r < rows.size() && integers; ++r) {
        const std::string& text = rows[r].fields[labelField];
        integers = isMissing(text) || isInteger(text);
    }
    std::unordered_map<std::string, std::int32_t> classes;
    for (std::size_t r = first; r < rows.size(); ++r) {
        const std::string& text = rows[r].fields[labelField];
        long long value = -1;
        if (isMissing(text)) {
            value = -1;
        } else if (integers) {
            parseInteger(text, value);
            if (value < std::numeric_limits<std::int32_t>::min() || value > std::numeric_limits<std::int32_t>::max())
                throwFileError(path, lineText(rows[r].line), "label " + text + " is out of range");
        } else {
            const auto [it, added] = classes.emplace(text, static_cast<std::int32_t>(out.names.size()));
            if (added) out.names.push_back(text);
            value = it->second;
        }
        values.push_back(static_cast<std::int32_t>(value));
    }
}

/// Places the labels at the events their keys name: 0-based indices, or names of `pointNames`.
std::vector<std::int32_t> placeByKey(const std::string& path, const std::vector<Row>& rows, std::size_t first,
                                     const std::vector<std::int32_t>& values,
                                     const std::vector<std::string>& pointNames) {
    const std::size_t count = rows.size() - first;
    bool indices = true;
    for (std::size_t r = first; r < rows.size() && indices; ++r) indices = isInteger(rows[r].fields[0]);
    std::unordered_map<std::string, std::size_t> byName;
    if (!indices)
        for (std::size_t i = 0; i < pointNames.size(); ++i) byName.emplace(pointNames[i], i);
    const std::size_t n = indices ? count : pointNames.size();
    std::vector<std::int32_t> labels(n, -1);
    std::vector<bool> seen(n, false);
    for (std::size_t r = first; r < rows.size(); ++r) {
        const std::string& key = rows[r].fields[0];
        long long index = -1;
        if (indices) {
            parseInteger(key, index);
            if (index < 0 || static_cast<std::size_t>(index) >= n)
                throwFileError(path, lineText(rows[r].line),
                               "event index " + key + " is outside 0.." + std::to_string(n - 1));
        } else if (const auto it = byName.find(key); it != byName.end()) {
            index = static_cast<long long>(it->second);
        } else {
            throwFileError(path, lineText(rows[r].line),
                           "'" + key + "' is neither an event index nor " +
                               (pointNames.empty() ? std::string("an event name (the data has no event names)")
                                                   : std::string("the name of an event of the data")));
        }
        if (seen[static_cast<std::size_t>(index)])
            throwFileError(path, lineText(rows[r].line), "event " + key + " is labelled twice");
        seen[static_cast<std::size_t>(index)] = true;
        labels[static_cast<std::size_t>(index)] = values[r - first];
    }
    if (count != n)
        throwFileError(path, "", "labels " + std::to_string(count) + " events but the data has " + std::to_string(n));
    return labels;
}

}  // namespace

LabelFile readLabelFile(const std::string& path, std::size_t expectedN, const std::vector<std::string>& pointNames) {
    const std::vector<Row> rows = splitRows(path, readFileMaybeGzip(path));
    const std::size_t first = hasHeader(rows, expectedN) ? 1 : 0;
    if (first == rows.size()) throwFileError(path, "", "the file holds a header but no labels");
    LabelFile out;
    if (first == 1) out.column = rows.front().fields.back();
    std::vector<std::int32_t> values;
    assignLabels(path, rows, first, out, values);
    out.labels =
        rows.front().fields.size() == 2 ? placeByKey(path, rows, first, values, pointNames) : std::move(values);
    if (expectedN != 0 && out.labels.size() != expectedN)
        throwFileError(path, "",
                       "has " + std::to_string(out.labels.size()) + " labels but the data has " +
                           std::to_string(expectedN) + " events");
    return out;
}

}  // namespace clusterlens
