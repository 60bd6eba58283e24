#pragma once
// Loading INPUT with the common options (--dataset --columns --transform --subsample --seed ...).

#include <string>
#include <vector>

#include "args.hpp"
#include "clusterlens/backend.hpp"
#include "clusterlens/dataset.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/io/read_options.hpp"

namespace clusterlens::cli {

/// The reader options of the common flags (--dataset --label-column --embedding --compensate
/// --allow-non-finite).
ReadOptions readOptionsFrom(const Args& args, bool allowNonFinite = false);

/// Reads and prepares the input. Option mistakes -> UsageError (exit 2); bad data -> InvalidInput (exit 3).
Dataset loadInput(const std::string& path, const Args& args, bool allowNonFinite = false);

/// A LINKAGE file in --linkage-format scipy|thesis|hclust, detected by content when the option is
/// absent (linkage_import.hpp). An unknown format -> UsageError; a bad file -> InvalidInput.
Linkage readLinkageFrom(const Args& args, const std::string& path);

/// --backend as asked for (Auto stays Auto, so that the engine may fall back to the CPU), checked
/// against the machine (UsageError when cuda is asked for but unavailable).
Backend backendFrom(const Args& args);

/// The engine's warnings (e.g. a fallback to the CPU) on stderr, one "clusterlens-cli: warning:" line each.
void printWarnings(const std::vector<std::string>& warnings);

}  // namespace clusterlens::cli
