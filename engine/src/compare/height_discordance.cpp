#include "clusterlens/compare/height_discordance.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "clusterlens/compare/correlation.hpp"
#include "clusterlens/errors.hpp"

namespace clusterlens {

std::vector<double> heightRankDifference(const std::vector<double>& heightsA, const std::vector<double>& heightsB) {
    if (heightsA.size() != heightsB.size())
        throw InvalidInput("point heights: the two clusterings have " + std::to_string(heightsA.size()) + " and " +
                           std::to_string(heightsB.size()) + " points");
    std::vector<double> difference = averageRanks(heightsA);
    const std::vector<double> ranksB = averageRanks(heightsB);
    for (std::size_t i = 0; i < difference.size(); ++i) difference[i] -= ranksB[i];
    return difference;
}

std::vector<std::size_t> mostDiscordant(const std::vector<double>& rankDifference, std::size_t count) {
    std::vector<std::size_t> placedApart;
    for (std::size_t i = 0; i < rankDifference.size(); ++i)
        if (rankDifference[i] != 0.0) placedApart.push_back(i);
    count = std::min(count, placedApart.size());
    const auto before = [&](std::size_t a, std::size_t b) {
        const double ma = std::fabs(rankDifference[a]), mb = std::fabs(rankDifference[b]);
        return ma > mb || (ma == mb && a < b);
    };
    std::partial_sort(placedApart.begin(), placedApart.begin() + static_cast<std::ptrdiff_t>(count), placedApart.end(),
                      before);
    placedApart.resize(count);
    return placedApart;
}

}  // namespace clusterlens
