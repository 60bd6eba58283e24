#pragma once
// Exporting a population's events with the engine's export API: the data file's events as stored
// (every channel, untransformed, an FCS file's keywords kept) so that FlowJo re-opens the export as the
// same experiment, or — for data embedded in a session, which has no file — the values as analysed.

#include <memory>
#include <string>

#include "clusterlens/dataset.hpp"
#include "clusterlens/session/population.hpp"

namespace clusterlens::views {

/// Writes the events `members` (ascending whole-dataset indices) to `out` (.fcs or .csv by extension).
/// The source is the reference's data file, checked against its SHA-256 and refused when it changed or
/// when the session subsampled it (its rows are not the file's); for embedded data, `analysed`.
/// Reads the data file once more: run it as a job. Throws InvalidInput naming the file and the reason.
/// `control` (when given) reaches the hash, the reader and the writer: a cancel() throws Cancelled
/// and `out` is left as it was.
void exportPopulationEvents(const std::string& out, const DatasetReference& reference,
                            const std::shared_ptr<const Dataset>& analysed, const Members& members,
                            JobControl* control = nullptr);

}  // namespace clusterlens::views
