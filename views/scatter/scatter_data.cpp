#include "scatter/scatter_data.hpp"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <limits>

#include "clusterlens/errors.hpp"
#include "marker_scale.hpp"
#include "palette.hpp"

namespace clusterlens::views {

namespace {

constexpr std::size_t kPollEvery = std::size_t{1} << 16;
constexpr int kOrderLevels = 1024;

/// Strided view of the two plotted coordinates, so features and embeddings read alike.
struct Coordinates {
    const float* base = nullptr;
    std::size_t stride = 0;
    std::size_t x = 0;
    std::size_t y = 0;
    std::size_t n = 0;
    float xAt(std::size_t i) const { return base[i * stride + x]; }
    float yAt(std::size_t i) const { return base[i * stride + y]; }
};

Coordinates coordinatesOf(const Dataset& dataset, const ScatterAxes& axes) {
    if (!axesValid(dataset, axes)) throw InvalidInput("The chosen scatter axes do not exist in this dataset.");
    if (axes.embedding < 0) return {dataset.values.data(), dataset.d, axes.x, axes.y, dataset.n};
    const Embedding& e = dataset.embeddings[static_cast<std::size_t>(axes.embedding)];
    return {e.values.data(), e.d, axes.x, axes.y, e.n};
}

void poll(JobControl* control, std::size_t i, std::size_t n, double start, double span) {
    if (control == nullptr || i % kPollEvery != 0) return;
    control->checkCancelled();
    control->setProgress(start + span * static_cast<double>(i) / static_cast<double>(std::max<std::size_t>(n, 1)));
}

/// Rows with finite coordinates, and the range they span (widened when degenerate).
std::vector<std::uint32_t> finiteRows(const Coordinates& c, ScatterData& out, JobControl* control) {
    std::vector<std::uint32_t> rows;
    rows.reserve(c.n);
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (std::size_t i = 0; i < c.n; ++i) {
        poll(control, i, c.n, 0.0, 0.3);
        const float x = c.xAt(i), y = c.yAt(i);
        if (!std::isfinite(x) || !std::isfinite(y)) continue;
        rows.push_back(static_cast<std::uint32_t>(i));
        x0 = std::min(x0, double(x));
        x1 = std::max(x1, double(x));
        y0 = std::min(y0, double(y));
        y1 = std::max(y1, double(y));
    }
    if (rows.empty()) x0 = y0 = 0.0, x1 = y1 = 1.0;
    const auto widen = [](double& lo, double& hi) {
        if (hi - lo > 1e-12 * std::max(1.0, std::abs(lo))) return;
        const double pad = std::max(0.5, std::abs(lo) * 0.05);
        lo -= pad;
        hi += pad;
    };
    widen(x0, x1);
    widen(y0, y1);
    out.xMin = x0, out.xMax = x1, out.yMin = y0, out.yMax = y1;
    return rows;
}

int binOf(float u, int bins) {
    return std::clamp(static_cast<int>(u * static_cast<float>(bins)), 0, bins - 1);
}

/// One pass of the [1 2 1]/4 kernel along x and one along y, edges clamped.
void smooth(std::vector<double>& h, int bins) {
    std::vector<double> tmp(h.size());
    const auto at = [bins](int i) { return std::clamp(i, 0, bins - 1); };
    for (int y = 0; y < bins; ++y)
        for (int x = 0; x < bins; ++x)
            tmp[y * bins + x] = 0.25 * h[y * bins + at(x - 1)] + 0.5 * h[y * bins + x] + 0.25 * h[y * bins + at(x + 1)];
    for (int y = 0; y < bins; ++y)
        for (int x = 0; x < bins; ++x)
            h[y * bins + x] =
                0.25 * tmp[at(y - 1) * bins + x] + 0.5 * tmp[y * bins + x] + 0.25 * tmp[at(y + 1) * bins + x];
}

/// Per-point density in [0,1]: log of the smoothed 2-D histogram count of the point's bin,
/// relative to the densest bin. The grid grows with sqrt(N) so small datasets still show structure.
std::vector<float> densities(const std::vector<float>& positions, std::size_t count, int& binsOut,
                             JobControl* control) {
    const int bins = std::clamp(static_cast<int>(std::sqrt(static_cast<double>(count)) / 2.0), 16, 256);
    binsOut = bins;
    std::vector<double> hist(static_cast<std::size_t>(bins) * bins, 0.0);
    for (std::size_t i = 0; i < count; ++i) {
        poll(control, i, count, 0.45, 0.2);
        hist[binOf(positions[2 * i + 1], bins) * bins + binOf(positions[2 * i], bins)] += 1.0;
    }
    smooth(hist, bins);
    const double peak = std::max(*std::max_element(hist.begin(), hist.end()), 1e-12);
    const double scale = 1.0 / std::log1p(peak);
    // Bilinear between bin centres, so the colours vary smoothly instead of in bin-sized blocks.
    const auto cell = [bins](float u, int& lo, double& t) {
        const double f = std::clamp(static_cast<double>(u) * bins - 0.5, 0.0, bins - 1.0);
        lo = std::min(static_cast<int>(f), bins - 2);
        t = f - lo;
    };
    std::vector<float> out(count);
    for (std::size_t i = 0; i < count; ++i) {
        poll(control, i, count, 0.65, 0.15);
        int x = 0, y = 0;
        double tx = 0.0, ty = 0.0;
        cell(positions[2 * i], x, tx);
        cell(positions[2 * i + 1], y, ty);
        const double* row0 = &hist[static_cast<std::size_t>(y * bins + x)];
        const double* row1 = row0 + bins;
        const double d = (1 - ty) * ((1 - tx) * row0[0] + tx * row0[1]) + ty * ((1 - tx) * row1[0] + tx * row1[1]);
        out[i] = static_cast<float>(std::log1p(d) * scale);
    }
    return out;
}

/// Stable counting sort of point slots by a key in [0, levels): O(N + levels).
std::vector<std::uint32_t> orderByKey(const std::vector<int>& keys, int levels) {
    std::vector<std::size_t> start(static_cast<std::size_t>(levels) + 1, 0);
    for (int k : keys) ++start[static_cast<std::size_t>(k) + 1];
    for (std::size_t l = 1; l < start.size(); ++l) start[l] += start[l - 1];
    std::vector<std::uint32_t> order(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        order[start[static_cast<std::size_t>(keys[i])]++] = static_cast<std::uint32_t>(i);
    return order;
}

/// Distinct labels of the drawn rows, ascending. Labels are small cluster numbers, so a presence
/// table is used rather than sorting N values.
std::vector<int> distinctLabels(const std::vector<std::int32_t>& labels, const std::vector<std::uint32_t>& rows) {
    std::int32_t top = -1;
    for (std::uint32_t r : rows) top = std::max(top, labels[r]);
    std::vector<char> present(static_cast<std::size_t>(top) + 2, 0);  // slot 0 = every negative label
    for (std::uint32_t r : rows) present[static_cast<std::size_t>(std::max(labels[r], -1) + 1)] = 1;
    std::vector<int> out;
    for (std::size_t i = 0; i < present.size(); ++i)
        if (present[i]) out.push_back(static_cast<int>(i) - 1);
    return out;
}

const std::vector<std::int32_t>* labelsFor(const ScatterRequest& request) {
    if (request.labels && request.labels->size() == request.dataset->n) return request.labels.get();
    if (request.labels) throw InvalidInput("The labels to colour by do not match the number of points.");
    return request.dataset->labels.empty() ? nullptr : &request.dataset->labels;
}

}  // namespace

bool axesValid(const Dataset& dataset, const ScatterAxes& axes) {
    if (axes.embedding < 0) return axes.x < dataset.d && axes.y < dataset.d;
    if (static_cast<std::size_t>(axes.embedding) >= dataset.embeddings.size()) return false;
    const Embedding& e = dataset.embeddings[static_cast<std::size_t>(axes.embedding)];
    return e.n == dataset.n && axes.x < e.d && axes.y < e.d && e.values.size() >= e.n * e.d;
}

QString axisName(const Dataset& dataset, const ScatterAxes& axes, bool vertical) {
    if (!axesValid(dataset, axes)) throw InvalidInput("The chosen scatter axes do not exist in this dataset.");
    const std::size_t index = vertical ? axes.y : axes.x;
    if (axes.embedding < 0) return QString::fromStdString(dataset.features[index]);
    const Embedding& e = dataset.embeddings[static_cast<std::size_t>(axes.embedding)];
    return QStringLiteral("%1 %2").arg(QString::fromStdString(e.name)).arg(index + 1);
}

QColor labelColour(const ScatterData& data, int label) {
    const LabelStyle* style = data.labelStyle.get();
    if (style && label >= 0 && static_cast<std::size_t>(label) < style->colours.size())
        return style->colours[static_cast<std::size_t>(label)];
    return Palette::labelColor(label);
}

QString labelName(const ScatterData& data, int label) {
    const LabelStyle* style = data.labelStyle.get();
    if (style && label >= 0 && label < style->names.size()) return style->names[label];
    if (style && label < 0 && !style->unlabelled.isEmpty()) return style->unlabelled;
    return label < 0 ? QObject::tr("noise") : QObject::tr("cluster %1").arg(label);
}

ScatterData prepareScatter(const ScatterRequest& request, JobControl* control) {
    const Dataset& dataset = *request.dataset;
    const Coordinates c = coordinatesOf(dataset, request.axes);
    const std::vector<std::int32_t>* labels = request.mode == ColourMode::Labels ? labelsFor(request) : nullptr;
    const bool marker = request.mode == ColourMode::Marker && request.marker >= 0 &&
                        static_cast<std::size_t>(request.marker) < dataset.d;

    ScatterData out;
    out.datasetSize = dataset.n;
    out.xName = axisName(dataset, request.axes, false);
    out.yName = axisName(dataset, request.axes, true);
    out.mode = labels ? ColourMode::Labels : marker ? ColourMode::Marker : ColourMode::Density;
    const std::vector<std::uint32_t> rows = finiteRows(c, out, control);
    const std::size_t count = rows.size();

    std::vector<float> positions(2 * count);
    const double sx = 1.0 / (out.xMax - out.xMin), sy = 1.0 / (out.yMax - out.yMin);
    for (std::size_t i = 0; i < count; ++i) {
        poll(control, i, count, 0.3, 0.15);
        positions[2 * i] = static_cast<float>((double(c.xAt(rows[i])) - out.xMin) * sx);
        positions[2 * i + 1] = static_cast<float>((double(c.yAt(rows[i])) - out.yMin) * sy);
    }

    std::vector<float> values(count);
    std::vector<int> keys(count);
    int levels = kOrderLevels;
    if (labels) {
        // Noise first, so clustered points are drawn over it.
        for (std::size_t i = 0; i < count; ++i) {
            values[i] = static_cast<float>((*labels)[rows[i]]);
            keys[i] = values[i] < 0.0f ? 0 : 1;
        }
        levels = 2;
        out.labelValues = distinctLabels(*labels, rows);
        out.labelStyle = request.style;
    } else if (marker) {
        // Highest expression last, so the positive events stay visible over the negative ones.
        const MarkerScale scale = markerScale(dataset, static_cast<std::size_t>(request.marker));
        out.markerTitle = scale.title;
        out.markerColumn = request.marker;
        out.markerLow = scale.low;
        out.markerHigh = scale.high;
        for (std::size_t i = 0; i < count; ++i) {
            values[i] = static_cast<float>(scale.normalised(dataset.values[rows[i] * dataset.d + scale.column]));
            keys[i] = std::min(static_cast<int>(values[i] * kOrderLevels), kOrderLevels - 1);
        }
    } else {
        values = densities(positions, count, out.densityBins, control);
        for (std::size_t i = 0; i < count; ++i)
            keys[i] = std::min(static_cast<int>(values[i] * kOrderLevels), kOrderLevels - 1);
    }
    if (control) control->checkCancelled();

    const std::vector<std::uint32_t> order = orderByKey(keys, levels);
    if (labels) out.shapes = clusterShapes(positions, values, count);
    out.pointCount = count;
    out.positions.resize(2 * count);
    out.values.resize(count);
    out.indices.resize(count);
    for (std::size_t slot = 0; slot < count; ++slot) {
        const std::uint32_t i = order[slot];
        out.positions[2 * slot] = positions[2 * i];
        out.positions[2 * slot + 1] = positions[2 * i + 1];
        out.values[slot] = values[i];
        out.indices[slot] = rows[i];
    }
    return out;
}

}  // namespace clusterlens::views
