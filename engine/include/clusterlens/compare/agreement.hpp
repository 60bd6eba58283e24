#pragma once
// Agreement between two flat clusterings of the same N points.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clusterlens {

/// Counts of points per (cluster of A, cluster of B). Labels are arbitrary integers (-1 = noise is a
/// cluster of its own, as in scikit-learn). Memory O(kA * kB), time O(N log N).
struct ContingencyTable {
    std::vector<std::int32_t> labelsA;  ///< distinct labels of A, ascending (rows)
    std::vector<std::int32_t> labelsB;  ///< distinct labels of B, ascending (columns)
    std::vector<std::int64_t> counts;   ///< labelsA.size() x labelsB.size(), row-major
    std::vector<std::int64_t> rowSums;  ///< |A_i|
    std::vector<std::int64_t> colSums;  ///< |B_j|
    std::int64_t n = 0;

    std::int64_t at(std::size_t i, std::size_t j) const { return counts[i * labelsB.size() + j]; }
};

/// Throws InvalidInput when the lengths differ or N = 0.
ContingencyTable contingencyTable(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b);

/// Adjusted Rand index (Hubert & Arabie 1985). 1 for identical partitions; 1 also when both
/// are a single cluster (scikit-learn's convention).
double adjustedRandIndex(const ContingencyTable& table);

/// Normalised mutual information, arithmetic mean of the entropies (scikit-learn's default);
/// 1 when both partitions are trivial and identical.
double normalizedMutualInformation(const ContingencyTable& table);

enum class MatchingMethod { Hungarian, Greedy };
MatchingMethod parseMatchingMethod(const std::string& text);

struct MatchedPair {
    std::int32_t a;  ///< label in A
    std::int32_t b;  ///< label in B
    double f1;       ///< 2|A∩B| / (|A| + |B|)
};

struct ClusterMatching {
    std::vector<MatchedPair> pairs;  ///< matched pairs (clusters left unmatched in a rectangular table omitted)
    double fMeasure = 0.0;           ///< Σ over pairs of (|A_i| / N) · F1(A_i, B_j)
    double totalF1 = 0.0;            ///< the maximised objective Σ F1
};

/// 1-to-1 matching of clusters maximising Σ F1 over pairs, solved as a linear assignment problem
/// with cost 1 - F1. O(k^3) Hungarian or O(k^2 log k) greedy, k = max(kA, kB).
ClusterMatching matchClusters(const ContingencyTable& table, MatchingMethod method);

}  // namespace clusterlens
