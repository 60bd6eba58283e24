#pragma once
// From a data file to the DatasetReference of a session and back: what the CLI records with --session
// and what a GUI does when it opens a session (find the file, check its hash, read it the same way).

#include <string>

#include "clusterlens/dataset.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens {

class JobControl;

/// Applies a spec's columns, transform (with its per-channel cofactors) and subsample, in that order,
/// to data read with readOptionsOf(spec). Cofactors need an asinh transform and name features of the
/// selected columns. Throws InvalidInput naming the option (--columns, --transform, --subsample, an
/// unknown cofactor channel). O(n·d); takes the data by value so that no option means no copy.
/// `control` (when given) reaches the transforms: a cancel() throws Cancelled within milliseconds.
Dataset prepareData(Dataset raw, const DatasetReadSpec& spec, const JobControl* control = nullptr);

/// The reference of the data file at `path` read with `spec`, for the prepared matrix `prepared`:
/// absolute path, size, SHA-256 (reads the file once), n, d, features. Nothing is embedded.
/// `control` (when given) is checked between blocks of the hash (sha256File): a cancel() throws Cancelled.
DatasetReference describeDataFile(const std::string& path, const DatasetReadSpec& spec, const Dataset& prepared,
                                  const JobControl* control = nullptr);

/// Copies the prepared matrix into reference.embedded (4·n·d bytes). Throws InvalidInput when its
/// shape differs from reference.n x reference.d.
void embedData(DatasetReference& reference, const Dataset& prepared);

/// The prepared matrix of a session: the embedded data when present, else the file at `path` (or at
/// reference.path when `path` is empty), refused unless its SHA-256 matches, read with the reference's
/// spec; its shape must equal n x d. Throws InvalidInput naming the file and the reason. `control`
/// (when given) reaches the hash, the reader and the transforms: a cancel() throws Cancelled.
Dataset loadReferencedData(const DatasetReference& reference, const std::string& path = "",
                           JobControl* control = nullptr);

}  // namespace clusterlens
