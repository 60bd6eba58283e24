#pragma once
// Populations as sets of events: set algebra on ascending member lists, populations from chosen
// clusters of a labeling, and the statistics a Populations panel shows. Member lists are ascending,
// unique whole-dataset indices (session.hpp); every function here keeps them so.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens {

using Members = std::vector<std::int64_t>;

/// A AND B. O(|a| + |b|).
Members intersectMembers(const Members& a, const Members& b);
/// A OR B. O(|a| + |b|).
Members uniteMembers(const Members& a, const Members& b);
/// A AND NOT B. O(|a| + |b|).
Members subtractMembers(const Members& a, const Members& b);
/// NOT A relative to a universe (a parent's members): universe minus a. O(|a| + |universe|).
Members complementMembers(const Members& a, const Members& universe);
/// NOT A relative to all n events: 0..n-1 minus a. O(n).
Members complementMembers(const Members& a, std::size_t n);
/// All n events 0..n-1.
Members allMembers(std::size_t n);

/// True when every member of `inner` is in `outer`. O(|inner| + |outer|).
bool isSubset(const Members& inner, const Members& outer);

/// Throws InvalidInput "SOURCE: REASON" unless members are ascending, unique and in [0, n).
void validateMembers(const Members& members, std::size_t n, const std::string& source);

/// The events whose label is one of `clusters`, ascending. O(n + |clusters|).
Members membersOfClusters(const std::vector<std::int32_t>& labels, const std::vector<std::int32_t>& clusters);

/// The members of a population's parent: the parent's members, or all n events for a root.
/// Throws InvalidInput when the parent is named but not in the session.
Members parentMembers(const Session& session, const Population& population);

/// Counts a panel shows. percentOfParent and percentOfAll are in [0, 100] (0 when the reference is empty).
struct PopulationCounts {
    std::size_t count = 0;
    std::size_t parentCount = 0;
    double percentOfParent = 0.0;
    double percentOfAll = 0.0;
};

/// Counts of `population` within its parent and within all session.data.n events.
PopulationCounts populationCounts(const Session& session, const Population& population);

/// Median of each of the d columns over the members, for n x d row-major values (the analysed data).
/// An even count takes the mean of the two middle values; an empty member list gives NaN per column;
/// NaN values are skipped. Result has d entries. O(|members| · d) time, O(|members|) extra memory.
/// Throws InvalidInput when a member lies outside [0, n).
std::vector<double> memberMedians(const float* values, std::size_t n, std::size_t d, const Members& members);

/// The rows of `members` of an n x d row-major matrix, as a new m x d matrix (to run an analysis on a
/// population). O(m · d).
std::vector<float> gatherRows(const float* values, std::size_t n, std::size_t d, const Members& members);

/// The members' rows of a dataset as a dataset of m events (to run an analysis on a population):
/// values, exact values, point names and labels are gathered; feature names, descriptions, label names
/// and provenance are kept; embeddings are dropped. O(m · d). Throws InvalidInput for invalid members.
Dataset selectMembers(const Dataset& data, const Members& members);

/// Spreads per-member labels (m entries, member order) into n whole-dataset labels, -1 for non-members.
std::vector<std::int32_t> scatterLabels(const std::vector<std::int32_t>& memberLabels, const Members& members,
                                        std::size_t n);

/// Maps positions 0..m-1 among the members to whole-dataset indices; -1 stays -1. Throws InvalidInput
/// for a position outside [-1, m).
std::vector<std::int64_t> positionsToIndices(const std::vector<std::int64_t>& positions, const Members& members);

/// The inverse of positionsToIndices: the position of each whole-dataset index among the members, -1 for
/// -1 and for an index that is not a member (to show a stored result of a population again, or to map a
/// selection of the whole dataset onto it). O(|indices| · log m).
std::vector<std::int64_t> indicesToPositions(const std::vector<std::int64_t>& indices, const Members& members);

/// The members' entries of n whole-dataset labels (m entries, member order): a labeling of the whole
/// dataset as seen by an analysis of the population. Throws InvalidInput for invalid members.
std::vector<std::int32_t> gatherLabels(const std::vector<std::int32_t>& labels, const Members& members);

}  // namespace clusterlens
