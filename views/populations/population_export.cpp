#include "populations/population_export.hpp"

#include "clusterlens/errors.hpp"
#include "clusterlens/io/export_events.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens::views {

namespace {

ExportSource exportSource(const DatasetReference& reference, const std::shared_ptr<const Dataset>& analysed,
                          JobControl* control) {
    if (reference.embedded || reference.path.empty()) {
        if (!analysed) throw InvalidInput("there are no data to export");
        return ExportSource::fromDataset(*analysed);
    }
    if (reference.read.subsample != 0)
        throw InvalidInput(reference.path + ": the session analyses a subsample, whose rows are not the file's events");
    requireSameDataFile(reference, reference.path, control);
    ReadOptions options = readOptionsOf(reference.read);
    options.control = control;
    ExportSource source = ExportSource::open(reference.path, options);
    if (source.events() != reference.n)
        throw InvalidInput(reference.path + ": holds " + std::to_string(source.events()) + " events, the session " +
                           std::to_string(reference.n));
    return source;
}

}  // namespace

void exportPopulationEvents(const std::string& out, const DatasetReference& reference,
                            const std::shared_ptr<const Dataset>& analysed, const Members& members,
                            JobControl* control) {
    const ExportSource source = exportSource(reference, analysed, control);
    ExportSelection selection;
    selection.events = members;
    selection.control = control;
    exportEvents(out, source, selection);
}

}  // namespace clusterlens::views
