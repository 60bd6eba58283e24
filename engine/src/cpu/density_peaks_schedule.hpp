#pragma once
// Work schedule of the GPU density-peaks passes: which block handles which tile pairs, in which order
// the blocks are launched, and where the launches are cut into batches (a cancel is honoured between
// batches). Plain C++ so that it can be reasoned about and tested without a device.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace clusterlens::dpc {

/// One block's work: row tile `tile` paired with the tiles first..last (inclusive). `part` numbers
/// the unit's partial results globally; the units of one row tile have consecutive parts (partBegin).
struct TileUnit {
    std::int32_t tile;
    std::int32_t first;
    std::int32_t last;
    std::int32_t part;
};

struct TileSchedule {
    std::vector<TileUnit> units;            ///< in launch order: longest first
    std::vector<std::int32_t> partBegin;    ///< tileCount + 1 offsets: parts of row tile t
    std::vector<std::size_t> batchEnd;      ///< exclusive end (index into units) of each batch
    std::vector<std::uint64_t> batchTiles;  ///< tile pairs in each batch
    std::uint64_t totalTiles = 0;
    std::int32_t parts = 0;
};

/// Row tiles [first, end) of a pass: the share of one device when several split a pass (splitRowTiles).
struct RowTileRange {
    std::int32_t first;
    std::int32_t end;
};

/// The pairs of tiles (I, J) with J >= I (upper; rho and the dc passes) or J <= I (lower; delta) over
/// tileCount tiles, for the row tiles I in `rows` (all of them by default). The units, their parts
/// and partBegin are those of the whole pass whatever the range (a range only leaves units out), so
/// that ranges together compute what the whole pass computes, to the bit. A row tile's range is split into at most a
/// few units when that is needed to give every resident block about four units; units are launched longest first, so
/// blocks finish together. Batches are whole waves of `residentBlocks` units whose summed longest-unit lengths reach
/// `batchSteps` tile steps (about 50 ms of work).
TileSchedule makeTileSchedule(std::int32_t tileCount, bool lower, std::size_t residentBlocks, double batchSteps);
TileSchedule makeTileSchedule(std::int32_t tileCount, bool lower, std::size_t residentBlocks, double batchSteps,
                              RowTileRange rows);

/// Tile pairs of row tile `tile` in the upper or lower pattern over tileCount tiles.
std::uint64_t rowTilePairs(std::int32_t tileCount, bool lower, std::int32_t tile);

/// Cuts the row tiles into `shares` consecutive ranges of about equal tile pairs (shares + 1
/// boundaries, the first 0 and the last tileCount; a range may be empty when there are more shares
/// than row tiles). Every pair then belongs to exactly one range, and the ranges' partial results
/// concatenated in order are those of the whole pass.
std::vector<std::int32_t> splitRowTiles(std::int32_t tileCount, bool lower, std::size_t shares);

}  // namespace clusterlens::dpc
