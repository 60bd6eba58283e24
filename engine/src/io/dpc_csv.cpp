#include "clusterlens/io/dpc_csv.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <sstream>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/number_text.hpp"
#include "clusterlens/io/text_file.hpp"

namespace clusterlens {
namespace {

constexpr const char* kHeader = "index,rho,delta,nearest_higher,gamma";

/// The one writer behind both overloads: row k is members[k] (k when members is empty).
void writeRows(const std::string& path, const std::vector<std::int64_t>& members, const std::vector<double>& rho,
               const std::vector<double>& delta, const std::vector<std::int64_t>& nearestHigher,
               const std::vector<double>& gamma) {
    std::string text = std::string(kHeader) + '\n';
    for (std::size_t i = 0; i < rho.size(); ++i) {
        text += std::to_string(members.empty() ? static_cast<std::int64_t>(i) : members[i]);
        for (const double value : {rho[i], delta[i]}) text += ',', appendShortest(text, value);
        text += ',' + std::to_string(nearestHigher[i]) + ',';
        appendShortest(text, gamma[i]);
        text += '\n';
    }
    writeTextFile(path, text);
}

[[noreturn]] void bad(const std::string& path, std::size_t line, const std::string& what) {
    throw InvalidInput(path + ":" + std::to_string(line) + ": " + what);
}

double parseNumber(const std::string& field, const std::string& path, std::size_t line) {
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(field.c_str(), &end);
    if (field.empty() || end != field.c_str() + field.size() || errno == ERANGE)
        bad(path, line, "'" + field + "' is not a number");
    return value;
}

}  // namespace

void writeDpcCsv(const std::string& path, const DensityPeaksResult& result) {
    writeRows(path, {}, result.rho, result.delta, result.nearestHigher, result.gamma);
}

void writeDpcCsv(const std::string& path, const DpcResult& result) {
    writeRows(path, result.info.members, result.rho, result.delta, result.nearestHigher, result.gamma);
}

DpcResult readDpcTable(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InvalidInput(path + ": cannot open the DPC table");
    std::string text;
    std::size_t line = 1;
    if (!std::getline(in, text) || text.rfind(kHeader, 0) != 0)
        bad(path, line, std::string("expected the header '") + kHeader + "'");
    DpcResult result;
    std::vector<std::int64_t> indices;
    std::vector<std::string> fields;
    while (std::getline(in, text)) {
        ++line;
        if (!text.empty() && text.back() == '\r') text.pop_back();
        if (text.empty()) continue;
        fields.clear();
        std::stringstream row(text);
        for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
        if (fields.size() != 5) bad(path, line, "expected 5 fields (" + std::string(kHeader) + ")");
        const double index = parseNumber(fields[0], path, line);
        if (index < 0 || index != std::floor(index) ||
            (!indices.empty() && index <= static_cast<double>(indices.back())))
            bad(path, line, "indices must be whole numbers in ascending order");
        indices.push_back(static_cast<std::int64_t>(index));
        result.rho.push_back(parseNumber(fields[1], path, line));
        result.delta.push_back(parseNumber(fields[2], path, line));
        result.nearestHigher.push_back(static_cast<std::int64_t>(parseNumber(fields[3], path, line)));
        result.gamma.push_back(parseNumber(fields[4], path, line));
    }
    const std::size_t n = indices.size();
    if (n < 2) throw InvalidInput(path + ": a decision graph needs at least 2 points");
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t link = result.nearestHigher[i];
        if (link != -1 && !std::binary_search(indices.begin(), indices.end(), link))
            bad(path, i + 2, "nearest_higher outside the points");
    }
    // Indices 0..n-1 are all events; others are the members of the population the run was on.
    if (indices.back() != static_cast<std::int64_t>(n) - 1) result.info.members = std::move(indices);
    return result;
}

DensityPeaksResult readDpcCsv(const std::string& path) {
    DpcResult table = readDpcTable(path);
    if (!table.info.members.empty())
        throw InvalidInput(path + ": indices must run 0, 1, 2, ... in order (this table is of a population)");
    DensityPeaksResult result;
    result.rho = std::move(table.rho);
    result.delta = std::move(table.delta);
    result.nearestHigher = std::move(table.nearestHigher);
    result.gamma = std::move(table.gamma);
    const std::size_t n = result.rho.size();
    result.densityOrder.resize(n);
    std::iota(result.densityOrder.begin(), result.densityOrder.end(), std::int64_t{0});
    std::stable_sort(result.densityOrder.begin(), result.densityOrder.end(),
                     [&](std::int64_t a, std::int64_t b) { return result.rho[a] > result.rho[b]; });
    return result;
}

}  // namespace clusterlens
