// Sparse table for range-maximum queries over the VAT cut weights (Bender & Farach-Colton 2000,
// "The LCA problem revisited"): level L stores the argmax of every window of 2^L cuts, and any range
// is covered by two overlapping windows of one level. iVAT (Havens & Bezdek 2012) reads it in O(1).

#include "clusterlens/vat/range_max.hpp"

#include <bit>
#include <limits>
#include <string>
#include <utility>

#include "clusterlens/errors.hpp"

namespace clusterlens {

namespace {

// Of two positions, the one with the larger cut; equal cuts give the earlier position.
inline std::int32_t larger(const std::vector<double>& cut, std::int32_t a, std::int32_t b) {
    if (b < a) std::swap(a, b);
    return cut[static_cast<std::size_t>(b)] > cut[static_cast<std::size_t>(a)] ? b : a;
}

}  // namespace

RangeMaxTable::RangeMaxTable(std::vector<double> cut) : m_cut(std::move(cut)) {
    const std::size_t n = m_cut.size();
    if (n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw InvalidInput("the iVAT table supports at most 2 147 483 647 points, got " + std::to_string(n));
    if (n == 0) return;
    m_levels = static_cast<std::size_t>(std::bit_width(n));  // floor(log2 n) + 1
    m_table.resize(m_levels * n);
    for (std::size_t s = 0; s < n; ++s) m_table[s] = static_cast<std::int32_t>(s);
    for (std::size_t level = 1; level < m_levels; ++level) {
        const std::size_t half = std::size_t{1} << (level - 1);
        const std::int32_t* below = m_table.data() + (level - 1) * n;
        std::int32_t* row = m_table.data() + level * n;
        const std::size_t last = n - (std::size_t{1} << level);  // last start whose window fits
        for (std::size_t s = 0; s <= last; ++s) row[s] = larger(m_cut, below[s], below[s + half]);
        // Windows that run past the end are never read; keep them defined for device upload.
        for (std::size_t s = last + 1; s < n; ++s) row[s] = below[s];
    }
}

std::size_t RangeMaxTable::argmax(std::size_t lo, std::size_t hi) const {
    const std::size_t n = m_cut.size();
    const std::size_t level = static_cast<std::size_t>(std::bit_width(hi - lo + 1)) - 1;
    const std::int32_t* row = m_table.data() + level * n;
    const std::int32_t a = row[lo];
    const std::int32_t b = row[hi + 1 - (std::size_t{1} << level)];
    return static_cast<std::size_t>(larger(m_cut, a, b));
}

double RangeMaxTable::ivat(std::size_t i, std::size_t j) const {
    if (i == j) return 0.0;
    if (i > j) std::swap(i, j);
    return m_cut[argmax(i + 1, j)];
}

}  // namespace clusterlens
