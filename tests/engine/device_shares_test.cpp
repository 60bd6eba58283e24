// The pieces that spread a density-peaks pass over several devices, without a device: the row-tile
// ranges cover every tile pair once and cut the same units as the whole pass (so the shares' partial
// results are those of one device), and the shard team's collectives combine in shard order and stop
// every shard when one fails.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <vector>

#include "cpu/density_peaks_schedule.hpp"
#include "share_group.hpp"

using namespace clusterlens;

namespace {

std::uint64_t pairsOf(std::int32_t tiles, bool lower, std::int32_t first, std::int32_t end) {
    std::uint64_t pairs = 0;
    for (std::int32_t t = first; t < end; ++t) pairs += dpc::rowTilePairs(tiles, lower, t);
    return pairs;
}

std::vector<std::tuple<int, int, int, int>> unitsOf(const dpc::TileSchedule& s) {
    std::vector<std::tuple<int, int, int, int>> out;
    for (const dpc::TileUnit& u : s.units) out.emplace_back(u.part, u.tile, u.first, u.last);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST(RowTileShares, CoverEveryRowTileOnceWithAboutEqualPairs) {
    for (const bool lower : {false, true})
        for (const std::int32_t tiles : {1, 2, 3, 7, 100, 78125})
            for (const std::size_t shares : {1u, 2u, 3u, 4u, 8u}) {
                const std::vector<std::int32_t> b = dpc::splitRowTiles(tiles, lower, shares);
                ASSERT_EQ(b.size(), shares + 1);
                EXPECT_EQ(b.front(), 0);
                EXPECT_EQ(b.back(), tiles);
                EXPECT_TRUE(std::is_sorted(b.begin(), b.end()));
                const std::uint64_t total = pairsOf(tiles, lower, 0, tiles);
                std::uint64_t largestRow = 0;
                for (std::int32_t t = 0; t < tiles; ++t)
                    largestRow = std::max(largestRow, dpc::rowTilePairs(tiles, lower, t));
                for (std::size_t s = 0; s < shares; ++s) {
                    // Within one row tile's pairs of the even share (ranges end at whole row tiles).
                    const double share = static_cast<double>(pairsOf(tiles, lower, b[s], b[s + 1]));
                    EXPECT_LE(std::abs(share - static_cast<double>(total) / static_cast<double>(shares)),
                              static_cast<double>(largestRow))
                        << "tiles " << tiles << " lower " << lower << " shares " << shares << " share " << s;
                }
            }
    // 10M points in tiles of 128 on 4 devices: within 0.01 % of a quarter each.
    const std::vector<std::int32_t> b = dpc::splitRowTiles(78125, false, 4);
    const double total = static_cast<double>(pairsOf(78125, false, 0, 78125));
    for (std::size_t s = 0; s < 4; ++s)
        EXPECT_NEAR(static_cast<double>(pairsOf(78125, false, b[s], b[s + 1])) / total, 0.25, 1e-4);
}

TEST(RowTileShares, RangeSchedulesHoldTheWholePassUnitsAndParts) {
    for (const bool lower : {false, true})
        for (const std::int32_t tiles : {1, 5, 64, 300})
            for (const std::size_t resident : {1u, 16u, 528u})
                for (const std::size_t shares : {2u, 3u, 4u}) {
                    const dpc::TileSchedule whole = dpc::makeTileSchedule(tiles, lower, resident, 100.0);
                    const std::vector<std::int32_t> b = dpc::splitRowTiles(tiles, lower, shares);
                    std::vector<std::tuple<int, int, int, int>> joined;
                    std::uint64_t tilePairs = 0;
                    for (std::size_t s = 0; s < shares; ++s) {
                        const dpc::TileSchedule part =
                            dpc::makeTileSchedule(tiles, lower, resident, 100.0, dpc::RowTileRange{b[s], b[s + 1]});
                        EXPECT_EQ(part.partBegin, whole.partBegin);
                        EXPECT_EQ(part.parts, whole.parts);
                        EXPECT_EQ(part.totalTiles, pairsOf(tiles, lower, b[s], b[s + 1]));
                        std::uint64_t batched = 0;
                        for (std::uint64_t t : part.batchTiles) batched += t;
                        EXPECT_EQ(batched, part.totalTiles);
                        EXPECT_EQ(part.batchEnd.empty() ? 0 : part.batchEnd.back(), part.units.size());
                        for (const dpc::TileUnit& u : part.units) {
                            EXPECT_GE(u.tile, b[s]);
                            EXPECT_LT(u.tile, b[s + 1]);
                            // A share's parts are consecutive: its row tiles' parts.
                            EXPECT_GE(u.part, whole.partBegin[static_cast<std::size_t>(b[s])]);
                            EXPECT_LT(u.part, whole.partBegin[static_cast<std::size_t>(b[s + 1])]);
                        }
                        const auto units = unitsOf(part);
                        joined.insert(joined.end(), units.begin(), units.end());
                        tilePairs += part.totalTiles;
                    }
                    std::sort(joined.begin(), joined.end());
                    EXPECT_EQ(joined, unitsOf(whole)) << "tiles " << tiles << " resident " << resident;
                    EXPECT_EQ(tilePairs, whole.totalTiles);
                }
}

TEST(ShardTeam, CombinesInShardOrderWhateverTheArrivalOrder) {
    detail::ShardTeam team(4);
    std::vector<std::vector<int>> gathered(4), first(4), broadcast(4);
    std::vector<std::vector<std::uint64_t>> sums(4), firstSums(4);
    team.run([&](std::size_t s) {
        // Later shards arrive first.
        std::this_thread::sleep_for(std::chrono::milliseconds(10 * (3 - static_cast<int>(s))));
        std::vector<int> mine(s, static_cast<int>(s));  // shard s gives s copies of s
        gathered[s] = team.gather(s, mine);
        first[s] = team.gatherToFirst(s, mine);
        const std::vector<std::uint64_t> counts{s, 10 * s, 1};
        sums[s] = team.sum(s, counts);
        firstSums[s] = team.sumToFirst(s, counts);
        broadcast[s] = team.broadcast(s, std::vector<int>{static_cast<int>(s) + 7, 8});
    });
    const std::vector<int> expected{1, 2, 2, 3, 3, 3};
    for (std::size_t s = 0; s < 4; ++s) {
        EXPECT_EQ(gathered[s], expected);
        EXPECT_EQ(first[s], s == 0 ? expected : std::vector<int>{});
        EXPECT_EQ(sums[s], (std::vector<std::uint64_t>{6, 60, 4}));
        EXPECT_EQ(firstSums[s], s == 0 ? (std::vector<std::uint64_t>{6, 60, 4}) : std::vector<std::uint64_t>{});
        EXPECT_EQ(broadcast[s], (std::vector<int>{7, 8}));
    }
}

TEST(ShardTeam, OneFailureStopsTheOthersAndIsRethrown) {
    detail::ShardTeam team(3);
    std::atomic<int> aborted{0};
    try {
        team.run([&](std::size_t s) {
            if (s == 1) throw std::runtime_error("device 1 ran out of memory");
            try {
                // Shards 0 and 2 wait in a collective that shard 1 never reaches.
                team.gather(s, std::vector<int>{1});
            } catch (const detail::TeamAborted&) {
                ++aborted;
                throw;
            }
        });
        FAIL() << "the failure was not rethrown";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "device 1 ran out of memory");
    }
    EXPECT_EQ(aborted.load(), 2);
    EXPECT_THROW(team.checkAborted(), detail::TeamAborted);
}

TEST(ShardTeam, ATeamOfOneNeedsNoOtherThread) {
    detail::ShardTeam team(1);
    team.run([&](std::size_t s) {
        EXPECT_EQ(team.gather(s, std::vector<int>{4, 5}), (std::vector<int>{4, 5}));
        EXPECT_EQ(team.sumToFirst(s, std::vector<std::uint64_t>{3}), std::vector<std::uint64_t>{3});
    });
}
