// Work schedule of the GPU density-peaks passes (see density_peaks_schedule.hpp).

#include "cpu/density_peaks_schedule.hpp"

#include <algorithm>

namespace clusterlens::dpc {

std::uint64_t rowTilePairs(std::int32_t tileCount, bool lower, std::int32_t tile) {
    return static_cast<std::uint64_t>(lower ? tile + 1 : tileCount - tile);
}

std::vector<std::int32_t> splitRowTiles(std::int32_t tileCount, bool lower, std::size_t shares) {
    const auto t = static_cast<std::uint64_t>(std::max<std::int32_t>(tileCount, 0));
    const std::uint64_t total = t * (t + 1) / 2;
    const std::uint64_t count = std::max<std::size_t>(shares, 1);
    std::vector<std::int32_t> bounds{0};
    std::uint64_t done = 0;
    std::int32_t tile = 0;
    for (std::uint64_t s = 1; s < count; ++s) {
        // The range ends at the first row tile where the pairs so far reach s/count of the total.
        const std::uint64_t goal = total / count * s + total % count * s / count;
        while (tile < tileCount && done + rowTilePairs(tileCount, lower, tile) / 2 < goal)
            done += rowTilePairs(tileCount, lower, tile++);
        bounds.push_back(tile);
    }
    bounds.push_back(std::max<std::int32_t>(tileCount, 0));
    return bounds;
}

TileSchedule makeTileSchedule(std::int32_t tileCount, bool lower, std::size_t residentBlocks, double batchSteps) {
    return makeTileSchedule(tileCount, lower, residentBlocks, batchSteps, RowTileRange{0, tileCount});
}

TileSchedule makeTileSchedule(std::int32_t tileCount, bool lower, std::size_t residentBlocks, double batchSteps,
                              RowTileRange rows) {
    TileSchedule schedule;
    const auto t = static_cast<std::uint64_t>(tileCount);
    const std::uint64_t allTiles = t * (t + 1) / 2;
    const std::uint64_t resident = std::max<std::uint64_t>(residentBlocks, 1);
    // Longest unit so that there are about 4 units per resident block (no split for large n). It
    // follows the whole pass, not the range, so that every range's units (and their partial results)
    // are those of the whole pass.
    const std::uint64_t longest = std::max<std::uint64_t>(1, (allTiles + 4 * resident - 1) / (4 * resident));
    std::vector<TileUnit> units;
    schedule.partBegin.push_back(0);
    std::int32_t part = 0;
    for (std::int32_t tile = 0; tile < tileCount; ++tile) {
        const std::int32_t begin = lower ? 0 : tile;
        const std::int32_t length = lower ? tile + 1 : tileCount - tile;
        const auto parts = static_cast<std::int32_t>((static_cast<std::uint64_t>(length) + longest - 1) / longest);
        const bool inRange = tile >= rows.first && tile < rows.end;
        if (inRange) schedule.totalTiles += static_cast<std::uint64_t>(length);
        for (std::int32_t k = 0; k < parts; ++k, ++part) {
            if (!inRange) continue;
            const auto from = static_cast<std::int32_t>(static_cast<std::int64_t>(length) * k / parts);
            const auto to = static_cast<std::int32_t>(static_cast<std::int64_t>(length) * (k + 1) / parts);
            units.push_back(TileUnit{tile, begin + from, begin + to - 1, part});
        }
        schedule.partBegin.push_back(part);
    }
    schedule.parts = part;
    std::stable_sort(units.begin(), units.end(),
                     [](const TileUnit& a, const TileUnit& b) { return a.last - a.first > b.last - b.first; });
    schedule.units = std::move(units);

    double steps = 0.0;
    std::uint64_t tiles = 0;
    for (std::size_t waveStart = 0; waveStart < schedule.units.size(); waveStart += resident) {
        const std::size_t waveEnd = std::min<std::size_t>(schedule.units.size(), waveStart + resident);
        steps += static_cast<double>(schedule.units[waveStart].last - schedule.units[waveStart].first + 1);
        for (std::size_t u = waveStart; u < waveEnd; ++u)
            tiles += static_cast<std::uint64_t>(schedule.units[u].last - schedule.units[u].first + 1);
        if (steps >= batchSteps || waveEnd == schedule.units.size()) {
            schedule.batchEnd.push_back(waveEnd);
            schedule.batchTiles.push_back(tiles);
            steps = 0.0;
            tiles = 0;
        }
    }
    return schedule;
}

}  // namespace clusterlens::dpc
