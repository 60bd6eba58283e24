#include "compare/heights_comparison.hpp"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "clusterlens/compare/correlation.hpp"
#include "clusterlens/compare/height_discordance.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/point_heights.hpp"

namespace clusterlens::views {

namespace {

QString trHeightsComparison(const char* text) {
    return QCoreApplication::translate("HeightsComparison", text);
}

QString coefficient(double value) {
    return std::isfinite(value) ? QString::number(value, 'f', 3) : trHeightsComparison("n/a");
}

}  // namespace

HeightsComparison compareHeights(const Linkage& a, const Linkage& b, const QString& nameA, const QString& nameB,
                                 JobControl* control) {
    if (a.leafCount != b.leafCount)
        throw InvalidInput(nameB.toStdString() + " clusters " + std::to_string(b.leafCount) + " points but " +
                           nameA.toStdString() + " clusters " + std::to_string(a.leafCount) +
                           ": point heights compare two clusterings of the same points.");
    HeightsComparison out;
    out.nameA = nameA;
    out.nameB = nameB;
    out.heightsA = pointHeights(a);
    if (control) {
        control->checkCancelled();
        control->setProgress(0.2);
    }
    out.heightsB = pointHeights(b);
    if (control) {
        control->checkCancelled();
        control->setProgress(0.4);
    }
    out.pearson = out.pointCount() >= 2 ? pearsonCorrelation(out.heightsA, out.heightsB) : std::nan("");
    if (control) control->checkCancelled();
    out.spearman = out.pointCount() >= 2 ? spearmanCorrelation(out.heightsA, out.heightsB) : std::nan("");
    if (control) control->checkCancelled();
    out.rankDifference = heightRankDifference(out.heightsA, out.heightsB);
    if (control) control->setProgress(0.7);
    return out;
}

std::size_t HeightsComparison::discordantCount() const {
    return static_cast<std::size_t>(
        std::count_if(rankDifference.begin(), rankDifference.end(), [](double d) { return d != 0.0; }));
}

HeightsRange heightsRange(const HeightsComparison& comparison, bool equalAxes) {
    const auto finiteRange = [](const std::vector<double>& v, double& lo, double& hi) {
        lo = std::numeric_limits<double>::infinity();
        hi = -lo;
        for (double x : v)
            if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
        if (!(lo <= hi)) lo = 0.0, hi = 1.0;
        if (hi - lo <= 1e-12 * std::max(1.0, std::abs(lo))) {
            const double pad = std::max(0.5, std::abs(lo) * 0.05);
            lo -= pad;
            hi += pad;
        }
    };
    HeightsRange r;
    finiteRange(comparison.heightsA, r.xMin, r.xMax);
    finiteRange(comparison.heightsB, r.yMin, r.yMax);
    if (equalAxes) {
        r.xMin = r.yMin = std::min(r.xMin, r.yMin);
        r.xMax = r.yMax = std::max(r.xMax, r.yMax);
    }
    return r;
}

QString heightsColourId(HeightsColour colour) {
    return colour == HeightsColour::RankDifference ? QStringLiteral("rank-difference") : QStringLiteral("density");
}

namespace {

QString discordanceTitle() {
    return trHeightsComparison("|rank in A \u2212 rank in B|");
}

/// The two heights per point, and with `discordance` |rank difference| as a third feature: the
/// dataset the scatter preparation (and the marker scale) works on.
std::shared_ptr<Dataset> heightsDataset(const HeightsComparison& comparison, bool discordance) {
    auto points = std::make_shared<Dataset>();
    const std::size_t n = comparison.pointCount(), d = discordance ? 3 : 2;
    points->n = n;
    points->d = d;
    points->features = {heightsAxisTitle(comparison.nameA, false).toStdString(),
                        heightsAxisTitle(comparison.nameB, true).toStdString()};
    if (discordance) points->features.push_back(discordanceTitle().toStdString());
    points->values.resize(d * n);
    for (std::size_t i = 0; i < n; ++i) {
        points->values[d * i] = static_cast<float>(comparison.heightsA[i]);
        points->values[d * i + 1] = static_cast<float>(comparison.heightsB[i]);
        if (discordance) points->values[d * i + 2] = static_cast<float>(std::fabs(comparison.rankDifference[i]));
    }
    return points;
}

}  // namespace

MarkerScale discordanceScale(const HeightsComparison& comparison) {
    return markerScale(*heightsDataset(comparison, true), 2);
}

QString heightsAxisTitle(const QString& name, bool vertical) {
    return (vertical ? trHeightsComparison("point height in B: %1") : trHeightsComparison("point height in A: %1"))
        .arg(name);
}

ScatterData heightsScatter(const HeightsComparison& comparison, bool equalAxes, HeightsColour colour,
                           JobControl* control) {
    const bool discordance = colour == HeightsColour::RankDifference;
    ScatterRequest request{heightsDataset(comparison, discordance), {}, ColourMode::Density, nullptr};
    if (discordance) {
        request.mode = ColourMode::Marker;
        request.marker = 2;
    }
    ScatterData data = prepareScatter(request, control);

    // prepareScatter normalises each axis to its own range; move the points into the plot range.
    const HeightsRange r = heightsRange(comparison, equalAxes);
    const double sx = (data.xMax - data.xMin) / (r.xMax - r.xMin), ox = (data.xMin - r.xMin) / (r.xMax - r.xMin);
    const double sy = (data.yMax - data.yMin) / (r.yMax - r.yMin), oy = (data.yMin - r.yMin) / (r.yMax - r.yMin);
    for (std::size_t slot = 0; slot < data.pointCount; ++slot) {
        data.positions[2 * slot] = static_cast<float>(data.positions[2 * slot] * sx + ox);
        data.positions[2 * slot + 1] = static_cast<float>(data.positions[2 * slot + 1] * sy + oy);
    }
    data.xMin = r.xMin, data.xMax = r.xMax, data.yMin = r.yMin, data.yMax = r.yMax;
    return data;
}

QString correlationText(const HeightsComparison& comparison) {
    return trHeightsComparison("Pearson r = %1 \u00b7 Spearman \u03c1 = %2")
        .arg(coefficient(comparison.pearson), coefficient(comparison.spearman));
}

}  // namespace clusterlens::views
