// The reference dissimilarities of VAT/iVAT. Every backend reports weights equal to these bit for bit,
// so the arithmetic here (double sums in feature order, no contraction: the engine builds with
// -ffp-contract=off) is the contract, not an implementation detail.

#include "clusterlens/vat/metric.hpp"

#include <cmath>

#include "clusterlens/errors.hpp"

namespace clusterlens {

Metric parseMetric(const std::string& text) {
    if (text == "euclidean") return Metric::Euclidean;
    if (text == "sqeuclidean") return Metric::SqEuclidean;
    if (text == "manhattan") return Metric::Manhattan;
    if (text == "cosine") return Metric::Cosine;
    throw InvalidInput("--metric: unknown metric '" + text +
                       "' (expected euclidean, sqeuclidean, manhattan or cosine)");
}

const char* metricName(Metric metric) {
    switch (metric) {
        case Metric::Euclidean:
            return "euclidean";
        case Metric::SqEuclidean:
            return "sqeuclidean";
        case Metric::Manhattan:
            return "manhattan";
        case Metric::Cosine:
            return "cosine";
    }
    return "euclidean";
}

double metricDistance(const float* a, const float* b, std::size_t d, Metric metric) {
    switch (metric) {
        case Metric::Euclidean:
        case Metric::SqEuclidean: {
            double sum = 0.0;
            for (std::size_t j = 0; j < d; ++j) {
                const double diff = static_cast<double>(a[j]) - static_cast<double>(b[j]);
                sum += diff * diff;
            }
            return metric == Metric::Euclidean ? std::sqrt(sum) : sum;
        }
        case Metric::Manhattan: {
            double sum = 0.0;
            for (std::size_t j = 0; j < d; ++j) sum += std::fabs(static_cast<double>(a[j]) - static_cast<double>(b[j]));
            return sum;
        }
        case Metric::Cosine: {
            double dot = 0.0, na = 0.0, nb = 0.0;
            for (std::size_t j = 0; j < d; ++j) {
                const double aj = static_cast<double>(a[j]);
                const double bj = static_cast<double>(b[j]);
                dot += aj * bj;
                na += aj * aj;
                nb += bj * bj;
            }
            return 1.0 - dot / (std::sqrt(na) * std::sqrt(nb));
        }
    }
    return 0.0;
}

}  // namespace clusterlens
