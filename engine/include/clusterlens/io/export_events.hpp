#pragma once
// Exporting events the way a cytometry user expects: the values as stored in the data file (no
// transform, no compensation, every channel), its keywords kept, and new channels appended (cluster
// ids, population membership), so FlowJo re-opens the export as the same experiment plus new channels.

#include <cstddef>
#include <memory>
#include <string>

#include "clusterlens/dataset.hpp"
#include "clusterlens/io/read_options.hpp"
#include "clusterlens/io/write_dataset.hpp"

namespace clusterlens {

namespace fcs {
struct RawFile;
}

/// The events an export writes: a data file as stored, or data that has no file to re-read.
class ExportSource {
public:
    /// Reads `path` like readDataset with `options`, except that compensation is never applied and
    /// NaN/Inf are kept: every column, as stored. An FCS file's TEXT keywords and DATA bytes are kept
    /// too (the file is read twice; memory: twice its events). Throws as readDataset.
    static ExportSource open(const std::string& path, const ReadOptions& options = {});
    /// Data held in memory (e.g. embedded in a session), written as they are.
    static ExportSource fromDataset(Dataset data);

    /// The events as read: n events, every column.
    const Dataset& data() const { return m_data; }
    std::size_t events() const { return m_data.n; }

private:
    friend void exportEvents(const std::string& out, const ExportSource& source, const ExportSelection& selection);
    Dataset m_data;
    std::shared_ptr<const fcs::RawFile> m_fcs;  ///< set for an FCS file
};

/// Writes `out` (.fcs or .csv, by extension, case-insensitive) with the selected events of `source`
/// and the selection's channels.
/// - FCS from an FCS file: fcs::writeFcsKeepingSource — the events' bytes unchanged (bit-identical
///   values of every channel), every keyword kept ($SPILLOVER/SPILL, $PnN/S/R/E/G/V, $CYT, $DATE,
///   $BTIM/$ETIM, $FIL, ...) except the layout ones, which are recomputed; channels appended as
///   $P(n+1)... coded by fcsChannelValue (cluster id + 1, noise 0; membership 0/1).
/// - FCS from any other source: writeFcs (float32 values as read, minimal keywords).
/// - CSV: writeCsv (values as read: an FCS file's integer data on the measurement scale).
/// Written atomically. Throws InvalidInput naming `out` on another extension, a selection that does
/// not fit the source, or a failed write. O(events written * columns).
void exportEvents(const std::string& out, const ExportSource& source, const ExportSelection& selection);

}  // namespace clusterlens
