#pragma once
// Per-point integer labels: MHCA a-priori groups, LABELS.csv of the CLI, ground-truth files.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clusterlens {

/// Reads one integer per line (blank lines and '#' comments ignored), or the CLI's "index,label"
/// CSV with its header (indices must run 0..n-1 in order). Throws InvalidInput naming file and line on
/// a non-integer, and naming both lengths when expectedN != 0 and the count differs. O(N).
std::vector<std::int32_t> readLabels(const std::string& path, std::size_t expectedN = 0);

/// Labels of every event with the names of their classes, as clustering tools and gating write them.
struct LabelFile {
    std::vector<std::int32_t> labels;  ///< n values; -1 = noise / unassigned
    /// Empty for integer labels (kept as they are); for text labels one name per label value 0..K-1.
    std::vector<std::string> names;
    std::string column;  ///< header of the label column, or empty without a header
};

/// Reads per-event labels (FlowSOM, Leiden, manual gates): one label per line, or two columns
/// KEY,LABEL separated by a comma, tab or semicolon. KEY is a 0-based event index (every index
/// 0..n-1 once, any order) or an event name matched against `pointNames` (AnnData obs_names, 10x
/// barcodes). A first line that is a header (not data) is recognised: with `expectedN` != 0 when the
/// file has one line more than the data has events, else when its label or key is text while the
/// next line's is a number. Integer labels are kept (negative = noise); otherwise every label is a class
/// name, numbered 0..K-1 in order of first appearance, with "", "NA" and "nan" as -1. Blank lines and
/// lines starting with '#' are skipped. Throws InvalidInput naming the file and, where one is at fault,
/// the line: a row with more than two fields, an index out of range or repeated, an unknown event name,
/// a count of labels that differs from `expectedN` (both counts named), an empty file. O(n) time and
/// memory.
LabelFile readLabelFile(const std::string& path, std::size_t expectedN = 0,
                        const std::vector<std::string>& pointNames = {});

/// Writes "index,label" CSV (-1 = noise / unassigned).
void writeLabelsCsv(const std::string& path, const std::vector<std::int32_t>& labels);

}  // namespace clusterlens
