#pragma once
// Where the readers and writers look for a cancel (ReadOptions::control, ExportSelection::control).

#include <cstddef>
#include <istream>
#include <string>

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

/// Appends the rest of `in` to `bytes` in blocks of 1 MiB, looking at `control` (when given) before
/// each: a cancel() throws Cancelled. False on a read error (the stream went bad).
inline bool readAll(std::istream& in, std::string& bytes, const JobControl* control) {
    constexpr std::size_t kBlock = std::size_t{1} << 20;
    while (in) {
        if (control != nullptr) control->checkCancelled();
        const std::size_t used = bytes.size();
        bytes.resize(used + kBlock);
        in.read(bytes.data() + used, static_cast<std::streamsize>(kBlock));
        bytes.resize(used + static_cast<std::size_t>(in.gcount()));
    }
    return !in.bad();
}

}  // namespace clusterlens::detail
