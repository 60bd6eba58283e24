// Text tables: CSV / TSV / whitespace, optional header, optional label column, gzip.

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <string_view>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "text_fields.hpp"

namespace clusterlens {
namespace {

struct Lines {
    std::vector<std::string_view> text;
    std::vector<std::size_t> number;  // 1-based line number in the file
};

Lines splitLines(const std::string& content) {
    Lines lines;
    std::size_t start = 0, lineNo = 0;
    while (start < content.size()) {
        std::size_t end = content.find('\n', start);
        if (end == std::string::npos) end = content.size();
        ++lineNo;
        std::string_view line(content.data() + start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const bool blank = line.find_first_not_of(" \t") == std::string_view::npos;
        if (!blank && line.front() != '#') {
            lines.text.push_back(line);
            lines.number.push_back(lineNo);
        }
        start = end + 1;
    }
    return lines;
}

char detectSeparator(const std::string& path, std::string_view firstLine) {
    std::string lower = std::filesystem::path(path).filename().string();
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower.ends_with(".tsv") || lower.ends_with(".tsv.gz")) return '\t';
    if (firstLine.find(',') != std::string_view::npos) return ',';
    if (firstLine.find('\t') != std::string_view::npos) return '\t';
    if (firstLine.find(';') != std::string_view::npos) return ';';
    return ' ';
}

bool allNumeric(const std::vector<std::string>& fields) {
    double v = 0;
    return std::all_of(fields.begin(), fields.end(), [&](const std::string& f) { return detail::parseDouble(f, v); });
}

bool isNonNegativeInteger(const std::string& text, long long& value) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && ptr == text.data() + text.size() && value >= 0;
}

/// scikit-learn's bundled CSVs start with "n_samples,n_features,class names...".
bool isSklearnHeader(const std::vector<std::string>& header, const Lines& lines, char sep) {
    long long n = 0, p = 0;
    if (header.size() < 2 || sep != ',' || !isNonNegativeInteger(header[0], n) || !isNonNegativeInteger(header[1], p))
        return false;
    if (static_cast<std::size_t>(n) != lines.text.size() - 1 || lines.text.size() < 2) return false;
    return detail::splitFields(lines.text[1], sep).size() == static_cast<std::size_t>(p) + 1;
}

/// Converts label cells to integers: numeric labels are kept, text labels numbered in order of
/// first appearance (their names go to labelNames).
void encodeLabels(const std::vector<std::string>& cells, const std::vector<std::size_t>& lineNumbers,
                  const std::string& path, Dataset& data) {
    bool numeric = true;
    std::vector<std::int32_t> ids(cells.size());
    for (std::size_t i = 0; i < cells.size() && numeric; ++i) {
        long long v = 0;
        std::string t = detail::trim(cells[i]);
        auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        numeric = ec == std::errc() && ptr == t.data() + t.size();
        ids[i] = static_cast<std::int32_t>(v);
    }
    if (!numeric) {
        std::map<std::string, std::int32_t> index;
        data.labelNames.clear();
        for (std::size_t i = 0; i < cells.size(); ++i) {
            std::string t = detail::trim(cells[i]);
            if (t.empty()) throwFileError(path, "line " + std::to_string(lineNumbers[i]), "empty label cell");
            auto [it, inserted] = index.emplace(t, static_cast<std::int32_t>(index.size()));
            if (inserted) data.labelNames.push_back(t);
            ids[i] = it->second;
        }
    }
    data.labels = std::move(ids);
}

/// The label column: a header name, "last", or a 1-based column number.
long findLabelColumn(const std::string& path, const std::vector<std::string>& header, std::size_t columns,
                     const std::string& wanted) {
    if (wanted == "last") return static_cast<long>(columns) - 1;
    auto it = std::find(header.begin(), header.end(), wanted);
    if (it != header.end()) return it - header.begin();
    long long number = 0;
    if (isNonNegativeInteger(wanted, number) && number >= 1 && static_cast<std::size_t>(number) <= columns)
        return static_cast<long>(number - 1);
    throwFileError(path, "header", "label column '" + wanted + "' not found (give a column name, a 1-based number or 'last')");
}

std::string defaultName(std::size_t j) { return "V" + std::to_string(j + 1); }

void attachBenchmarkLabels(const std::string& path, Dataset& data);

} // namespace

Dataset readText(const std::string& path, const ReadOptions& options) {
    const std::string content = readFileMaybeGzip(path);
    const Lines lines = splitLines(content);
    if (lines.text.empty()) throwFileError(path, "", "the file is empty (no data lines)");

    const char sep = detectSeparator(path, lines.text.front());
    std::vector<std::string> header = detail::splitFields(lines.text.front(), sep);
    Dataset data;
    data.provenance.path = path;
    data.provenance.format = "csv";
    std::size_t firstRow = 0;
    long labelCol = -1;
    bool sklearn = false;
    if (isSklearnHeader(header, lines, sep)) {
        sklearn = true;
        firstRow = 1;
        data.labelNames.assign(header.begin() + 2, header.end());
        header.clear();
    } else if (!allNumeric(header)) {
        firstRow = 1;
    } else {
        header.clear();
    }
    if (firstRow == 1 && lines.text.size() == 1) throwFileError(path, "", "the file has a header but no data rows");
    const std::size_t columns = detail::splitFields(lines.text[firstRow], sep).size();
    if (!header.empty() && header.size() != columns)
        throwFileError(path, "line " + std::to_string(lines.number[firstRow]),
                       "header has " + std::to_string(header.size()) + " names but the row has " +
                           std::to_string(columns) + " fields");
    if (sklearn) {
        labelCol = static_cast<long>(columns) - 1;
        data.labelSource = "last column (scikit-learn layout)";
    }
    if (!options.labelColumn.empty()) {
        labelCol = findLabelColumn(path, header, columns, options.labelColumn);
        data.labelSource = options.labelColumn;
    }
    const std::size_t d = columns - (labelCol >= 0 ? 1 : 0);
    for (std::size_t j = 0; j < columns; ++j) {
        if (static_cast<long>(j) == labelCol) continue;
        std::string name = header.empty() ? defaultName(data.features.size()) : detail::trim(header[j]);
        data.features.push_back(name.empty() ? defaultName(data.features.size()) : name);
    }
    const std::size_t n = lines.text.size() - firstRow;
    data.n = n;
    data.d = d;
    data.exact.reserve(n * d);
    std::vector<std::string> labelCells;
    std::vector<std::size_t> labelLines;
    for (std::size_t r = firstRow; r < lines.text.size(); ++r) {
        const std::string where = "line " + std::to_string(lines.number[r]);
        const std::vector<std::string> fields = detail::splitFields(lines.text[r], sep);
        if (fields.size() != columns)
            throwFileError(path, where, "expected " + std::to_string(columns) + " fields, found " +
                                            std::to_string(fields.size()));
        for (std::size_t j = 0; j < columns; ++j) {
            if (static_cast<long>(j) == labelCol) {
                labelCells.push_back(fields[j]);
                labelLines.push_back(lines.number[r]);
                continue;
            }
            double v = 0;
            if (!detail::parseDouble(fields[j], v)) {
                const std::size_t col = data.exact.size() % d;
                throwFileError(path, where + ", column '" + data.features[col] + "'",
                               "'" + fields[j] + "' is not a number");
            }
            data.exact.push_back(v);
        }
    }
    data.values.assign(data.exact.begin(), data.exact.end());
    if (labelCol >= 0) encodeLabels(labelCells, labelLines, path, data);
    data.provenance.detail = std::string(sep == ',' ? "comma" : sep == '\t' ? "tab" : sep == ';' ? "semicolon" : "whitespace") +
                             "-separated" + (header.empty() && !sklearn ? ", no header" : ", header") +
                             (sklearn ? " (scikit-learn layout)" : "");
    if (data.labels.empty()) attachBenchmarkLabels(path, data);
    return data;
}

namespace {

/// Clustering-benchmark layout (Gagolewski 2022): "<stem>.data.gz" beside "<stem>.labels0.gz",
/// one integer label per line, 0 = noise.
void attachBenchmarkLabels(const std::string& path, Dataset& data) {
    std::string stem = path;
    for (const char* suffix : {".gz", ".data"})
        if (stem.ends_with(suffix)) stem.resize(stem.size() - std::string_view(suffix).size());
    if (stem == path) return;
    for (const std::string& candidate : {stem + ".labels0.gz", stem + ".labels0"}) {
        std::error_code ec;
        if (!std::filesystem::exists(candidate, ec)) continue;
        const std::string content = readFileMaybeGzip(candidate);  // the line views point into it
        const Lines lines = splitLines(content);
        if (lines.text.size() != data.n) {
            data.warnings.push_back(candidate + " has " + std::to_string(lines.text.size()) + " labels for " +
                                    std::to_string(data.n) + " points; labels ignored");
            return;
        }
        std::vector<std::string> cells(lines.text.begin(), lines.text.end());
        encodeLabels(cells, lines.number, candidate, data);
        data.labelSource = std::filesystem::path(candidate).filename().string();
        return;
    }
}

} // namespace
} // namespace clusterlens
