#pragma once
// Internal: walking the events an ExportSelection writes (shared by the CSV and FCS writers).

#include <cstddef>

#include "clusterlens/io/write_dataset.hpp"

namespace clusterlens::detail {

/// Number of events written from a dataset of n events.
inline std::size_t selectedCount(const ExportSelection& selection, std::size_t n) {
    return selection.events ? selection.events->size() : n;
}

/// Whole-dataset index of the k-th written event.
inline std::size_t selectedEvent(const ExportSelection& selection, std::size_t k) {
    return selection.events ? static_cast<std::size_t>((*selection.events)[k]) : k;
}

} // namespace clusterlens::detail
