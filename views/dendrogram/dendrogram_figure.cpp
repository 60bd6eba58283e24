#include "dendrogram/dendrogram_figure.hpp"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <cmath>
#include <map>
#include <tuple>
#include <utility>

#include "dendrogram/dendrogram_axes.hpp"
#include "dendrogram/dendrogram_geometry.hpp"
#include "figure/figure_range.hpp"
#include "palette.hpp"

namespace clusterlens::views {

namespace {

constexpr int kMaxLegendRows = 20;
constexpr double kMargin = 10.0;
constexpr double kLineWidth = 0.9;  // points (or logical pixels of a PNG)

// Links grouped by colour and width: one vector path per group keeps an SVG of a large tree small.
void paintLinks(QPainter& painter, const std::vector<GeometrySegment>& links) {
    std::map<std::pair<QRgb, float>, QPainterPath> paths;
    for (const GeometrySegment& s : links) {
        QPainterPath& path = paths[{s.rgb, s.width}];
        path.moveTo(s.a);
        path.lineTo(s.b);
    }
    painter.setBrush(Qt::NoBrush);
    for (const auto& [key, path] : paths) {
        painter.setPen(QPen(QColor::fromRgba(key.first), key.second, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        painter.drawPath(path);
    }
}

void paintRects(QPainter& painter, const std::vector<GeometryRect>& rects) {
    for (const GeometryRect& r : rects) painter.fillRect(r.rect, QColor::fromRgba(r.rgb));
}

}  // namespace

DendrogramFigure::DendrogramFigure(std::shared_ptr<const DendrogramLayout> layout, DendrogramFigureOptions options)
    : m_layout(std::move(layout)), m_options(std::move(options)) {}

FigureLegend DendrogramFigure::legend() const {
    FigureLegend legend;
    if (!m_options.cut || m_options.cut->k < 2) return legend;
    const DendrogramCut& cut = *m_options.cut;
    const QLocale locale;
    legend.heading = QObject::tr("k = %1 clusters").arg(cut.populations);
    legend.maxItems = kMaxLegendRows;
    std::int64_t smallEvents = 0;
    for (int id = 0; id < cut.k; ++id) {
        const auto size = m_layout->size[static_cast<std::size_t>(cut.roots[static_cast<std::size_t>(id)])];
        const int number = cut.colourOf(id);
        if (number < 0) {
            smallEvents += size;
            continue;
        }
        const auto at = static_cast<std::size_t>(number);
        const QString name = at < m_options.clusterNames.size() && !m_options.clusterNames[at].isEmpty()
                                 ? m_options.clusterNames[at]
                                 : QObject::tr("cluster %1").arg(number);
        legend.items.push_back({labelColor(number, cut.populations),
                                QStringLiteral("%1 (%2)").arg(name, locale.toString(static_cast<qlonglong>(size)))});
    }
    // Small clusters share one grey entry after the populations.
    if (cut.k > cut.populations)
        legend.items.push_back(
            {labelColor(-1, cut.populations), QObject::tr("%1 small < %2 (%3)")
                                                  .arg(cut.k - cut.populations)
                                                  .arg(cut.minSize)
                                                  .arg(locale.toString(static_cast<qlonglong>(smallEvents)))});
    return legend;
}

void DendrogramFigure::paint(QPainter& painter, const QRectF& area) const {
    painter.save();
    paintBackground(painter, area);
    const QFont text = font(11), titleFont = font(14, true);
    double top = area.top() + kMargin;
    if (!title().isEmpty()) {
        painter.setFont(titleFont);
        painter.setPen(QColor(0x10, 0x10, 0x10));
        const QFontMetricsF metrics(titleFont);
        painter.drawText(QRectF(area.left(), top, area.width(), metrics.height()), Qt::AlignHCenter | Qt::AlignTop,
                         metrics.elidedText(title(), Qt::ElideMiddle, area.width()));
        top += metrics.height() + 4;
    }
    painter.setFont(text);
    const QFontMetricsF metrics(text);
    // Notes under the title, one line each.
    const auto note = [&](const QColor& colour, const QString& line) {
        painter.setPen(colour);
        painter.drawText(QRectF(area.left(), top, area.width(), metrics.height()), Qt::AlignHCenter | Qt::AlignTop,
                         metrics.elidedText(line, Qt::ElideRight, area.width()));
        top += metrics.height() + 4;
    };
    if (m_layout->inversionCount > 0)
        note(Palette::inversionColor(), inversionText(m_layout->inversionCount) +
                                            QObject::tr(": merges below one of their children, drawn going down"));
    if (m_options.thresholdMarks) note(thresholdMarkColor(), thresholdLegendText(*m_options.thresholdMarks));
    const FigureLegend clusters = legend();
    QRectF legendBox;
    const QRectF rest = reserveLegend(QRectF(QPointF(area.left() + kMargin, top + metrics.height() / 2),
                                             QPointF(area.right() - kMargin, area.bottom() - kMargin)),
                                      clusters, text, legendPosition(), &legendBox);
    const std::size_t stripCount = fittingStripCount(m_options.strips.get(), m_layout->leafCount);
    const double stripsExtent = colourStripsExtent(text, stripCount);
    const double heatmapExtent = m_options.clustermap ? clustermapFigureExtent(*m_options.clustermap, text) : 0.0;
    const QRectF plot(QPointF(rest.left() - kMargin + heightAxisWidth(text), rest.top()),
                      QPointF(rest.right(), rest.bottom() - metrics.height() - 6 - stripsExtent - heatmapExtent));
    if (plot.width() < 20 || plot.height() < 20) {
        painter.restore();
        return;
    }

    const HeightScale scale = HeightScale::forLayout(*m_layout, m_options.logHeights);
    DendrogramView whole;
    whole.reset(*m_layout, scale);
    const bool leaves = m_options.x1 > m_options.x0, heights = m_options.y1 > m_options.y0;
    const DendrogramView view =
        DendrogramView::exact(leaves ? m_options.x0 : whole.x0(), leaves ? m_options.x1 : whole.x1(),
                              heights ? m_options.y0 : whole.y0(), heights ? m_options.y1 : whole.y1());
    GeometryRequest request;
    request.layout = m_layout.get();
    request.cut = m_options.cut.get();
    request.collapsed = m_options.collapsed.size() + 1 == m_layout->leafCount ? &m_options.collapsed : nullptr;
    request.view = view;
    request.scale = scale;
    request.area = plot;
    request.lineWidth = kLineWidth;
    request.minSubtreeWidth = 1.0;
    request.rugHeight = 0.0;
    request.palette = style().palette;
    const DendrogramGeometry geometry = buildDendrogramGeometry(request);

    paintHeightAxis(painter, plot, view, scale,
                    FigureStyle::pick(style().yLabel, m_options.logHeights ? QObject::tr("merge height (log scale)")
                                                                           : QObject::tr("merge height")));
    if (stripCount > 0) {
        const auto& order = m_layout->order;
        paintColourStrips(painter,
                          {QRectF(plot.left(), plot.bottom() + 2, plot.width(), stripsExtent), view.x0(), view.x1(),
                           false, plot.left() - area.left() - 4},
                          *m_options.strips, m_layout->leafCount, m_layout->leafCount,
                          [&order](std::size_t rank) { return static_cast<std::size_t>(order[rank]); });
    }
    paintLeafAxis(painter, plot.adjusted(0, 0, 0, stripsExtent), view, *m_layout, m_options.pointNames.get());
    painter.save();
    painter.setClipRect(plot);
    painter.setRenderHint(QPainter::Antialiasing, true);
    paintRects(painter, geometry.strips);
    for (const CollapsedSubtree& c : geometry.collapsed) {
        const QPointF corners[3] = {c.apex, QPointF(c.left, c.base), QPointF(c.right, c.base)};
        painter.setPen(QPen(QColor::fromRgb(c.rgb), kLineWidth));
        painter.setBrush(QColor::fromRgba((c.rgb & 0x00ffffffu) | 0x99000000u));
        painter.drawPolygon(corners, 3);
    }
    paintLinks(painter, geometry.links);
    paintRects(painter, geometry.marks);
    if (geometry.cutY >= plot.top() && geometry.cutY <= plot.bottom()) {
        painter.setPen(QPen(QColor(0x20, 0x20, 0x20), kLineWidth, Qt::DashLine));
        painter.drawLine(QPointF(plot.left(), geometry.cutY), QPointF(plot.right(), geometry.cutY));
    }
    painter.restore();
    if (m_options.thresholdMarks)
        paintThresholdMarks(painter, *m_options.thresholdMarks, plot, view, scale, kLineWidth);
    if (m_options.clustermap)
        paintClustermapFigure(painter, *m_options.clustermap, view, plot,
                              plot.bottom() + stripsExtent + metrics.height() + 8, area.left() + kMargin, text);
    clusters.paint(painter, legendBox, text, legendPosition());
    painter.restore();
}

QStringList dendrogramViewWords(const DendrogramView& view, bool logHeights) {
    const auto height = [logHeights](double axis) { return logHeights ? std::pow(10.0, axis) : axis; };
    return {QStringLiteral("--leaves"), rangeText(view.x0(), view.x1()), QStringLiteral("--heights"),
            rangeText(height(view.y0()), height(view.y1()))};
}

void showDendrogramPart(DendrogramFigureOptions& options, std::optional<std::pair<double, double>> leaves,
                        std::optional<std::pair<double, double>> heights) {
    options.x0 = options.x1 = options.y0 = options.y1 = 0.0;
    if (leaves) std::tie(options.x0, options.x1) = *leaves;
    if (!heights) return;
    // Not HeightScale::toAxis: its floor would lift a window that starts below the lowest merge.
    const auto axis = [&options](double h) { return options.logHeights ? std::log10(h) : h; };
    options.y0 = axis(heights->first);
    options.y1 = axis(heights->second);
}

void showDendrogramView(DendrogramFigureOptions& options, const DendrogramView& view) {
    const QStringList words = dendrogramViewWords(view, options.logHeights);
    showDendrogramPart(options, readRangeText(words[1]), readRangeText(words[3]));
}

}  // namespace clusterlens::views
