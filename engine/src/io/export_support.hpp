#pragma once
// Internal: walking the events an ExportSelection writes and the keywords of appended FCS channels
// (shared by the CSV and FCS writers).

#include <cstddef>
#include <cstdint>
#include <string>

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

/// $PnR of an appended FCS channel: one more than the largest value fcsChannelValue writes for any
/// of its events (cluster ids: largest id + 2; membership: 2), so the range covers every value.
std::uint64_t fcsChannelRange(const ExtraChannel& channel);

/// $PnS of an appended FCS channel: how its values are coded.
std::string fcsChannelDescription(ChannelKind kind);

}  // namespace clusterlens::detail
