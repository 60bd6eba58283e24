#pragma once
// What the user (or the defaults) decided for one data file: how to read it (reader options,
// subsample), the transform, the channels used by analyses and the scatter's first axes. The defaults
// are the engine's proposeReadSpec for the file as read, so nothing is carried over from a file of
// another kind. Functions that read files are meant to run in jobs.

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>

#include "clusterlens/dataset.hpp"
#include "clusterlens/io/default_read_spec.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/session/session.hpp"
#include "open/transform_choice.hpp"

namespace clusterlens::views {

struct OpenChoice {
    /// Reader options, transform (with per-channel cofactors), subsample and seed. `columns` names
    /// the channels analyses use (empty = every channel); every column is still read and shown.
    DatasetReadSpec spec;
    DefaultScatter scatter;  ///< the scatter's first axes
    QString reason;          ///< why these defaults, for the log
};

/// proposeReadSpec's defaults for `raw`, a file as read with default reader options. O(n·d);
/// `control` (when given) can stop it (throws Cancelled).
OpenChoice proposeOpenChoice(const Dataset& raw, const JobControl* control = nullptr);

/// The transform a spec asks for (its steps and per-channel cofactors).
TransformChoice transformOf(const DatasetReadSpec& spec);

/// True when data read with `a`'s reader options and subsample equals data read with `b`'s.
bool sameRead(const DatasetReadSpec& a, const DatasetReadSpec& b);

/// Reads `path` as `spec` says: the reader options, then the subsample (columns and transform are
/// applied by the views). Throws InvalidInput naming the file and the reason, Cancelled when `control`
/// (the reader's ReadOptions::control) is cancelled. O(file size).
Dataset readChosen(const std::string& path, const DatasetReadSpec& spec, JobControl* control = nullptr);

/// A file read with its own defaults.
struct ProposedRead {
    std::shared_ptr<const Dataset> data;
    OpenChoice choice;
};

/// Reads `path` with default options and proposes its defaults; a file whose spillover matrix the
/// defaults apply is read again, compensated. Throws InvalidInput like readDataset, Cancelled when
/// `control` is cancelled.
ProposedRead readWithDefaults(const std::string& path, JobControl* control = nullptr);

/// Remembers the choice made for the file `path` (QSettings), for reopening it from the recent list.
void rememberOpenChoice(const QString& path, const OpenChoice& choice);
/// The choice remembered for `path`, if any.
std::optional<OpenChoice> rememberedOpenChoice(const QString& path);

}  // namespace clusterlens::views
