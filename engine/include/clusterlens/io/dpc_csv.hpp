#pragma once
// DPC.csv, the decision-graph table of the command-line contract (DESIGN.md "Outputs"):
// `index,rho,delta,nearest_higher,gamma`, nearest_higher -1 for the densest point, numbers as the
// shortest text that reads back exactly. Written by `dpc`, `session get --dpc` and the GUI's DPC
// page; read back by `plot decision|gamma` (readDpcTable, which also takes a population's table).

#include <string>

#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens {

/// Writes every point of `result`, indices 0..n-1, atomically. Throws InvalidInput naming the path
/// when it cannot be written.
void writeDpcCsv(const std::string& path, const DensityPeaksResult& result);

/// Writes a stored result: index = the k-th member for a result on a population (info.members), else
/// k; nearest_higher as stored (whole-dataset indices). Same format and errors.
void writeDpcCsv(const std::string& path, const DpcResult& result);

/// Reads DPC.csv (header required, indices 0..n-1 in order) into a result whose densityOrder is
/// rebuilt from rho (ties to the smaller index, as the engine orders them); dc is unknown (0).
/// Throws InvalidInput naming file and line on a malformed row, a link outside [0, n) or n < 2.
DensityPeaksResult readDpcCsv(const std::string& path);

/// Reads DPC.csv as a stored result, also the table of a run on a population (as `dpc --population`,
/// `session get --dpc` and the GUI write it): indices are whole numbers in ascending order; when they
/// are 0..n-1 the result is of all events (info.members empty), else info.members holds them.
/// nearest_higher must be -1 or one of the indices (whole-dataset indices, as stored). dc, kernel,
/// peaks and halo are unknown (empty). Throws InvalidInput naming file and line on a malformed row,
/// indices out of order, a link to a point not in the table, or n < 2. O(n log n).
DpcResult readDpcTable(const std::string& path);

}  // namespace clusterlens
