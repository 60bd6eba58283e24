#pragma once
// The CSV writers of DPC and VAT results (DESIGN.md "Outputs"), shared by `dpc`, `vat` and
// `session get`, so that a stored result comes back byte for byte as the command wrote it.

#include <string>

#include "clusterlens/session/session.hpp"

namespace clusterlens::cli {

/// DPC.csv `index,rho,delta,nearest_higher,gamma`: one row per analysed event, whole-dataset indices
/// (index = the k-th member for a result on a population), doubles with 17 significant digits.
void writeDpcCsv(const std::string& path, const DpcResult& result);

/// ORDER.csv `position,index,cut`.
void writeOrderCsv(const std::string& path, const VatEntry& result);

}  // namespace clusterlens::cli
