// Text tables: CSV / TSV / whitespace, optional header, optional label column, text columns kept as
// annotations, gzip.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <string_view>
#include <unordered_set>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "cancel_points.hpp"
#include "text_fields.hpp"

namespace clusterlens {
namespace {

struct Lines {
    std::vector<std::string_view> text;
    std::vector<std::size_t> number;  // 1-based line number in the file
};

Lines splitLines(const std::string& content, const JobControl* control = nullptr) {
    Lines lines;
    std::size_t start = 0, lineNo = 0;
    while (start < content.size()) {
        detail::cancelPoint(control, lineNo);
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
    throwFileError(path, "header",
                   "label column '" + wanted + "' not found (give a column name, a 1-based number or 'last')");
}

std::string defaultName(std::size_t j) {
    return "V" + std::to_string(j + 1);
}

void attachBenchmarkLabels(const std::string& path, Dataset& data);

/// Where the data rows are and which column holds labels.
struct TableLayout {
    char sep = ',';
    std::vector<std::string> header;  ///< empty without a header row
    std::size_t firstRow = 0;         ///< index into Lines of the first data row
    std::size_t columns = 0;
    long labelCol = -1;
    bool sklearn = false;
};

TableLayout findLayout(const std::string& path, const Lines& lines, const ReadOptions& options, Dataset& data) {
    TableLayout t;
    t.sep = detectSeparator(path, lines.text.front());
    t.header = detail::splitFields(lines.text.front(), t.sep);
    if (isSklearnHeader(t.header, lines, t.sep)) {
        t.sklearn = true;
        t.firstRow = 1;
        data.labelNames.assign(t.header.begin() + 2, t.header.end());
        t.header.clear();
    } else if (!allNumeric(t.header)) {
        t.firstRow = 1;
    } else {
        t.header.clear();
    }
    if (t.firstRow == 1 && lines.text.size() == 1) throwFileError(path, "", "the file has a header but no data rows");
    t.columns = detail::splitFields(lines.text[t.firstRow], t.sep).size();
    if (!t.header.empty() && t.header.size() != t.columns)
        throwFileError(path, "line " + std::to_string(lines.number[t.firstRow]),
                       "header has " + std::to_string(t.header.size()) + " names but the row has " +
                           std::to_string(t.columns) + " fields");
    if (t.sklearn) {
        t.labelCol = static_cast<long>(t.columns) - 1;
        data.labelSource = "last column (scikit-learn layout)";
    }
    if (!options.labelColumn.empty()) {
        t.labelCol = findLabelColumn(path, t.header, t.columns, options.labelColumn);
        data.labelSource = options.labelColumn;
    }
    return t;
}

/// One column's cells. A column is numeric until its first cell that is neither a number nor
/// missing (empty, NA): a column that starts with text is a text column (ids, class names, where
/// "123" is text too); text after numbers is an error in the data.
struct ColumnCells {
    std::string name;
    bool text = false;
    bool sawNumber = false;
    std::size_t firstEmptyLine = 0;  ///< line of the first empty cell of a numeric column, 0 = none
    std::vector<double> numbers;
    std::vector<std::string> cells;  ///< a text column's cells
};

/// Reads every data row into per-column cells. Throws naming file, line and column on a ragged row
/// or text in a numeric column.
std::vector<ColumnCells> readColumns(const std::string& path, const Lines& lines, const TableLayout& t,
                                     const JobControl* control) {
    std::vector<ColumnCells> columns(t.columns);
    for (std::size_t j = 0; j < t.columns; ++j) {
        columns[j].name = !t.header.empty()                                 ? detail::trim(t.header[j])
                          : t.sklearn && static_cast<long>(j) == t.labelCol ? std::string("class")
                                                                            : "column " + std::to_string(j + 1);
        columns[j].text = static_cast<long>(j) == t.labelCol;
    }
    for (std::size_t r = t.firstRow; r < lines.text.size(); ++r) {
        detail::cancelPoint(control, r);
        const std::string where = "line " + std::to_string(lines.number[r]);
        std::vector<std::string> fields = detail::splitFields(lines.text[r], t.sep);
        if (fields.size() != t.columns)
            throwFileError(path, where,
                           "expected " + std::to_string(t.columns) + " fields, found " + std::to_string(fields.size()));
        for (std::size_t j = 0; j < t.columns; ++j) {
            ColumnCells& c = columns[j];
            double v = 0;
            if (c.text) {
                c.cells.push_back(std::move(fields[j]));
            } else if (detail::parseDouble(fields[j], v)) {
                c.numbers.push_back(v);
                c.sawNumber = c.sawNumber || !std::isnan(v);
            } else if (detail::trim(fields[j]).empty()) {
                c.numbers.push_back(std::numeric_limits<double>::quiet_NaN());
                if (c.firstEmptyLine == 0) c.firstEmptyLine = lines.number[r];
            } else if (c.sawNumber) {
                throwFileError(path, where + ", column '" + c.name + "'",
                               "'" + fields[j] + "' is not a number (the column starts with numbers)");
            } else {
                // Only missing cells so far: the column is text; take the earlier rows' cells as written.
                c.text = true;
                c.numbers.clear();
                for (std::size_t e = t.firstRow; e < r; ++e)
                    c.cells.push_back(detail::splitFields(lines.text[e], t.sep)[j]);
                c.cells.push_back(std::move(fields[j]));
            }
        }
    }
    for (const ColumnCells& c : columns)
        if (!c.text && c.firstEmptyLine != 0)
            throwFileError(path, "line " + std::to_string(c.firstEmptyLine) + ", column '" + c.name + "'",
                           "'' is not a number");
    return columns;
}

bool allDistinct(const std::vector<std::string>& cells) {
    std::unordered_set<std::string_view> seen;
    for (const std::string& cell : cells)
        if (!seen.insert(cell).second) return false;
    return true;
}

/// Text columns become annotations: the label column labels; the first column of distinct values the
/// point names; without a label column, the first other column the labels (its values class names).
void keepTextColumns(const std::string& path, const Lines& lines, const TableLayout& t,
                     std::vector<ColumnCells>& columns, Dataset& data) {
    const std::vector<std::size_t> lineNumbers(lines.number.begin() + static_cast<std::ptrdiff_t>(t.firstRow),
                                               lines.number.end());
    for (std::size_t j = 0; j < columns.size(); ++j) {
        ColumnCells& c = columns[j];
        if (!c.text) continue;
        Annotation annotation{c.name, Annotation::Role::Text, {}};
        if (static_cast<long>(j) == t.labelCol) {
            encodeLabels(c.cells, lineNumbers, path, data);
            annotation.role = Annotation::Role::Labels;
        } else if (data.pointNames.empty() && allDistinct(c.cells)) {
            data.pointNames = std::move(c.cells);
            annotation.role = Annotation::Role::PointNames;
        } else if (t.labelCol < 0 && data.labels.empty()) {
            encodeLabels(c.cells, lineNumbers, path, data);
            data.labelSource = c.name;
            annotation.role = Annotation::Role::Labels;
        } else {
            annotation.values = std::move(c.cells);
        }
        data.annotations.push_back(std::move(annotation));
    }
}

}  // namespace

Dataset readText(const std::string& path, const ReadOptions& options) {
    const std::string content = readFileMaybeGzip(path, options.control);
    const Lines lines = splitLines(content, options.control);
    if (lines.text.empty()) throwFileError(path, "", "the file is empty (no data lines)");
    Dataset data;
    data.provenance.path = path;
    data.provenance.format = "csv";
    const TableLayout t = findLayout(path, lines, options, data);
    std::vector<ColumnCells> columns = readColumns(path, lines, t, options.control);
    data.n = lines.text.size() - t.firstRow;
    std::vector<const ColumnCells*> numeric;
    for (const ColumnCells& c : columns) {
        if (c.text) continue;
        numeric.push_back(&c);
        const std::string name = t.header.empty() ? std::string() : c.name;
        data.features.push_back(name.empty() ? defaultName(data.features.size()) : name);
    }
    data.d = numeric.size();
    data.exact.resize(data.n * data.d);
    for (std::size_t f = 0; f < data.d; ++f)
        for (std::size_t i = 0; i < data.n; ++i) data.exact[i * data.d + f] = numeric[f]->numbers[i];
    data.values.assign(data.exact.begin(), data.exact.end());
    keepTextColumns(path, lines, t, columns, data);
    data.provenance.detail = std::string(t.sep == ','    ? "comma"
                                         : t.sep == '\t' ? "tab"
                                         : t.sep == ';'  ? "semicolon"
                                                         : "whitespace") +
                             "-separated" + (t.header.empty() && !t.sklearn ? ", no header" : ", header") +
                             (t.sklearn ? " (scikit-learn layout)" : "");
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

}  // namespace
}  // namespace clusterlens
