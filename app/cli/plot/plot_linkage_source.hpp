#pragma once
// The tree that `plot dendrogram`, `plot sizes` and `plot merge-heights` draw: LINKAGE.csv (in
// --linkage-format) or `--session FILE --name LINKAGE`, a stored linkage (of all events or of a
// population), and its cut into K clusters of at least M leaves (--cut-k, --min-cluster-size).

#include <QString>

#include <memory>

#include "args.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/session/population.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "plot/plot_session.hpp"

namespace clusterlens::cli {

struct PlotLinkage {
    Linkage linkage;
    Members members;  ///< ascending whole-dataset indices of the leaves; empty = all events
    QString name;     ///< the file's base name or the stored linkage's name
    std::shared_ptr<const views::DendrogramLayout> layout;
    std::shared_ptr<const PlotSession> session;  ///< --session, or null
};

/// Reads the tree of `args` (the options of plot_session.hpp and --linkage-format). UsageError for
/// misused options; InvalidInput (exit 3) for a bad file, a missing linkage or a result of another kind.
PlotLinkage plotLinkage(const Args& args);

/// The cut of --cut-k K [--min-cluster-size M] (null without --cut-k; UsageError for a K or M outside
/// 1..leaves, or --min-cluster-size alone).
std::shared_ptr<const views::DendrogramCut> plotCut(const Args& args, const PlotLinkage& tree);

}  // namespace clusterlens::cli
