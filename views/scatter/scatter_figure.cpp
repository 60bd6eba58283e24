#include "scatter/scatter_figure.hpp"

#include <QCoreApplication>
#include <QImage>
#include <QLocale>
#include <QPaintDevice>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "palette.hpp"
#include "scatter/view_window.hpp"

namespace clusterlens::views {

namespace {

constexpr double kVectorImageScale = 3.0;  // image pixels per point in PDF and SVG
constexpr int kScatterMaxImageSide = 6000;
constexpr int kDensityLevels = 64;  // colour groups of vector points in density mode

QString trScatterFigure(const char* text) {
    return QCoreApplication::translate("ScatterFigure", text);
}

/// Offsets of the pixels of a disc of `radius` pixels (at least the centre pixel).
std::vector<std::pair<int, int>> discOffsets(double radius) {
    std::vector<std::pair<int, int>> offsets;
    const int r = static_cast<int>(std::ceil(radius));
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx)
            if (dx * dx + dy * dy <= radius * radius + 0.25) offsets.emplace_back(dx, dy);
    if (offsets.empty()) offsets.emplace_back(0, 0);
    return offsets;
}

/// "arcsinh/5", "z-score": the transforms among the dataset's provenance steps.
QStringList transformNames(const Dataset& dataset) {
    QStringList names;
    for (const std::string& step : dataset.provenance.steps) {
        const QString text = QString::fromStdString(step);
        if (text.startsWith(QLatin1String("asinh(cofactor="))) {
            names << QStringLiteral("arcsinh/") + text.mid(15).chopped(1);
        } else if (text == QLatin1String("zscore")) {
            names << QStringLiteral("z-score");
        }
    }
    return names;
}

}  // namespace

QString markerAxisTitle(const Dataset& dataset, const ScatterAxes& axes, bool vertical) {
    if (axes.embedding >= 0) return axisName(dataset, axes, vertical);
    const std::size_t column = vertical ? axes.y : axes.x;
    QString marker = axisName(dataset, axes, vertical);
    if (column < dataset.descriptions.size() && !dataset.descriptions[column].empty())
        marker = QString::fromStdString(dataset.descriptions[column]);
    const QStringList transforms = transformNames(dataset);
    return transforms.isEmpty() ? marker : QStringLiteral("%1 (%2)").arg(marker, transforms.join(QStringLiteral(", ")));
}

std::vector<QString> datasetLabelNames(const Dataset& dataset) {
    std::vector<QString> names;
    for (const std::string& name : dataset.labelNames) names.push_back(QString::fromStdString(name));
    return names;
}

QString datasetLabelingName(const Dataset& dataset) {
    const QString source = QString::fromStdString(dataset.labelSource);
    return source.isEmpty() || source.contains(QLatin1Char(' ')) ? trScatterFigure("class") : source;
}

ScatterFigure::ScatterFigure(std::shared_ptr<const ScatterData> data, ScatterFigureOptions options)
    : m_data(std::move(data)), m_options(std::move(options)) {
    if (m_options.window && m_options.window->width() > 0 && m_options.window->height() > 0) {
        m_window = *m_options.window;
    } else {
        const double pad = ViewWindow::resetPadding;
        m_window = QRectF(-pad, -pad, 1 + 2 * pad, 1 + 2 * pad);
    }
    for (std::size_t k = 0; k < m_data->pointCount; ++k) {
        const float u = m_data->positions[2 * k], v = m_data->positions[2 * k + 1];
        m_visible += u >= m_window.left() && u <= m_window.right() && v >= m_window.top() && v <= m_window.bottom();
    }
    for (int label : m_data->labelValues) m_labelCount = std::max(m_labelCount, label + 1);
}

QString ScatterFigure::ownTitle() const {
    return m_options.title.isEmpty() ? trScatterFigure("%1 vs %2").arg(yAxis().title, xAxis().title) : m_options.title;
}

QString ScatterFigure::labelName(int label) const {
    const auto at = static_cast<std::size_t>(label);
    if (label >= 0 && at < m_options.labelNames.size() && !m_options.labelNames[at].isEmpty())
        return m_options.labelNames[at];
    return views::labelName(*m_data, label);  // the labeling's own names (populations), else "cluster k"
}

QColor ScatterFigure::labelColour(int label) const {
    // Colours the user gave a labeling's labels (populations) stay; the others follow the palette.
    const LabelStyle* own = m_data->labelStyle.get();
    if (own && label >= 0 && static_cast<std::size_t>(label) < own->colours.size() &&
        own->colours[static_cast<std::size_t>(label)].isValid())
        return own->colours[static_cast<std::size_t>(label)];
    return labelColor(label, m_labelCount);
}

QString ScatterFigure::subtitle() const {
    const QLocale locale;
    QString text = trScatterFigure("N = %1").arg(locale.toString(static_cast<qulonglong>(m_data->pointCount)));
    if (m_visible < m_data->pointCount)
        text += trScatterFigure(" (%1 in view)").arg(locale.toString(static_cast<qulonglong>(m_visible)));
    if (m_data->mode == ColourMode::Labels && !m_options.colouring.isEmpty())
        text += trScatterFigure(" \u00b7 coloured by %1").arg(m_options.colouring);
    if (m_data->mode == ColourMode::Marker)
        text += trScatterFigure(" \u00b7 coloured by %1, 1st\u201399th percentile").arg(m_data->markerTitle);
    if (m_options.clusterShapes && m_data->mode == ColourMode::Labels)
        text += trScatterFigure(" \u00b7 ellipses: 95 % of each cluster (its covariance)");
    return text;
}

AxisSpec ScatterFigure::xAxis() const {
    return {m_data->toDataX(m_window.left()), m_data->toDataX(m_window.right()), m_data->xLog,
            FigureStyle::pick(style().xLabel, FigureStyle::pick(m_options.xTitle, m_data->xName))};
}

AxisSpec ScatterFigure::yAxis() const {
    return {m_data->toDataY(m_window.top()), m_data->toDataY(m_window.bottom()), m_data->yLog,
            FigureStyle::pick(style().yLabel, FigureStyle::pick(m_options.yTitle, m_data->yName))};
}

FigureLegend ScatterFigure::legend() const {
    FigureLegend legend;
    if (m_data->mode == ColourMode::Density) {
        legend.heading = trScatterFigure("point density");
        legend.colourBar = [](double t) { return Palette::colormap(t); };
        legend.barLow = trScatterFigure("low");
        legend.barHigh = trScatterFigure("high");
        return legend;
    }
    if (m_data->mode == ColourMode::Marker) {
        const double step = (m_data->markerHigh - m_data->markerLow) / 4.0;
        legend.heading = m_data->markerTitle;
        legend.colourBar = [](double t) { return Palette::colormap(t); };
        legend.barLow = formatTick(m_data->markerLow, step);
        legend.barHigh = formatTick(m_data->markerHigh, step);
        return legend;
    }
    for (int label : m_data->labelValues)
        legend.items.push_back({labelColour(label), labelName(label), LegendSwatch::Dot});
    return legend;
}

bool ScatterFigure::continuous() const {
    return m_data->mode != ColourMode::Labels;
}

QRectF ScatterFigure::plotRect(const QRectF& area) const {
    return layoutXY(area, axesFonts(), title(), subtitle(), xAxis(), yAxis(), legend(), legendPosition()).plot;
}

QColor ScatterFigure::colourOf(std::size_t k) const {
    const float value = m_data->values[k];
    if (continuous()) return Palette::colormap(value);
    return labelColour(static_cast<int>(value));
}

double ScatterFigure::pointRadius() const {
    return m_visible <= 2'000 ? 2.6 : m_visible <= 20'000 ? 1.7 : m_visible <= 200'000 ? 1.1 : 0.8;
}

void ScatterFigure::paint(QPainter& painter, const QRectF& area) const {
    painter.save();
    paintBackground(painter, area);
    const AxesFonts fonts = axesFonts();
    const AxisSpec x = xAxis(), y = yAxis();
    const FigureLegend key = legend();
    const XYLayout parts = layoutXY(area, fonts, title(), subtitle(), x, y, key, legendPosition());
    paintTitleBlock(painter, parts.title, fonts, title(), subtitle());
    paintAxes(painter, parts.plot, x, y, fonts);
    painter.save();
    painter.setClipRect(parts.plot);
    if (drawsImage())
        paintPointImage(painter, parts.plot);
    else
        paintVectorPoints(painter, parts.plot);
    if (m_options.clusterShapes) paintShapes(painter, parts.plot);
    painter.restore();
    paintFrame(painter, parts.plot);
    key.paint(painter, parts.legend, fonts.text, legendPosition());
    painter.restore();
}

void ScatterFigure::paintVectorPoints(QPainter& painter, const QRectF& plot) const {
    // One path per colour keeps a vector file compact; groups are drawn in the order their last
    // point comes in the draw order, so the densest stay on top as on screen.
    struct Group {
        QPainterPath path;
        std::size_t last = 0;
        QColor colour;
    };
    std::map<int, Group> groups;
    const double radius = pointRadius();
    for (std::size_t k = 0; k < m_data->pointCount; ++k) {
        const double u = m_data->positions[2 * k], v = m_data->positions[2 * k + 1];
        if (!m_window.contains(u, v)) continue;
        const int key = continuous() ? static_cast<int>(std::lround(m_data->values[k] * (kDensityLevels - 1)))
                                     : static_cast<int>(m_data->values[k]);
        Group& g = groups[key];
        if (g.path.isEmpty()) {
            g.path.setFillRule(Qt::WindingFill);
            g.colour = continuous() ? Palette::colormap(key / double(kDensityLevels - 1)) : colourOf(k);
        }
        g.path.addEllipse(QPointF(plot.left() + (u - m_window.left()) / m_window.width() * plot.width(),
                                  plot.bottom() - (v - m_window.top()) / m_window.height() * plot.height()),
                          radius, radius);
        g.last = k;
    }
    std::vector<const Group*> order;
    for (const auto& [key, g] : groups) order.push_back(&g);
    std::sort(order.begin(), order.end(), [](const Group* a, const Group* b) { return a->last < b->last; });
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(Qt::NoPen);
    for (const Group* g : order) {
        painter.setBrush(g->colour);
        painter.drawPath(g->path);
    }
}

void ScatterFigure::paintShapes(QPainter& painter, const QRectF& plot) const {
    if (m_data->mode != ColourMode::Labels) return;
    const auto map = [&](double u, double v) {
        return QPointF(plot.left() + (u - m_window.left()) / m_window.width() * plot.width(),
                       plot.bottom() - (v - m_window.top()) / m_window.height() * plot.height());
    };
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setBrush(Qt::NoBrush);
    for (const ClusterShape& shape : m_data->shapes) {
        QPainterPath outline;  // one vector element per ellipse
        outline.addPolygon(shapeOutline(shape, map));
        painter.setPen(QPen(QColor(255, 255, 255, 220), 3.6));
        painter.drawPath(outline);
        painter.setPen(QPen(labelColour(shape.label).darker(125), 1.8));
        painter.drawPath(outline);
    }
}

void ScatterFigure::paintPointImage(QPainter& painter, const QRectF& plot) const {
    const bool raster = painter.device() && painter.device()->devType() == QInternal::Image;
    const QRectF device = painter.deviceTransform().mapRect(plot);
    const double scale = raster ? 1.0 : kVectorImageScale;
    const int w = std::clamp(static_cast<int>(std::lround(device.width() * scale)), 16, kScatterMaxImageSide);
    const int h = std::clamp(static_cast<int>(std::lround(device.height() * scale)), 16, kScatterMaxImageSide);
    QImage image(w, h, QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    const auto disc = discOffsets(std::max(0.5, pointRadius() * w / plot.width()));
    // Colours looked up once: 256 density levels, or one per label.
    std::array<QRgb, 256> ramp{};
    for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = Palette::colormap(i / 255.0).rgba();
    std::map<int, QRgb> labels;
    for (int label : m_data->labelValues) labels[label] = labelColour(label).rgba();
    for (std::size_t k = 0; k < m_data->pointCount; ++k) {
        const double u = m_data->positions[2 * k], v = m_data->positions[2 * k + 1];
        if (!m_window.contains(u, v)) continue;
        const int px = static_cast<int>((u - m_window.left()) / m_window.width() * w);
        const int py = static_cast<int>((m_window.bottom() - v) / m_window.height() * h);
        const float value = m_data->values[k];
        const QRgb colour = continuous() ? ramp[static_cast<std::size_t>(std::clamp(value, 0.0f, 1.0f) * 255.0f)]
                                         : labels[static_cast<int>(value)];
        for (const auto& [dx, dy] : disc) {
            const int x = px + dx, y = py + dy;
            if (x >= 0 && x < w && y >= 0 && y < h) reinterpret_cast<QRgb*>(image.scanLine(y))[x] = colour;
        }
    }
    painter.setRenderHint(QPainter::SmoothPixmapTransform, !raster);
    painter.drawImage(plot, image);
}

}  // namespace clusterlens::views
