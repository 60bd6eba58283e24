#pragma once
// How a result computed on a population (ResultScope) meets the rest of the application, which names
// events by whole-dataset index: the result's points are the population's members in member order
// (a tree's leaves, a VAT order's points, a decision graph's points), so their positions map to
// whole-dataset indices and back, and whole-dataset labels and colour strips are gathered per point.
// For a result on all events every function returns its input.

#include <cstddef>
#include <memory>

#include "analysis_session.hpp"
#include "colour_strips.hpp"

namespace clusterlens::views {

/// Whether a result over `points` analysed events of `scope` belongs to a dataset of `n` events: all
/// events and points == n, or a non-empty population of `points` members that all lie below n.
bool scopeFitsData(const ResultScope& scope, std::size_t points, std::size_t n);

/// Positions among the scope's points -> whole-dataset indices, in the same order (ascending positions
/// give ascending indices, as members are ascending). O(s). Throws InvalidInput for a position outside
/// the members.
IndexVector indicesOfPositions(const ResultScope& scope, IndexVector positions);

/// Whole-dataset indices -> positions among the scope's points, in the same order; events outside the
/// population are left out. O(s log m).
IndexVector positionsInScope(const ResultScope& scope, IndexVector indices);

/// Whole-dataset labels (n entries) as the scope's points see them (one per member, member order);
/// null when `labels` is null or does not have n entries. O(m).
std::shared_ptr<const LabelVector> labelsInScope(std::shared_ptr<const LabelVector> labels, const ResultScope& scope,
                                                 std::size_t n);

/// Colour strips of the whole dataset (a colour per event) as strips of the scope's points (a colour per
/// member, member order). A strip too short for the members is left as it is (the views skip strips
/// of another size). O(strips · m).
std::shared_ptr<const ColourStrips> stripsInScope(std::shared_ptr<const ColourStrips> strips, const ResultScope& scope);

}  // namespace clusterlens::views
