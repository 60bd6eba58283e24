#include "clusterlens/io/read_dataset.hpp"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <filesystem>

#include "clusterlens/errors.hpp"

namespace clusterlens {
namespace {

std::string lowerExtension(const std::string& path) {
    std::string name = std::filesystem::path(path).filename().string();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name.size() > 3 && name.ends_with(".gz")) name.resize(name.size() - 3);
    auto dot = name.rfind('.');
    return dot == std::string::npos ? std::string() : name.substr(dot);
}

void checkFinite(Dataset& data, const ReadOptions& options) {
    data.nonFinite = data.countNonFinite();
    if (data.nonFinite == 0) return;
    if (options.allowNonFinite) {
        data.warnings.push_back(std::to_string(data.nonFinite) + " values are NaN or infinite");
        return;
    }
    for (std::size_t k = 0; k < data.values.size(); ++k) {
        if (!std::isfinite(data.values[k])) {
            throw NonFiniteInput(data.provenance.path + ": row " + std::to_string(k / data.d + 1) + ", column '" +
                                 data.features[k % data.d] + "': value is NaN or infinite (" +
                                 std::to_string(data.nonFinite) + " such values in the file)");
        }
    }
}

}  // namespace

Dataset readDataset(const std::string& path, const ReadOptions& options) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throwFileError(path, "", "file not found");
    if (std::filesystem::is_directory(path, ec)) throwFileError(path, "", "is a directory, not a data file");

    const std::string ext = lowerExtension(path);
    Dataset data;
    if (ext == ".csv" || ext == ".tsv" || ext == ".txt" || ext == ".data" || ext == ".dat") {
        data = readText(path, options);
    } else if (ext == ".fcs" || ext == ".lmd") {
        data = readFcs(path, options);
    } else if (ext == ".h5" || ext == ".hdf5" || ext == ".h5ad") {
        data = readHdf5(path, options);
    } else if (ext == ".bin") {
        data = readThesisBinary(path, options);
    } else {
        throwFileError(
            path, "",
            "unknown file type '" + ext + "' (expected .csv .tsv .txt .data [.gz], .fcs, .h5 .hdf5 .h5ad or .bin)");
    }
    if (data.provenance.path.empty()) data.provenance.path = path;
    data.validateShape();
    if (data.n == 0) throwFileError(path, "", "the file holds no data points");
    if (data.d == 0) throwFileError(path, "", "the file holds no feature columns");
    checkFinite(data, options);
    return data;
}

}  // namespace clusterlens
