#include "marker_scale.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "clusterlens/errors.hpp"
#include "palette.hpp"
#include "scatter/scatter_figure.hpp"

namespace clusterlens::views {

namespace {

constexpr double kLowQuantile = 0.01;
constexpr double kHighQuantile = 0.99;

double quantile(std::vector<float>& values, double q) {
    const auto rank = static_cast<std::size_t>(std::lround(q * static_cast<double>(values.size() - 1)));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank), values.end());
    return values[rank];
}

}  // namespace

double MarkerScale::normalised(double value) const {
    if (!std::isfinite(value)) return 0.0;
    return std::clamp((value - low) / (high - low), 0.0, 1.0);
}

QColor MarkerScale::colour(double value) const {
    return Palette::colormap(normalised(value));
}

MarkerScale markerScale(const Dataset& dataset, std::size_t column) {
    if (column >= dataset.d) throw InvalidInput("The marker to colour by is not a feature of the dataset.");
    std::vector<float> finite;
    finite.reserve(dataset.n);
    for (std::size_t i = 0; i < dataset.n; ++i) {
        const float v = dataset.values[i * dataset.d + column];
        if (std::isfinite(v)) finite.push_back(v);
    }
    MarkerScale scale;
    scale.column = column;
    scale.title = markerAxisTitle(dataset, ScatterAxes{-1, column, column}, false);
    if (!finite.empty()) {
        scale.low = quantile(finite, kLowQuantile);
        scale.high = quantile(finite, kHighQuantile);
    }
    if (!(scale.high - scale.low > 1e-12 * std::max(1.0, std::abs(scale.low)))) {
        const double pad = std::max(0.5, std::abs(scale.low) * 0.05);
        scale.high = scale.low + pad;
        scale.low -= pad;
    }
    return scale;
}

std::ptrdiff_t markerColumn(const Dataset& dataset, const QString& name) {
    const std::string key = name.toStdString();
    for (std::size_t j = 0; j < dataset.d; ++j)
        if (dataset.features[j] == key) return static_cast<std::ptrdiff_t>(j);
    for (std::size_t j = 0; j < dataset.descriptions.size() && j < dataset.d; ++j)
        if (dataset.descriptions[j] == key) return static_cast<std::ptrdiff_t>(j);
    return -1;
}

}  // namespace clusterlens::views
