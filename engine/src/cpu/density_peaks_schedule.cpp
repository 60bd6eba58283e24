// Work schedule of the GPU density-peaks passes (see density_peaks_schedule.hpp).

#include "cpu/density_peaks_schedule.hpp"

#include <algorithm>

namespace clusterlens::dpc {

TileSchedule makeTileSchedule(std::int32_t tileCount, bool lower, std::size_t residentBlocks, double batchSteps) {
    TileSchedule schedule;
    const auto t = static_cast<std::uint64_t>(tileCount);
    schedule.totalTiles = t * (t + 1) / 2;
    const std::uint64_t resident = std::max<std::uint64_t>(residentBlocks, 1);
    // Longest unit so that there are about 4 units per resident block (no split for large n).
    const std::uint64_t longest = std::max<std::uint64_t>(1, (schedule.totalTiles + 4 * resident - 1) / (4 * resident));
    std::vector<TileUnit> units;
    schedule.partBegin.push_back(0);
    for (std::int32_t tile = 0; tile < tileCount; ++tile) {
        const std::int32_t begin = lower ? 0 : tile;
        const std::int32_t length = lower ? tile + 1 : tileCount - tile;
        const auto parts = static_cast<std::int32_t>((static_cast<std::uint64_t>(length) + longest - 1) / longest);
        for (std::int32_t part = 0; part < parts; ++part) {
            const auto from = static_cast<std::int32_t>(static_cast<std::int64_t>(length) * part / parts);
            const auto to = static_cast<std::int32_t>(static_cast<std::int64_t>(length) * (part + 1) / parts);
            units.push_back(TileUnit{tile, begin + from, begin + to - 1, static_cast<std::int32_t>(units.size())});
        }
        schedule.partBegin.push_back(static_cast<std::int32_t>(units.size()));
    }
    schedule.parts = static_cast<std::int32_t>(units.size());
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
