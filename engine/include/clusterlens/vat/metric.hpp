#pragma once
// Dissimilarities between two points for VAT/iVAT and the minimum spanning tree.

#include <cstddef>
#include <string>

namespace clusterlens {

/// euclidean sqrt(Σ(a-b)²); sqeuclidean Σ(a-b)²; manhattan Σ|a-b|; cosine 1 - a·b / (|a| |b|).
/// Euclidean and sqeuclidean give the same tree and order (a monotone map of each other); cosine is
/// undefined for an all-zero row and such input is rejected.
enum class Metric { Euclidean, SqEuclidean, Manhattan, Cosine };

/// Parses "euclidean" | "sqeuclidean" | "manhattan" | "cosine"; throws InvalidInput naming --metric.
Metric parseMetric(const std::string& text);

/// The name parseMetric accepts.
const char* metricName(Metric metric);

/// The reference value of the metric: every sum accumulated in double in feature order (cosine: the
/// dot product and both squared norms, then 1 - dot / (sqrt(|a|²) · sqrt(|b|²))). Every backend's reported
/// weights equal this bit for bit. O(D).
double metricDistance(const float* a, const float* b, std::size_t d, Metric metric);

}  // namespace clusterlens
