#pragma once
// `--strip WHAT` of `plot vat` and `plot dendrogram`: up to three colour strips along the VAT image's
// axes or under the dendrogram's leaves, in the order given, as the views' "Strips" row draws them
// (views/colour_strips.hpp). WHAT is
//   marker:NAME   the expression of a feature of the data (a short or long name), on the colormap over
//                 its 1st-99th percentile;
//   NAME          with --session, the session's labeling NAME;
//   populations   with --session and no labeling of that name, the session's visible populations, each
//                 in its own colour (the views' "Populations" labeling);
//   LABELS.csv    without --session, the labels of a file (`index,label`), titled with its base name.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "args.hpp"
#include "clusterlens/dataset.hpp"
#include "colour_strips.hpp"
#include "plot/plot_session.hpp"

namespace clusterlens::cli {

/// What the strips of a figure are drawn over.
struct StripSource {
    const PlotSession* session = nullptr;  ///< --session, or null
    /// The data whose rows the strips colour (all events); null when the figure has none (marker
    /// strips are then refused with UsageError naming `dataOption`).
    const Dataset* data = nullptr;
    const char* dataOption = "";
    std::size_t events = 0;             ///< events of the whole dataset (the strips' length)
    std::vector<std::int64_t> members;  ///< the figure's points as whole-dataset indices; empty = all
};

/// The files that `--strip` names (LABELS.csv without --session), for the provenance's hashes.
std::vector<std::string> stripFiles(const Args& args);

/// The strips of every --strip in `args`, a colour per figure point (member order); null without
/// --strip. UsageError for more than three strips, a marker:NAME the data lacks or a strip kind the
/// source cannot draw; InvalidInput (exit 3) for a labeling missing from the session or a labels file
/// of another length than `events`. O(strips · events).
std::shared_ptr<const views::ColourStrips> plotStrips(const Args& args, const StripSource& source);

}  // namespace clusterlens::cli
