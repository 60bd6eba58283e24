#pragma once
// Plot coordinates of the decision graph: rho on x, delta on y, each linear or log10. A log axis
// cannot show 0 (rho = 0 for an isolated point under the cutoff kernel, delta = 0 for duplicated
// points), so values below the smallest positive one are drawn at half of it, on the axis floor.

#include <memory>
#include <vector>

#include "analysis_session.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/dataset.hpp"
#include "scatter/scatter_data.hpp"

namespace clusterlens::views {

struct DecisionScale {
    bool logRho = false;
    bool logDelta = false;
    double rhoFloor = 1.0;    ///< smallest value a log rho axis shows
    double deltaFloor = 1.0;  ///< smallest value a log delta axis shows

    /// Floors from the smallest positive rho and delta of `result`. O(n).
    static DecisionScale of(const DensityPeaksResult& result, bool logRho, bool logDelta);

    double x(double rho) const;
    double y(double delta) const;
    double rhoAt(double x) const;
    double deltaAt(double y) const;
};

/// The n points in plot coordinates as a 2-feature dataset, the form the scatter prepares. O(n).
std::shared_ptr<const Dataset> decisionCoordinates(const DensityPeaksResult& result, const DecisionScale& scale);

/// The drawable decision graph: density colours without `labels`, cluster colours with them
/// (noise drawn first). O(n), about 30 ms for 10^6 points.
ScatterData decisionScatter(const Dataset& coordinates, const DecisionScale& scale,
                            std::shared_ptr<const LabelVector> labels);

}  // namespace clusterlens::views
