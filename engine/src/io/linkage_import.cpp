// Linkages of the thesis program and of R's hclust, converted to scipy's convention (linkage_import.hpp).

#include "clusterlens/io/linkage_import.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <vector>

#include "clusterlens/errors.hpp"
#include "text_fields.hpp"

namespace clusterlens {
namespace {

/// One non-blank, non-comment line split into fields.
struct TextRow {
    std::vector<std::string> fields;
    std::size_t line = 0;
};

std::vector<TextRow> readRows(const std::string& path) {
    std::ifstream in(path);
    if (!in) throwFileError(path, "", "cannot open the linkage file");
    std::vector<TextRow> rows;
    std::string text;
    for (std::size_t line = 1; std::getline(in, text); ++line) {
        const std::string trimmed = detail::trim(text);
        if (trimmed.empty() || trimmed[0] == '#') continue;
        const char separator = trimmed.find(',') != std::string::npos    ? ','
                               : trimmed.find('\t') != std::string::npos ? '\t'
                                                                         : ' ';
        rows.push_back({detail::splitFields(trimmed, separator), line});
    }
    if (rows.empty()) throwFileError(path, "", "the linkage file is empty");
    return rows;
}

std::string lineOf(const TextRow& row) {
    return "line " + std::to_string(row.line);
}

bool isNumber(const std::string& field) {
    double value = 0;
    return detail::parseDouble(field, value) && std::isfinite(value);
}

/// A cluster id: a whole number an int64 holds ("12", R's "-3", or "12.0").
std::int64_t wholeNumber(const std::string& path, const TextRow& row, const std::string& field) {
    double value = 0;
    if (!detail::parseDouble(field, value) || !(std::abs(value) < 0x1p62) || value != std::trunc(value))
        throwFileError(path, lineOf(row), "'" + field + "' is not a whole cluster id");
    return static_cast<std::int64_t>(value);
}

double distance(const std::string& path, const TextRow& row, const std::string& field) {
    double value = 0;
    if (!detail::parseDouble(field, value)) throwFileError(path, lineOf(row), "'" + field + "' is not a number");
    if (!std::isfinite(value)) throwFileError(path, lineOf(row), "the merge distance is NaN or infinite");
    return value;
}

/// A merge in scipy ids, in range, before its size is known.
struct Pending {
    std::int64_t a = 0;
    std::int64_t b = 0;
    double height = 0.0;
    const TextRow* row = nullptr;
};

/// Orders a < b, adds the sizes and checks that every cluster is merged once. O(n).
Linkage completeLinkage(const std::vector<Pending>& merges, const std::string& path) {
    Linkage linkage;
    linkage.leafCount = merges.size() + 1;
    std::vector<std::int64_t> sizeOf(2 * linkage.leafCount - 1, 1);
    std::vector<char> used(sizeOf.size(), 0);
    for (std::size_t i = 0; i < merges.size(); ++i) {
        const Pending& p = merges[i];
        if (p.a == p.b) throwFileError(path, lineOf(*p.row), "merges a cluster with itself");
        const auto a = static_cast<std::size_t>(std::min(p.a, p.b)), b = static_cast<std::size_t>(std::max(p.a, p.b));
        if (used[a] || used[b])
            throwFileError(path, lineOf(*p.row), "merges a cluster that an earlier line merged already");
        used[a] = used[b] = 1;
        const std::size_t created = linkage.leafCount + i;
        sizeOf[created] = sizeOf[a] + sizeOf[b];
        linkage.merges.push_back(
            {static_cast<std::int64_t>(a), static_cast<std::int64_t>(b), p.height, sizeOf[created]});
    }
    linkage.validate(path);
    return linkage;
}

Linkage thesisFromRows(const std::vector<TextRow>& rows, const std::string& path) {
    const auto n = static_cast<std::int64_t>(rows.size() + 1);
    std::vector<Pending> merges;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const TextRow& row = rows[i];
        if (row.fields.size() != 3) throwFileError(path, lineOf(row), "expected 3 fields \"i j distance\"");
        Pending p{wholeNumber(path, row, row.fields[0]), wholeNumber(path, row, row.fields[1]),
                  distance(path, row, row.fields[2]), &row};
        const std::int64_t created = n + static_cast<std::int64_t>(i);
        for (std::int64_t id : {p.a, p.b})
            if (id < 0 || id >= created)
                throwFileError(path, lineOf(row),
                               "cluster " + std::to_string(id) + " does not exist before this line (" +
                                   std::to_string(n) + " points: leaves 0.." + std::to_string(n - 1) +
                                   ", the k-th line makes cluster " + std::to_string(n) + "+k-1)");
        merges.push_back(p);
    }
    return completeLinkage(merges, path);
}

/// R's merge entry at 1-based `row` of n-1: -j is observation j (leaf j-1), k > 0 the cluster of row k.
std::int64_t scipyIdOfHclust(std::int64_t entry, std::int64_t row, std::int64_t n, const std::string& path,
                             const TextRow& text) {
    if (entry < 0 && -entry <= n) return -entry - 1;
    if (entry > 0 && entry < row) return n + entry - 1;
    throwFileError(path, lineOf(text),
                   "merge entry " + std::to_string(entry) + " is neither an observation -1..-" + std::to_string(n) +
                       " nor a cluster 1.." + std::to_string(row - 1) + " made by an earlier row");
}

bool isHeader(const TextRow& row) {
    return std::any_of(row.fields.begin(), row.fields.end(), [](const std::string& f) { return !isNumber(f); });
}

Linkage hclustFromRows(const std::vector<TextRow>& rows, const std::string& path) {
    const std::size_t first = isHeader(rows[0]) ? 1 : 0;
    if (rows.size() <= first) throwFileError(path, "", "no merges found after the header");
    const auto n = static_cast<std::int64_t>(rows.size() - first + 1);
    std::vector<Pending> merges;
    for (std::size_t i = first; i < rows.size(); ++i) {
        const TextRow& row = rows[i];
        if (row.fields.size() != 3 && row.fields.size() != 4)
            throwFileError(path, lineOf(row), "expected \"merge1 merge2 height\", optionally after a row name");
        const std::size_t skip = row.fields.size() - 3;  // R's row name
        const auto rRow = static_cast<std::int64_t>(i - first + 1);
        merges.push_back({scipyIdOfHclust(wholeNumber(path, row, row.fields[skip]), rRow, n, path, row),
                          scipyIdOfHclust(wholeNumber(path, row, row.fields[skip + 1]), rRow, n, path, row),
                          distance(path, row, row.fields[skip + 2]), &row});
    }
    return completeLinkage(merges, path);
}

LinkageFormat detect(const std::vector<TextRow>& rows, const std::string& path) {
    if (detail::trim(rows[0].fields[0]) == "a") return LinkageFormat::Scipy;
    const bool header = isHeader(rows[0]);
    const TextRow* data = header ? (rows.size() > 1 ? &rows[1] : nullptr) : &rows[0];
    const std::size_t fields = data != nullptr ? data->fields.size() : 0;
    if (fields == 3 || fields == 4) {
        const std::size_t skip = fields - 3;
        double first = 0, second = 0;
        detail::parseDouble(data->fields[skip], first);
        detail::parseDouble(data->fields[skip + 1], second);
        if (first < 0 || second < 0 || header) return LinkageFormat::Hclust;
        if (fields == 3) return LinkageFormat::Thesis;
    }
    throwFileError(path, "", "cannot tell the format of this linkage file; give --linkage-format scipy|thesis|hclust");
}

}  // namespace

LinkageFormat parseLinkageFormat(const std::string& name) {
    if (name == "scipy") return LinkageFormat::Scipy;
    if (name == "thesis") return LinkageFormat::Thesis;
    if (name == "hclust") return LinkageFormat::Hclust;
    throw InvalidInput("--linkage-format: unknown format '" + name + "' (expected scipy, thesis or hclust)");
}

LinkageFormat detectLinkageFormat(const std::string& path) {
    return detect(readRows(path), path);
}

Linkage readThesisLinkage(const std::string& path) {
    return thesisFromRows(readRows(path), path);
}

Linkage readHclustLinkage(const std::string& path) {
    return hclustFromRows(readRows(path), path);
}

Linkage readLinkage(const std::string& path, std::optional<LinkageFormat> format) {
    if (format == LinkageFormat::Scipy) return readLinkageCsv(path);
    const std::vector<TextRow> rows = readRows(path);
    switch (format ? *format : detect(rows, path)) {
        case LinkageFormat::Thesis:
            return thesisFromRows(rows, path);
        case LinkageFormat::Hclust:
            return hclustFromRows(rows, path);
        case LinkageFormat::Scipy:
            break;
    }
    return readLinkageCsv(path);
}

}  // namespace clusterlens
