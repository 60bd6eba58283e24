#pragma once
// `dpc … --dc-sweep LO:HI:STEPS`: the peak stability of the reported choice across the cutoff distance
// (clusterlens/cluster/dc_sweep.hpp), as the JSON fields `sweep` and `persistence` or a short table.

#include <cstdint>
#include <optional>
#include <vector>

#include "args.hpp"
#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/dataset.hpp"
#include "json.hpp"
#include "session_run.hpp"

namespace clusterlens::cli {

/// --dc-sweep LO:HI:STEPS: percentiles of the pairwise distances from LO to HI in STEPS steps.
struct DcSweepRequest {
    double lo = 0.0, hi = 0.0;
    int steps = 0;
};

/// Parses --dc-sweep (UsageError naming it and the reason); nothing when it is absent.
std::optional<DcSweepRequest> dcSweepRequest(const Args& args);

/// The JSON fields of a sweep: `sweep` (per step: `percent`, `dc`, `peaks` as whole-dataset indices)
/// and `persistence` (per peak of the reported choice, in the order of `peaks`, in [0, 1]).
struct DcSweepJson {
    Json sweep = Json::array();
    Json persistence = Json::array();
};

/// Runs the sweep over `data` with `options` at each percentile, judging `peaks` (positions among the
/// analysed events, K = their count) with the clusters they give on `result`; prints a table unless
/// --json; adds its time to `seconds` ("sweep"). Throws what sweepDc throws.
DcSweepJson runDcSweep(const Args& args, const Dataset& data, const DensityPeaksOptions& options,
                       const DcSweepRequest& request, const DensityPeaksResult& result,
                       const std::vector<std::int64_t>& peaks, const SessionRun& run, Backend backend, Json& seconds);

}  // namespace clusterlens::cli
