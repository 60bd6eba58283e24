#include "session/session_data_source.hpp"

#include <QFileInfo>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/session/session_data.hpp"

namespace clusterlens::views {

namespace {

Dataset embeddedDataset(const DatasetReference& reference) {
    const EmbeddedData& embedded = *reference.embedded;
    Dataset data;
    data.n = static_cast<std::size_t>(reference.n);
    data.d = static_cast<std::size_t>(reference.d);
    data.values = embedded.values;
    data.features = embedded.features;
    data.provenance.format = "embedded in the session";
    data.validateShape();
    return data;
}

}  // namespace

SessionData loadSessionData(const DatasetReference& reference, const std::string& path, JobControl* control) {
    if (reference.embedded) return {embeddedDataset(reference), {}};
    const std::string file = path.empty() ? reference.path : path;
    requireSameDataFile(reference, file, control);
    DatasetReadSpec spec = reference.read;
    SessionData out;
    // The GUI applies the transform itself (it can be changed later), to the rows as read.
    out.transform = transformOf(spec);
    spec.transform.clear();
    spec.cofactors.clear();
    ReadOptions options = readOptionsOf(spec);
    options.control = control;
    out.raw = prepareData(readDataset(file, options), spec, control);
    if (out.raw.n != reference.n || out.raw.d != reference.d)
        throw InvalidInput(file + ": read as " + std::to_string(out.raw.n) + " x " + std::to_string(out.raw.d) +
                           ", but the session's results describe " + std::to_string(reference.n) + " x " +
                           std::to_string(reference.d));
    return out;
}

DatasetReference describeGuiData(const std::string& path, const DatasetReadSpec& read, const Dataset& current,
                                 const JobControl* control) {
    DatasetReadSpec spec = read;
    // The GUI reads every column; the channels analyses use are recorded with each result.
    spec.columns.clear();
    return describeDataFile(path, spec, current, control);
}

bool dataLooksAvailable(const DatasetReference& reference) {
    if (reference.embedded) return true;
    const QFileInfo file(QString::fromStdString(reference.path));
    return file.isFile() && static_cast<std::uint64_t>(file.size()) == reference.fileSize;
}

}  // namespace clusterlens::views
