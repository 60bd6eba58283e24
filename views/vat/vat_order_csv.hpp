#pragma once
// ORDER.csv of a VAT run, the command line's format (DESIGN.md): header `position,index,cut`, one row
// per position k: the point order[k] (0-based row of the input) and cut[k], the weight of the Prim
// edge that added it (0 at position 0), written so it reads back to the same double.

#include <string>

#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/vat.hpp"

namespace clusterlens::views {

/// Writes `vat` to `path`. O(N); checks `control` every 64K rows. Throws InvalidInput naming the file
/// when it cannot be written, Cancelled.
void writeVatOrderCsv(const std::string& path, const VatResult& vat, JobControl* control = nullptr);

}  // namespace clusterlens::views
