#include "populations/scope_mapping.hpp"

#include <algorithm>
#include <utility>

#include "clusterlens/session/population.hpp"

namespace clusterlens::views {

bool scopeFitsData(const ResultScope& scope, std::size_t points, std::size_t n) {
    if (scope.isAll()) return points == n;
    const IndexVector& members = *scope.members;
    return !members.empty() && members.size() == points && members.front() >= 0 &&
           static_cast<std::size_t>(members.back()) < n;
}

IndexVector indicesOfPositions(const ResultScope& scope, IndexVector positions) {
    if (scope.isAll()) return positions;
    return positionsToIndices(positions, *scope.members);
}

IndexVector positionsInScope(const ResultScope& scope, IndexVector indices) {
    if (scope.isAll()) return indices;
    IndexVector positions = indicesToPositions(indices, *scope.members);
    positions.erase(std::remove(positions.begin(), positions.end(), std::int64_t{-1}), positions.end());
    return positions;
}

std::shared_ptr<const LabelVector> labelsInScope(std::shared_ptr<const LabelVector> labels, const ResultScope& scope,
                                                 std::size_t n) {
    if (!labels || labels->size() != n) return nullptr;
    if (scope.isAll()) return labels;
    return std::make_shared<const LabelVector>(gatherLabels(*labels, *scope.members));
}

std::shared_ptr<const ColourStrips> stripsInScope(std::shared_ptr<const ColourStrips> strips,
                                                  const ResultScope& scope) {
    if (!strips || scope.isAll() || scope.members->empty()) return strips;
    const IndexVector& members = *scope.members;
    auto gathered = std::make_shared<ColourStrips>();
    for (const ColourStrip& strip : *strips) {
        if (static_cast<std::size_t>(members.back()) >= strip.colours.size()) {
            gathered->push_back(strip);
            continue;
        }
        ColourStrip own{strip.title, {}};
        own.colours.reserve(members.size());
        for (const std::int64_t event : members) own.colours.push_back(strip.colours[static_cast<std::size_t>(event)]);
        gathered->push_back(std::move(own));
    }
    return gathered;
}

}  // namespace clusterlens::views
