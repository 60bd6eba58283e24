#pragma once
// The CSV writer of VAT results (DESIGN.md "Outputs"), shared by `vat` and `session get`, so that a
// stored result comes back byte for byte as the command wrote it. DPC.csv: clusterlens/io/dpc_csv.hpp.

#include <string>

#include "clusterlens/session/session.hpp"

namespace clusterlens::cli {

/// ORDER.csv `position,index,cut`.
void writeOrderCsv(const std::string& path, const VatEntry& result);

}  // namespace clusterlens::cli
