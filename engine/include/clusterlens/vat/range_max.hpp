#pragma once
// iVAT without an N×N matrix: the minimax path distance between VAT positions i < j equals
// max(cut[i+1..j]) (DESIGN.md), answered in O(1) by a sparse table of argmax positions.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace clusterlens {

/// Sparse table (Bender & Farach-Colton 2000) over a cut array of n values: level L holds, for every
/// start s, the position of the maximum of cut[s .. s + 2^L - 1] (ties: the earlier position).
/// Memory: n·(floor(log2 n)+1) int32 positions (80 MB at n = 10⁶); build O(N log N).
class RangeMaxTable {
public:
    RangeMaxTable() = default;
    explicit RangeMaxTable(std::vector<double> cut);

    std::size_t size() const { return m_cut.size(); }
    const std::vector<double>& values() const { return m_cut; }

    /// Position of the maximum of cut[lo..hi] (inclusive, lo <= hi < size()); ties: the earliest.
    std::size_t argmax(std::size_t lo, std::size_t hi) const;
    double max(std::size_t lo, std::size_t hi) const { return m_cut[argmax(lo, hi)]; }

    /// iVAT distance between positions i and j: 0 when i == j, else max(cut[min+1 .. max]).
    double ivat(std::size_t i, std::size_t j) const;

    /// Raw table for device upload: levels() rows of size() entries, level-major.
    std::size_t levels() const { return m_levels; }
    const std::vector<std::int32_t>& table() const { return m_table; }

private:
    std::vector<double> m_cut;
    std::vector<std::int32_t> m_table;
    std::size_t m_levels = 0;
};

}  // namespace clusterlens
