#pragma once
// The data of a session as the GUI shows it. The GUI keeps a dataset as read (DatasetSession::raw)
// and applies its transform itself, so a session's data comes back as the rows and columns every
// stored result indexes, before the transform, with the transform to re-apply. Functions here read
// files and hash them: call them from jobs.

#include <QString>

#include <string>

#include "clusterlens/dataset.hpp"
#include "clusterlens/io/read_options.hpp"
#include "clusterlens/session/session.hpp"
#include "dataset_session.hpp"

namespace clusterlens::views {

/// A session's data, ready for DatasetSession::openWith.
struct SessionData {
    Dataset raw;                ///< the rows and columns the results index, not yet transformed
    TransformChoice transform;  ///< to apply on top (None when the data came already prepared)
};

/// Reads a session's data: the embedded matrix when there is one (already prepared: no transform),
/// else the file at `path` (reference.path when empty), refused unless its SHA-256 matches, read with
/// the reference's options and subsample; its transform (with per-channel cofactors) comes back to be
/// applied by the GUI. Throws InvalidInput naming the file and the reason (missing, other content,
/// other shape). `control` (when given) reaches the hash and the reader: a cancel() throws Cancelled.
SessionData loadSessionData(const DatasetReference& reference, const std::string& path = {},
                            JobControl* control = nullptr);

/// The reference of the data file `path` as the GUI read it (every column; reader options, subsample
/// and transform of `read`), for the transformed matrix `current`: hashes the file (reads it once),
/// looking at `control` between blocks: a cancel() throws Cancelled.
DatasetReference describeGuiData(const std::string& path, const DatasetReadSpec& read, const Dataset& current,
                                 const JobControl* control);

/// True when the session can show its data without asking for a file: embedded data, or a file at
/// the recorded path with the recorded size (the hash is checked when it is read).
bool dataLooksAvailable(const DatasetReference& reference);

}  // namespace clusterlens::views
