#pragma once
// ORDER.csv of a VAT run, the command line's format (DESIGN.md): header `position,index,cut`, one row
// per position k: the point order[k] (0-based row of the input) and cut[k], the weight of the Prim
// edge that added it (0 at position 0), written so it reads back to the same double.

#include <cstdint>
#include <string>
#include <vector>

#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/vat.hpp"

namespace clusterlens::views {

/// Writes `vat` to `path`. The index column names each point by `events[order[k]]` when `events` is
/// given (the whole-dataset indices of a run on a population's members), else by order[k]. O(N); checks
/// `control` every 64K rows. Throws InvalidInput naming the file when it cannot be written (or a point
/// has no event), Cancelled.
void writeVatOrderCsv(const std::string& path, const VatResult& vat, const std::vector<std::int64_t>* events = nullptr,
                      JobControl* control = nullptr);

}  // namespace clusterlens::views
