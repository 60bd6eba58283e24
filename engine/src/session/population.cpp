// Population set algebra and statistics (population.hpp).

#include "clusterlens/session/population.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "clusterlens/errors.hpp"

namespace clusterlens {

Members intersectMembers(const Members& a, const Members& b) {
    Members out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

Members uniteMembers(const Members& a, const Members& b) {
    Members out;
    out.reserve(std::max(a.size(), b.size()));
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

Members subtractMembers(const Members& a, const Members& b) {
    Members out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

Members complementMembers(const Members& a, const Members& universe) {
    return subtractMembers(universe, a);
}

Members complementMembers(const Members& a, std::size_t n) {
    return subtractMembers(allMembers(n), a);
}

Members allMembers(std::size_t n) {
    Members out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::int64_t>(i);
    return out;
}

bool isSubset(const Members& inner, const Members& outer) {
    return std::includes(outer.begin(), outer.end(), inner.begin(), inner.end());
}

void validateMembers(const Members& members, std::size_t n, const std::string& source) {
    for (std::size_t k = 0; k < members.size(); ++k) {
        const std::int64_t index = members[k];
        if (index < 0 || static_cast<std::uint64_t>(index) >= n)
            throw InvalidInput(source + ": member " + std::to_string(index) + " lies outside the " + std::to_string(n) +
                               " events");
        if (k > 0 && index <= members[k - 1])
            throw InvalidInput(source + ": members are not ascending and unique (" + std::to_string(members[k - 1]) +
                               " before " + std::to_string(index) + ")");
    }
}

Members membersOfClusters(const std::vector<std::int32_t>& labels, const std::vector<std::int32_t>& clusters) {
    std::vector<std::int32_t> chosen = clusters;
    std::sort(chosen.begin(), chosen.end());
    Members out;
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (std::binary_search(chosen.begin(), chosen.end(), labels[i])) out.push_back(static_cast<std::int64_t>(i));
    return out;
}

namespace {

/// The parent of a population that has one; throws when it is named but missing.
const Population& requireParent(const Session& session, const Population& population) {
    const Population* parent = findNamed(session.populations, population.parent);
    if (parent == nullptr)
        throw InvalidInput("population '" + population.name + "': parent '" + population.parent +
                           "' is not in the session");
    return *parent;
}

}  // namespace

Members parentMembers(const Session& session, const Population& population) {
    if (population.parent.empty()) return allMembers(session.data.n);
    return requireParent(session, population).members;
}

PopulationCounts populationCounts(const Session& session, const Population& population) {
    PopulationCounts counts;
    counts.count = population.members.size();
    counts.parentCount = population.parent.empty() ? session.data.n : requireParent(session, population).members.size();
    const auto percent = [&](std::size_t of) {
        return of == 0 ? 0.0 : 100.0 * static_cast<double>(counts.count) / static_cast<double>(of);
    };
    counts.percentOfParent = percent(counts.parentCount);
    counts.percentOfAll = percent(session.data.n);
    return counts;
}

std::vector<double> memberMedians(const float* values, std::size_t n, std::size_t d, const Members& members) {
    validateMembers(members, n, "population statistics");
    std::vector<double> medians(d, std::numeric_limits<double>::quiet_NaN());
    std::vector<float> column;
    column.reserve(members.size());
    for (std::size_t j = 0; j < d; ++j) {
        column.clear();
        for (std::int64_t i : members) {
            const float v = values[static_cast<std::size_t>(i) * d + j];
            if (!std::isnan(v)) column.push_back(v);
        }
        if (column.empty()) continue;
        const std::size_t half = column.size() / 2;
        std::nth_element(column.begin(), column.begin() + static_cast<std::ptrdiff_t>(half), column.end());
        const double upper = column[half];
        if (column.size() % 2 == 1) {
            medians[j] = upper;
        } else {
            const double lower = *std::max_element(column.begin(), column.begin() + static_cast<std::ptrdiff_t>(half));
            medians[j] = 0.5 * (lower + upper);
        }
    }
    return medians;
}

std::vector<float> gatherRows(const float* values, std::size_t n, std::size_t d, const Members& members) {
    validateMembers(members, n, "population rows");
    std::vector<float> out(members.size() * d);
    for (std::size_t k = 0; k < members.size(); ++k)
        std::copy_n(values + static_cast<std::size_t>(members[k]) * d, d,
                    out.begin() + static_cast<std::ptrdiff_t>(k * d));
    return out;
}

Dataset selectMembers(const Dataset& data, const Members& members) {
    Dataset out;
    out.n = members.size();
    out.d = data.d;
    out.values = gatherRows(data.values.data(), data.n, data.d, members);
    if (!data.exact.empty()) {
        out.exact.resize(members.size() * data.d);
        for (std::size_t k = 0; k < members.size(); ++k)
            std::copy_n(data.exact.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(members[k]) * data.d),
                        data.d, out.exact.begin() + static_cast<std::ptrdiff_t>(k * data.d));
    }
    for (std::int64_t i : members) {
        if (!data.pointNames.empty()) out.pointNames.push_back(data.pointNames[static_cast<std::size_t>(i)]);
        if (!data.labels.empty()) out.labels.push_back(data.labels[static_cast<std::size_t>(i)]);
    }
    out.features = data.features;
    out.descriptions = data.descriptions;
    out.labelNames = data.labelNames;
    out.labelSource = data.labelSource;
    out.provenance = data.provenance;
    out.warnings = data.warnings;
    return out;
}

std::vector<std::int32_t> scatterLabels(const std::vector<std::int32_t>& memberLabels, const Members& members,
                                        std::size_t n) {
    if (memberLabels.size() != members.size())
        throw InvalidInput("population labels: " + std::to_string(memberLabels.size()) + " labels for " +
                           std::to_string(members.size()) + " members");
    validateMembers(members, n, "population labels");
    std::vector<std::int32_t> labels(n, -1);
    for (std::size_t k = 0; k < members.size(); ++k) labels[static_cast<std::size_t>(members[k])] = memberLabels[k];
    return labels;
}

std::vector<std::int64_t> positionsToIndices(const std::vector<std::int64_t>& positions, const Members& members) {
    std::vector<std::int64_t> out(positions.size());
    const auto m = static_cast<std::int64_t>(members.size());
    for (std::size_t k = 0; k < positions.size(); ++k) {
        const std::int64_t p = positions[k];
        if (p < -1 || p >= m)
            throw InvalidInput("population indices: position " + std::to_string(p) + " outside the " +
                               std::to_string(m) + " members");
        out[k] = p == -1 ? -1 : members[static_cast<std::size_t>(p)];
    }
    return out;
}

std::vector<std::int64_t> indicesToPositions(const std::vector<std::int64_t>& indices, const Members& members) {
    std::vector<std::int64_t> out(indices.size(), -1);
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const auto it = std::lower_bound(members.begin(), members.end(), indices[k]);
        if (indices[k] >= 0 && it != members.end() && *it == indices[k]) out[k] = it - members.begin();
    }
    return out;
}

std::vector<std::int32_t> gatherLabels(const std::vector<std::int32_t>& labels, const Members& members) {
    validateMembers(members, labels.size(), "population labels");
    std::vector<std::int32_t> out(members.size());
    for (std::size_t k = 0; k < members.size(); ++k) out[k] = labels[static_cast<std::size_t>(members[k])];
    return out;
}

}  // namespace clusterlens
