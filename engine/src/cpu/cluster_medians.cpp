#include "clusterlens/cluster/cluster_medians.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "clusterlens/errors.hpp"

namespace clusterlens {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// numpy's median of `values` (reordered in place); NaN when empty.
double medianOf(std::vector<float>& values) {
    if (values.empty()) return kNaN;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    const double upper = *middle;
    if (values.size() % 2 == 1) return upper;
    const double lower = *std::max_element(values.begin(), middle);
    return 0.5 * (lower + upper);
}

}  // namespace

ClusterMedians clusterMedians(const Dataset& data, std::span<const std::size_t> columns,
                              std::span<const std::int32_t> labels, std::size_t clusterCount, JobControl* control) {
    if (labels.size() != data.n)
        throw InvalidInput("cluster medians: " + std::to_string(labels.size()) + " labels for " +
                           std::to_string(data.n) + " points");
    for (const std::size_t column : columns)
        if (column >= data.d)
            throw InvalidInput("cluster medians: feature " + std::to_string(column) +
                               " is out of range (the data has " + std::to_string(data.d) + ")");
    ClusterMedians result;
    result.clusters = clusterCount;
    result.columns = columns.size();
    result.values.assign(clusterCount * columns.size(), kNaN);
    result.sizes.assign(clusterCount, 0);

    // Points grouped by cluster (a counting sort): cluster c owns members[start[c]..start[c+1]).
    for (const std::int32_t label : labels)
        if (label >= 0 && static_cast<std::size_t>(label) < clusterCount)
            ++result.sizes[static_cast<std::size_t>(label)];
    std::vector<std::size_t> start(clusterCount + 1, 0);
    for (std::size_t c = 0; c < clusterCount; ++c) start[c + 1] = start[c] + static_cast<std::size_t>(result.sizes[c]);
    std::vector<std::size_t> members(start.back());
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < data.n; ++i)
        if (labels[i] >= 0 && static_cast<std::size_t>(labels[i]) < clusterCount)
            members[next[static_cast<std::size_t>(labels[i])]++] = i;

    std::vector<float> buffer;
    for (std::size_t c = 0; c < clusterCount; ++c) {
        if (control) control->checkCancelled();
        for (std::size_t j = 0; j < columns.size(); ++j) {
            buffer.clear();
            for (std::size_t m = start[c]; m < start[c + 1]; ++m) buffer.push_back(data.at(members[m], columns[j]));
            result.values[c * columns.size() + j] = medianOf(buffer);
        }
    }
    return result;
}

std::vector<double> scalePerColumn(std::span<const double> matrix, std::size_t rows, std::size_t columns,
                                   MarkerScaling scaling) {
    if (matrix.size() != rows * columns)
        throw InvalidInput("scalePerColumn: " + std::to_string(matrix.size()) + " values for a " +
                           std::to_string(rows) + " x " + std::to_string(columns) + " matrix");
    std::vector<double> out(matrix.begin(), matrix.end());
    for (std::size_t j = 0; j < columns; ++j) {
        double sum = 0.0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
        std::size_t count = 0;
        for (std::size_t i = 0; i < rows; ++i) {
            const double v = matrix[i * columns + j];
            if (std::isnan(v)) continue;
            sum += v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            ++count;
        }
        if (count == 0) continue;
        const double mean = sum / static_cast<double>(count);
        double squares = 0.0;
        for (std::size_t i = 0; i < rows; ++i) {
            const double v = matrix[i * columns + j];
            if (!std::isnan(v)) squares += (v - mean) * (v - mean);
        }
        const double sd = std::sqrt(squares / static_cast<double>(count));
        for (std::size_t i = 0; i < rows; ++i) {
            double& v = out[i * columns + j];
            if (std::isnan(v)) continue;
            if (scaling == MarkerScaling::ZScore)
                v = sd > 0.0 ? (v - mean) / sd : 0.0;
            else
                v = hi > lo ? (v - lo) / (hi - lo) : 0.5;
        }
    }
    return out;
}

}  // namespace clusterlens
