// Checks and FCS coding of the events and channels an export writes.

#include <algorithm>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "export_support.hpp"

namespace clusterlens {

void validateSelection(const std::string& out, const ExportSelection& selection, std::size_t n) {
    if (selection.events) {
        const std::vector<std::int64_t>& events = *selection.events;
        for (std::size_t k = 0; k < events.size(); ++k) {
            if (events[k] < 0 || static_cast<std::uint64_t>(events[k]) >= n)
                throwFileError(out, "",
                               "event index " + std::to_string(events[k]) + " is outside the " + std::to_string(n) +
                                   " events of the data");
            if (k > 0 && events[k] <= events[k - 1])
                throwFileError(out, "",
                               "the events to write are not ascending and unique (" + std::to_string(events[k - 1]) +
                                   " then " + std::to_string(events[k]) + ")");
        }
    }
    for (const ExtraChannel& channel : selection.channels) {
        const std::string what = "channel '" + channel.name + "'";
        if (channel.name.empty()) throwFileError(out, "", "an appended channel has no name");
        if (channel.values.size() != n)
            throwFileError(out, "",
                           what + " has " + std::to_string(channel.values.size()) + " values for " + std::to_string(n) +
                               " events");
        if (channel.values.empty()) continue;
        const auto [low, high] = std::minmax_element(channel.values.begin(), channel.values.end());
        if (channel.kind == ChannelKind::ClusterIds && *low < -1)
            throwFileError(out, "", what + ": cluster id " + std::to_string(*low) + " (ids are >= 0, -1 = noise)");
        if (channel.kind == ChannelKind::Membership && (*low < 0 || *high > 1))
            throwFileError(out, "", what + ": membership values must be 0 or 1");
    }
}

double fcsChannelValue(ChannelKind kind, std::int32_t value) {
    return kind == ChannelKind::ClusterIds ? static_cast<double>(value) + 1.0 : static_cast<double>(value);
}

namespace detail {

std::uint64_t fcsChannelRange(const ExtraChannel& channel) {
    if (channel.kind == ChannelKind::Membership) return 2;
    const std::int32_t largest =
        channel.values.empty() ? -1 : *std::max_element(channel.values.begin(), channel.values.end());
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(largest) + 2);
}

std::string fcsChannelDescription(ChannelKind kind) {
    return kind == ChannelKind::ClusterIds ? "cluster id + 1 (0 = noise)" : "population member (1) or not (0)";
}

}  // namespace detail

}  // namespace clusterlens
