#include "charts/chart_data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "palette.hpp"

namespace clusterlens::views {

BarChartData clusterSizeBars(const DendrogramLayout& layout, const DendrogramCut& cut, std::size_t maxBars) {
    BarChartData bars;
    int small = 0;
    for (std::size_t id = 0; id < cut.roots.size(); ++id) {
        if (bars.values.size() == maxBars) {
            bars.omitted = cut.roots.size() - id;
            break;
        }
        const int number = cut.colourOf(static_cast<int>(id));
        // Category names must be unique: a category axis merges equal ones.
        bars.categories << (number >= 0 ? QString::number(number) : QStringLiteral("s%1").arg(++small));
        bars.values.push_back(layout.size[static_cast<std::size_t>(cut.roots[id])]);
        bars.colours.push_back(Palette::labelColor(number));
    }
    return bars;
}

MergeProfile mergeHeightProfile(const DendrogramLayout& layout, int currentClusters, int maxClusters) {
    MergeProfile profile;
    profile.current = currentClusters;
    const int last = std::min(maxClusters, static_cast<int>(layout.cutOrder.size()));
    for (int c = 1; c <= last; ++c) {
        const auto row = static_cast<std::size_t>(layout.cutOrder[static_cast<std::size_t>(c - 1)]);
        profile.points.emplace_back(c, layout.subtreeMax[row]);
    }
    return profile;
}

HistogramData markerHistograms(const Dataset& data, std::size_t column, const std::vector<ChartPopulation>& populations,
                               int bins) {
    HistogramData histogram;
    if (column >= data.d || bins < 1) return histogram;
    histogram.marker = QString::fromStdString(data.features[column]);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t i = 0; i < data.n; ++i) {
        const double v = data.at(i, column);
        if (!std::isfinite(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (!(hi >= lo)) return histogram;
    if (hi == lo) hi = lo + 1.0;
    histogram.low = lo;
    histogram.bins = bins;
    histogram.width = (hi - lo) / bins;
    for (const ChartPopulation& population : populations) {
        HistogramData::Series series{population.name, population.colour, 0,
                                     std::vector<double>(static_cast<std::size_t>(bins), 0.0)};
        for (const std::int64_t index : population.members ? *population.members : std::vector<std::int64_t>()) {
            if (index < 0 || static_cast<std::size_t>(index) >= data.n) continue;
            const double v = data.at(static_cast<std::size_t>(index), column);
            if (!std::isfinite(v)) continue;
            const int bin = std::clamp(static_cast<int>((v - lo) / histogram.width), 0, bins - 1);
            series.fractions[static_cast<std::size_t>(bin)] += 1.0;
            ++series.count;
        }
        if (series.count > 0)
            for (double& f : series.fractions) f /= static_cast<double>(series.count);
        histogram.series.push_back(std::move(series));
    }
    return histogram;
}

}  // namespace clusterlens::views
