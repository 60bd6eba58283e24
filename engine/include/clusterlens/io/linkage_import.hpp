#pragma once
// Linkages written by other programs, converted to the project's scipy convention (linkage.hpp):
//
// thesis  The GPU MHCA program of the seed thesis (gmhclust) writes one merge per line to stdout,
//         "i j distance" separated by spaces: leaves are 0..n-1 in input order and the cluster made
//         by line k (1-based) gets id n+k-1 — scipy's ids, but i and j in either order and no size.
//         No header; n = lines + 1.
// hclust  R's hclust object: `merge`, an (n-1) x 2 matrix whose negative entries -j are
//         observations j (1-based) and positive entries k the cluster made at row k, and `height`.
//         One file with the rows "merge[,1] merge[,2] height", as written by
//           write.csv(cbind(h$merge, h$height), "tree.csv")                 (header, row names)
//           write.table(cbind(h$merge, h$height), "tree.txt", row.names = FALSE, col.names = FALSE)
//         Comma, tab or space separated; an optional header line; an optional leading column of row
//         names (4 fields per row). Observation -j becomes leaf j-1, cluster k becomes n+k-1.
// scipy   The project's LINKAGE.csv "a,b,height,size" (readLinkageCsv).
// Blank lines and lines starting with '#' are skipped in the thesis and hclust formats.

#include <optional>
#include <string>

#include "clusterlens/hca/linkage.hpp"

namespace clusterlens {

enum class LinkageFormat { Scipy, Thesis, Hclust };

/// "scipy", "thesis" or "hclust"; throws InvalidInput naming --linkage-format otherwise.
LinkageFormat parseLinkageFormat(const std::string& name);

/// The format of a linkage file told by its first lines: the header "a,b,..." is scipy; a first merge
/// with a negative id (hclust's first merge joins two observations, -i and -j) or another header is
/// hclust; three non-negative fields without a header are thesis. Throws InvalidInput naming the file
/// and asking for --linkage-format when it cannot tell (an empty file, 4 numbers without a header).
LinkageFormat detectLinkageFormat(const std::string& path);

/// Reads the thesis program's output (above). Throws InvalidInput "FILE: line L: REASON" on a field
/// that is not a whole id or a number, an id of a cluster not made yet, a cluster merged twice, a
/// non-finite distance, or fewer than one merge. O(n) time and memory.
Linkage readThesisLinkage(const std::string& path);

/// Reads R's hclust merge + height (above). Throws like readThesisLinkage, naming the R value (an
/// observation outside -1..-n, a cluster row not made yet, 0). O(n) time and memory.
Linkage readHclustLinkage(const std::string& path);

/// Reads a linkage in `format`, or in the detected format (detectLinkageFormat) when none is given.
Linkage readLinkage(const std::string& path, std::optional<LinkageFormat> format = std::nullopt);

}  // namespace clusterlens
