#pragma once
// Writers of a dataset's events, CSV and FCS 3.1, with appended columns (cluster ids of a labeling,
// membership of a population) to gate on in FlowJo or to read in R and Python. To write the events of
// a data file exactly as stored, with its keywords, use exportEvents (export_events.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "clusterlens/dataset.hpp"

namespace clusterlens {

class JobControl;

/// What a column appended to written events holds.
enum class ChannelKind {
    ClusterIds,  ///< a labeling: ids >= 0, -1 = noise / unassigned
    Membership,  ///< a population: 1 = member, 0 = not
};

/// A column appended to every written event.
struct ExtraChannel {
    std::string name;  ///< CSV header / FCS $PnN
    ChannelKind kind = ChannelKind::ClusterIds;
    std::vector<std::int32_t> values;  ///< one per event of the whole dataset, not only the written ones
};

/// Which events to write and what to append to them.
struct ExportSelection {
    /// Ascending, unique whole-dataset indices of the events to write (a population's members);
    /// std::nullopt writes every event.
    std::optional<std::vector<std::int64_t>> events;
    std::vector<ExtraChannel> channels;
    /// Checked between blocks of written events: a cancel() ends the write by throwing Cancelled, and
    /// the output file is left as it was (writes are atomic). Null: the write cannot be cancelled.
    JobControl* control = nullptr;
};

/// Throws InvalidInput "OUT: REASON" unless the event indices are ascending, unique and below n,
/// every channel has n values, cluster ids are >= -1 and membership values 0 or 1. O(n).
void validateSelection(const std::string& out, const ExportSelection& selection, std::size_t n);

/// The value an FCS channel holds for one event. FlowJo gates need non-negative values, so cluster
/// ids are written shifted by one: cluster c -> c + 1, noise (-1) -> 0; membership as is (0/1).
double fcsChannelValue(ChannelKind kind, std::int32_t value);

/// CSV with a header row, the selected events in ascending order, columns: the point names (headed
/// by their column's name, else "name"), the features (exact doubles when the dataset has them,
/// else float32), the file's labels (class names when known; headed by the label column's name,
/// else "label"), the other text annotations, then the selection's channels with their values as
/// given (-1 = noise). Numbers are the shortest text that reads back exactly. Written atomically
/// (writeFileAtomically); throws InvalidInput naming `path` when the selection does not fit the
/// data or the file cannot be written. O(events * columns), memory O(columns) beyond the data.
void writeCsv(const std::string& path, const Dataset& data, const ExportSelection& selection = {});

/// FCS 3.1 list mode, $DATATYPE F, $BYTEORD 1,2,3,4: the selected events' features as float32
/// ($PnN features, $PnS descriptions, $PnR the largest value rounded up, at least 1), then the
/// selection's channels coded by fcsChannelValue. Text annotations cannot be stored in FCS and are
/// left out. Written atomically; throws like writeCsv. O(events * columns).
void writeFcs(const std::string& path, const Dataset& data, const ExportSelection& selection = {});

}  // namespace clusterlens
