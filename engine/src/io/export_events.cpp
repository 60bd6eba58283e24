#include "clusterlens/io/export_events.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "fcs_export.hpp"
#include "fcs_file.hpp"

namespace clusterlens {

ExportSource ExportSource::open(const std::string& path, const ReadOptions& options) {
    ReadOptions asStored = options;
    asStored.compensate = false;
    asStored.allowNonFinite = true;
    ExportSource source;
    source.m_data = readDataset(path, asStored);
    if (source.m_data.provenance.format != "fcs") return source;
    auto raw = std::make_shared<fcs::RawFile>(fcs::readRawFile(path, asStored));
    if (raw->events != source.m_data.n)
        throwFileError(path, "",
                       "the file changed while it was read (" + std::to_string(source.m_data.n) + " then " +
                           std::to_string(raw->events) + " events)");
    source.m_fcs = std::move(raw);
    return source;
}

ExportSource ExportSource::fromDataset(Dataset data) {
    ExportSource source;
    source.m_data = std::move(data);
    return source;
}

void exportEvents(const std::string& out, const ExportSource& source, const ExportSelection& selection) {
    std::string extension = std::filesystem::path(out).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension == ".csv") {
        writeCsv(out, source.data(), selection);
    } else if (extension != ".fcs") {
        throwFileError(out, "", "cannot export to '" + extension + "' files (use .fcs or .csv)");
    } else if (source.m_fcs) {
        fcs::writeFcsKeepingSource(out, *source.m_fcs, source.data(), selection);
    } else {
        writeFcs(out, source.data(), selection);
    }
}

}  // namespace clusterlens
