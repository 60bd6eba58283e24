#pragma once
// Internal: assembling an FCS 3.1 data set (HEADER, TEXT, DATA, CRC) for the writers.

#include <cstdint>
#include <functional>
#include <string>

#include "clusterlens/dataset.hpp"
#include "fcs_text.hpp"

namespace clusterlens::fcs {

/// Appends the encoded events [first, last) of the written sequence to `out`.
using EventEncoder = std::function<void(std::size_t first, std::size_t last, std::string& out)>;

/// Writes `path` atomically (writeFileAtomically) as one FCS 3.1 data set: the HEADER; TEXT made of
/// the segment keywords ($BEGINANALYSIS, $ENDANALYSIS, $BEGINSTEXT, $ENDSTEXT, $BEGINDATA, $ENDDATA,
/// $NEXTDATA, computed here) followed by `keywords` (which must not contain them); DATA of `events`
/// events of `eventBytes` bytes each, produced by `encode` in chunks; the CRC field "00000000" (not
/// computed). Throws InvalidInput naming `path` when TEXT is too long for the HEADER or the file
/// cannot be written. Memory: one chunk of events.
void writeDataSet(const std::string& path, const KeywordList& keywords, std::uint64_t events, std::uint64_t eventBytes,
                  const EventEncoder& encode);

/// $PnR for float data, only a hint for display: per column the largest finite value rounded up,
/// at least 1. O(n * d).
std::vector<std::string> displayRanges(const Dataset& data);

/// Appends the low `bytes` bytes of `word`, most significant first when bigEndian.
void appendWord(std::string& out, std::uint64_t word, unsigned bytes, bool bigEndian);

}  // namespace clusterlens::fcs
