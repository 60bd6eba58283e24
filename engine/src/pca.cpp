#include "clusterlens/pca.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "clusterlens/errors.hpp"
#include "cpu/symmetric_eigen.hpp"
#include "cpu/thread_pool.hpp"
#include "io/cancel_points.hpp"

namespace clusterlens {
namespace {

/// Lower triangle (k <= j) of the sample covariance, d x d row-major, divisor n - 1. Rows are centred
/// in blocks; each thread owns a range of covariance rows. O(n d^2 / 2) flops, memory d^2 + 256 d.
std::vector<double> covariance(const std::vector<double>& x, std::size_t n, std::size_t d,
                               const std::vector<double>& mean, cpu::ThreadPool& pool, const JobControl* control) {
    constexpr std::size_t kBlock = 256;
    std::vector<double> c(d * d, 0.0), block(kBlock * d);
    for (std::size_t start = 0; start < n; start += kBlock) {
        const std::size_t rows = std::min(kBlock, n - start);
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t j = 0; j < d; ++j) block[r * d + j] = x[(start + r) * d + j] - mean[j];
        cpu::parallelFor(pool, d, 8, [&](std::size_t begin, std::size_t end) {
            for (std::size_t j = begin; j < end; ++j) {
                // At most 256 * d multiply-adds between two looks, whatever d.
                if (control != nullptr) control->checkCancelled();
                double* cj = &c[j * d];
                for (std::size_t r = 0; r < rows; ++r) {
                    const double* row = &block[r * d];
                    const double xj = row[j];
                    if (xj == 0.0) continue;
                    for (std::size_t k = 0; k <= j; ++k) cj[k] += xj * row[k];
                }
            }
        });
    }
    for (double& value : c) value /= static_cast<double>(n - 1);
    return c;
}

/// svd_flip(u_based_decision=False): the largest |entry| of each component positive.
void flipSigns(std::vector<double>& components, std::size_t k, std::size_t d) {
    for (std::size_t c = 0; c < k; ++c) {
        double* v = &components[c * d];
        const std::size_t largest = static_cast<std::size_t>(
            std::max_element(v, v + d, [](double a, double b) { return std::abs(a) < std::abs(b); }) - v);
        if (v[largest] < 0)
            for (std::size_t j = 0; j < d; ++j) v[j] = -v[j];
    }
}

void checkPcaInput(const Dataset& in, std::size_t k) {
    if (in.n < 2) throw InvalidInput("pca: needs at least 2 points, got " + std::to_string(in.n));
    if (k == 0 || k > in.d)
        throw InvalidInput("pca: the number of components must lie in 1.." + std::to_string(in.d) + " (D), got " +
                           std::to_string(k));
    if (in.d > kPcaMaxFeatures)
        throw InvalidInput("pca: " + std::to_string(in.d) + " features; exact PCA takes at most " +
                           std::to_string(kPcaMaxFeatures) +
                           " (memory 3 d^2 doubles): select features with --columns first");
    if (in.countNonFinite() != 0) throw NonFiniteInput("pca: the data holds NaN or infinite values");
}

}  // namespace

PcaResult computePca(const Dataset& in, std::size_t k, const JobControl* control) {
    checkPcaInput(in, k);
    const std::size_t n = in.n, d = in.d;
    const std::vector<double> x = in.valuesAsDouble();
    PcaResult result;
    result.k = k;
    result.d = d;
    result.mean.assign(d, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        detail::cancelPoint(control, i);
        for (std::size_t j = 0; j < d; ++j) result.mean[j] += x[i * d + j];
    }
    for (double& m : result.mean) m /= static_cast<double>(n);
    cpu::ThreadPool pool;
    std::vector<double> c = covariance(x, n, d, result.mean, pool, control);
    for (std::size_t j = 0; j < d; ++j) result.totalVariance += c[j * d + j];
    const cpu::SymmetricEigen eigen = cpu::symmetricEigen(std::move(c), d);
    result.components.assign(eigen.vectors.begin(), eigen.vectors.begin() + static_cast<std::ptrdiff_t>(k * d));
    flipSigns(result.components, k, d);
    for (std::size_t c2 = 0; c2 < k; ++c2) result.explainedVariance.push_back(std::max(0.0, eigen.values[c2]));
    return result;
}

Dataset pcaTransform(const Dataset& in, std::size_t k, const JobControl* control) {
    const PcaResult pca = computePca(in, k, control);
    const std::vector<double> x = in.valuesAsDouble();
    Dataset out;
    out.n = in.n;
    out.d = k;
    std::vector<double> scores(in.n * k, 0.0);
    cpu::ThreadPool pool;
    cpu::parallelFor(pool, in.n, 256, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            detail::cancelPoint(control, i);
            for (std::size_t c = 0; c < k; ++c) {
                double sum = 0.0;
                for (std::size_t j = 0; j < in.d; ++j)
                    sum += (x[i * in.d + j] - pca.mean[j]) * pca.components[c * in.d + j];
                scores[i * k + c] = sum;
            }
        }
    });
    out.values.assign(scores.begin(), scores.end());
    if (in.exact.size() == in.values.size() && !in.exact.empty()) out.exact = std::move(scores);
    for (std::size_t c = 0; c < k; ++c) out.features.push_back("PC" + std::to_string(c + 1));
    out.pointNames = in.pointNames;
    out.labels = in.labels;
    out.labelNames = in.labelNames;
    out.labelSource = in.labelSource;
    out.embeddings = in.embeddings;
    out.annotations = in.annotations;
    out.provenance = in.provenance;
    out.warnings = in.warnings;
    double explained = 0.0;
    for (double v : pca.explainedVariance) explained += v;
    char step[96];
    std::snprintf(step, sizeof step, "pca(k=%zu, %.1f%% of variance)", k,
                  pca.totalVariance > 0 ? 100.0 * explained / pca.totalVariance : 0.0);
    out.provenance.steps.emplace_back(step);
    return out;
}

}  // namespace clusterlens
