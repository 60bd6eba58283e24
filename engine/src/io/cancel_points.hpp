#pragma once
// Where the readers and writers look for a cancel (ReadOptions::control, ExportSelection::control).

#include <cstddef>

#include "clusterlens/job_control.hpp"

namespace clusterlens::detail {

/// Rows (events) between two looks at the job's cancel flag: at a few microseconds per row of 10-50
/// values, a cancel lands within a few milliseconds, and the look (one relaxed atomic load) costs
/// nothing measurable.
constexpr std::size_t kRowsPerCancelCheck = 4096;

/// Throws Cancelled when `control` was cancelled and `row` starts a block of kRowsPerCancelCheck rows.
inline void cancelPoint(const JobControl* control, std::size_t row) {
    if (control != nullptr && row % kRowsPerCancelCheck == 0) control->checkCancelled();
}

}  // namespace clusterlens::detail
