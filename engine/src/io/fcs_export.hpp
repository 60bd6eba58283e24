#pragma once
// Internal: writing the events of an FCS source as stored, with its keywords, plus appended channels.

#include <string>

#include "clusterlens/dataset.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "fcs_file.hpp"

namespace clusterlens::fcs {

/// Writes `path` (FCS 3.1, atomically) with the selected events of `raw`: every source parameter's
/// bytes unchanged (same $DATATYPE, $PnB and byte order, so values are bit-identical), followed by
/// the selection's channels (coded by fcsChannelValue, in the source's data type; integer data use
/// the widest source width). Every source keyword is kept in file order — $SPILLOVER/SPILL, $PnN,
/// $PnS, $PnR, $PnE, $PnG, $PnV, $CYT, $DATE, $BTIM, $FIL, vendor keywords... — except the layout
/// keywords, which are recomputed ($BEGIN/ENDDATA, $BEGIN/ENDANALYSIS, $BEGIN/ENDSTEXT, $NEXTDATA,
/// $TOT, $PAR, $DATATYPE, $BYTEORD, $MODE, $PnB) and keywords of parameters beyond $PAR. Required
/// keywords a source lacks are added ($PnN, $PnE 0,0, $PnR: 2^bits for integers, else the largest
/// value of `decoded`, the decoded events of `raw`). CLUSTERLENS_SOURCE names the source file and the
/// event count. Throws InvalidInput naming `path` on a selection that does not fit, a channel too
/// large for the integer width, or a failed write. O(events written * bytes per event).
void writeFcsKeepingSource(const std::string& path, const RawFile& raw, const Dataset& decoded,
                           const ExportSelection& selection);

}  // namespace clusterlens::fcs
