#pragma once
// Internal: an FCS data set as stored — its keywords, the layout of its events and their bytes —
// shared by the reader (which decodes the events) and the export (which copies them unchanged).
// Segment layout and keywords follow the FCS 3.1 standard (Spidlen et al., Cytometry A 77A:97-100, 2010).

#include <cstdint>
#include <string>
#include <vector>

#include "clusterlens/io/read_options.hpp"
#include "fcs_text.hpp"

namespace clusterlens::fcs {

/// One parameter (its $Pn... keywords) as needed for decoding.
struct Parameter {
    std::string name;                        ///< $PnN, or "Pn" when the file has none
    std::string description;                 ///< $PnS
    unsigned bytes = 4;                      ///< $PnB / 8
    std::uint64_t mask = ~std::uint64_t{0};  ///< integer data: bits kept, from $PnR
    double range = 0;                        ///< $PnR (0 when absent)
    double decades = 0;                      ///< $PnE f1 (0 = linear)
    double logOffset = 1;                    ///< $PnE f2
    double gain = 1;                         ///< $PnG
};

/// How one event is stored in DATA.
struct Layout {
    char type = 'F';  ///< $DATATYPE I, F or D
    bool bigEndian = false;
    std::vector<Parameter> params;
    std::uint64_t eventBytes = 0;  ///< sum of the parameters' bytes
};

/// The first data set of an FCS file, undecoded.
struct RawFile {
    std::string path;
    Header header;
    Keywords keywords;  ///< primary TEXT, then supplemental TEXT, in file order
    Layout layout;
    std::uint64_t events = 0;           ///< complete events present (at most $TOT)
    std::string data;                   ///< events * layout.eventBytes bytes of DATA, as stored
    std::vector<std::string> warnings;  ///< truncation, offset disagreements, duplicate keywords
};

/// Reads HEADER, TEXT (primary and supplemental) and the complete events of the DATA segment.
/// Memory: the DATA bytes. Throws InvalidInput "PATH: POSITION: REASON" on a malformed file, on
/// non-list-mode data, and on a cut DATA segment unless options.allowTruncated.
RawFile readRawFile(const std::string& path, const ReadOptions& options);

/// "$P<j+1><suffix>", e.g. pkey(0, "N") = "$P1N".
std::string pkey(std::size_t j, const char* suffix);

}  // namespace clusterlens::fcs
