#include <cstdio>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/write_dataset.hpp"

namespace clusterlens {
namespace {

std::string quoteIfNeeded(const std::string& name) {
    if (name.find_first_of(",\"\n\r ") == std::string::npos && !name.empty()) return name;
    std::string out = "\"";
    for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace

void writeCsv(const std::string& path, const Dataset& data, const std::vector<std::int32_t>& labels,
              const std::string& labelName) {
    if (!labels.empty() && labels.size() != data.n)
        throw InvalidInput(path + ": " + std::to_string(labels.size()) + " labels for " + std::to_string(data.n) + " points");
    std::FILE* file = std::fopen(path.c_str(), "w");
    if (!file) throwFileError(path, "", "cannot open the file for writing");
    for (std::size_t j = 0; j < data.d; ++j) std::fprintf(file, "%s%s", j ? "," : "", quoteIfNeeded(data.features[j]).c_str());
    if (!labels.empty()) std::fprintf(file, ",%s", quoteIfNeeded(labelName).c_str());
    std::fputc('\n', file);
    const bool exact = data.exact.size() == data.values.size();
    for (std::size_t i = 0; i < data.n; ++i) {
        for (std::size_t j = 0; j < data.d; ++j) {
            // 9 significant digits round-trip float32; 17 round-trip the double values we parsed.
            if (exact) std::fprintf(file, "%s%.17g", j ? "," : "", data.exact[i * data.d + j]);
            else std::fprintf(file, "%s%.9g", j ? "," : "", static_cast<double>(data.values[i * data.d + j]));
        }
        if (!labels.empty()) std::fprintf(file, ",%d", labels[i]);
        std::fputc('\n', file);
    }
    const bool failed = std::ferror(file) != 0;
    if (std::fclose(file) != 0 || failed) throwFileError(path, "", "write failed (disk full?)");
}

} // namespace clusterlens
