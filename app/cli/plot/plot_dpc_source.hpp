#pragma once
// The DPC result that `plot decision` and `plot gamma` draw: DPC.csv (of all events, or of a
// population with whole-dataset indices, as `dpc --population` writes it) or `--session FILE --name
// NAME`, a stored DPC result with its chosen peaks.

#include <QString>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "args.hpp"
#include "clusterlens/cluster/density_peaks.hpp"

namespace clusterlens::cli {

struct PlotDpc {
    /// The decision-graph data over the m points the run was on (positions 0..m-1).
    std::shared_ptr<const DensityPeaksResult> result;
    std::vector<std::int64_t> members;      ///< ascending whole-dataset indices; empty = all events
    std::vector<std::int64_t> storedPeaks;  ///< positions of the session's chosen peaks, in order
    std::vector<std::uint8_t> halo;         ///< the session's halo flags (m or none), for its peaks
    QString name;                           ///< the file's base name or the result's name
    bool stored = false;                    ///< from a session: drawn as the GUI draws it (its titles)
};

/// Labels of the points for `peaks` (positions): the cluster each joins, and -1 for the session's
/// halo when `peaks` are the peaks chosen there.
std::vector<std::int32_t> dpcLabels(const PlotDpc& dpc, const std::vector<std::int64_t>& peaks);

/// Reads the DPC source of `args` (plotSession has checked the options). InvalidInput (exit 3) for a
/// bad table, a missing result or one of another kind.
PlotDpc plotDpc(const Args& args);

/// Positions of `indices` (values of the table's index column) among the result's points; UsageError
/// naming `option` for an index that is not one of them.
std::vector<std::int64_t> dpcPositions(const PlotDpc& dpc, const std::vector<std::string>& indices, const char* option);

}  // namespace clusterlens::cli
