#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/io/number_text.hpp"
#include "clusterlens/io/text_file.hpp"
#include "text_fields.hpp"

namespace clusterlens {

std::size_t Linkage::inversionCount() const {
    std::vector<double> height(merges.size());  // height of cluster leafCount + i
    const auto heightOf = [&](std::int64_t id) {
        const auto row = id - static_cast<std::int64_t>(leafCount);
        return row >= 0 && static_cast<std::size_t>(row) < merges.size() ? height[static_cast<std::size_t>(row)] : 0.0;
    };
    std::size_t count = 0;
    for (std::size_t i = 0; i < merges.size(); ++i) {
        height[i] = merges[i].height;
        count += height[i] < std::max(heightOf(merges[i].a), heightOf(merges[i].b)) ? 1 : 0;
    }
    return count;
}

void Linkage::validate(const std::string& source) const {
    const auto n = static_cast<std::int64_t>(leafCount);
    if (leafCount < 2) throwFileError(source, "", "a linkage needs at least 2 leaves");
    if (merges.size() != leafCount - 1)
        throwFileError(source, "",
                       "expected " + std::to_string(leafCount - 1) + " merges for " + std::to_string(leafCount) +
                           " leaves, found " + std::to_string(merges.size()));
    std::vector<std::int64_t> sizeOf(2 * leafCount - 1, 1);
    std::vector<char> used(2 * leafCount - 1, 0);
    for (std::size_t i = 0; i < merges.size(); ++i) {
        const Merge& m = merges[i];
        const std::string row = "row " + std::to_string(i + 2);
        const std::int64_t created = n + static_cast<std::int64_t>(i);
        if (m.a < 0 || m.b < 0 || m.a >= created || m.b >= created)
            throwFileError(source, row, "cluster id out of range (must be below " + std::to_string(created) + ")");
        if (m.a >= m.b) throwFileError(source, row, "expected a < b");
        if (used[m.a] || used[m.b]) throwFileError(source, row, "a cluster is merged twice");
        used[m.a] = used[m.b] = 1;
        sizeOf[created] = sizeOf[m.a] + sizeOf[m.b];
        if (m.size != sizeOf[created])
            throwFileError(source, row,
                           "size " + std::to_string(m.size) + " differs from the sum of the merged sizes (" +
                               std::to_string(sizeOf[created]) + ")");
        if (!std::isfinite(m.height)) throwFileError(source, row, "height is NaN or infinite");
    }
}

namespace {

/// A cluster id or size field: a whole number that an int64 holds (scipy writes them as floats, "26.0").
bool parseCount(const std::string& field, std::int64_t& value) {
    double number = 0;
    if (!detail::parseDouble(field, number) || !(std::abs(number) < 0x1p62) || number != std::trunc(number))
        return false;
    value = static_cast<std::int64_t>(number);
    return true;
}

}  // namespace

Linkage readLinkageCsv(const std::string& path) {
    std::ifstream in(path);
    if (!in) throwFileError(path, "", "cannot open the linkage file");
    std::string line;
    if (!std::getline(in, line)) throwFileError(path, "", "the file is empty");
    const std::vector<std::string> header = detail::splitFields(line, ',');
    if (header.size() < 4 || detail::trim(header[0]) != "a" || detail::trim(header[1]) != "b")
        throwFileError(path, "line 1", "expected the header a,b,height,size");
    Linkage linkage;
    std::size_t lineNo = 1;
    while (std::getline(in, line)) {
        ++lineNo;
        if (detail::trim(line).empty()) continue;
        const std::vector<std::string> f = detail::splitFields(line, ',');
        const std::string where = "line " + std::to_string(lineNo);
        if (f.size() < 4) throwFileError(path, where, "expected 4 fields a,b,height,size");
        Merge m;
        if (!detail::parseDouble(f[2], m.height)) throwFileError(path, where, "non-numeric field");
        if (!parseCount(f[0], m.a) || !parseCount(f[1], m.b) || !parseCount(f[3], m.size))
            throwFileError(path, where, "a, b and size must be whole numbers");
        if (m.a > m.b) std::swap(m.a, m.b);
        linkage.merges.push_back(m);
    }
    linkage.leafCount = linkage.merges.size() + 1;
    linkage.validate(path);
    return linkage;
}

void writeLinkageCsv(const std::string& path, const Linkage& linkage) {
    std::string text = "a,b,height,size\n";
    for (const Merge& m : linkage.merges) {
        text += std::to_string(m.a) + ',' + std::to_string(m.b) + ',';
        appendShortest(text, m.height);
        text += ',' + std::to_string(m.size) + '\n';
    }
    writeTextFile(path, text);
}

}  // namespace clusterlens
