#pragma once
// DPC.csv, the decision-graph table of the command line contract: `index,rho,delta,nearest_higher,gamma`
// (nearest_higher -1 for the densest point). The GUI writes it; `plot decision` reads it back.

#include <string>

#include "clusterlens/cluster/density_peaks.hpp"

namespace clusterlens::views {

/// Writes every point of `result` with 17 significant digits (values read back exactly).
/// Throws InvalidInput naming the path when it cannot be written.
void writeDpcCsv(const std::string& path, const DensityPeaksResult& result);

/// Reads DPC.csv (header required, indices 0..n-1 in order) into a result whose densityOrder is
/// rebuilt from rho (ties to the smaller index, as the engine orders them); dc is unknown (0).
/// Throws InvalidInput naming file and line on a malformed row, a link outside [0, n) or n < 2.
DensityPeaksResult readDpcCsv(const std::string& path);

}  // namespace clusterlens::views
