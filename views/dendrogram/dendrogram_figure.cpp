#include "dendrogram/dendrogram_figure.hpp"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <map>
#include <utility>

#include "dendrogram/dendrogram_axes.hpp"
#include "dendrogram/dendrogram_geometry.hpp"
#include "palette.hpp"

namespace clusterlens::views {

namespace {

constexpr int kMaxLegendRows = 20;
constexpr double kMargin = 10.0;
constexpr double kLineWidth = 0.9;  // points (or logical pixels of a PNG)

// Pixel-sized fonts keep the figure's proportions equal in SVG, PDF (72 units per inch) and PNG.
QFont figureFont(int pixels, bool bold = false) {
    QFont font;
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

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

double DendrogramFigure::legendWidth(const QPainter& painter) const {
    if (!m_options.cut || m_options.cut->k < 2) return 0.0;
    const QFontMetricsF metrics(painter.font());
    return metrics.horizontalAdvance(QStringLiteral("cluster 00 (888,888)")) + 28.0;
}

void DendrogramFigure::paintLegend(QPainter& painter, const QRectF& box) const {
    const DendrogramCut& cut = *m_options.cut;
    const QFontMetricsF metrics(painter.font());
    const QLocale locale;
    const double line = metrics.height() + 2;
    double y = box.top();
    painter.setPen(QColor(0x20, 0x20, 0x20));
    painter.drawText(QPointF(box.left(), y + metrics.ascent()), QObject::tr("k = %1 clusters").arg(cut.k));
    y += line + 2;
    const int shown = std::min(cut.k, kMaxLegendRows);
    for (int id = 0; id < shown && y + line <= box.bottom(); ++id, y += line) {
        painter.fillRect(QRectF(box.left(), y + 2, 12, line - 5), Palette::labelColor(id));
        const auto size = m_layout->size[static_cast<std::size_t>(cut.roots[static_cast<std::size_t>(id)])];
        painter.setPen(QColor(0x30, 0x30, 0x30));
        painter.drawText(QPointF(box.left() + 18, y + metrics.ascent()),
                         QObject::tr("cluster %1 (%2)").arg(id).arg(locale.toString(static_cast<qlonglong>(size))));
    }
    if (cut.k > shown)
        painter.drawText(QPointF(box.left() + 18, y + metrics.ascent()),
                         QObject::tr("\u2026 %1 more").arg(cut.k - shown));
}

void DendrogramFigure::paint(QPainter& painter, const QRectF& area) const {
    painter.save();
    painter.fillRect(area, Qt::white);
    const QFont text = figureFont(11), title = figureFont(14, true);
    double top = area.top() + kMargin;
    if (!m_options.title.isEmpty()) {
        painter.setFont(title);
        painter.setPen(QColor(0x10, 0x10, 0x10));
        const QFontMetricsF metrics(title);
        painter.drawText(QRectF(area.left(), top, area.width(), metrics.height()), Qt::AlignHCenter | Qt::AlignTop,
                         m_options.title);
        top += metrics.height() + 4;
    }
    painter.setFont(text);
    const QFontMetricsF metrics(text);
    if (m_layout->inversionCount > 0) {
        painter.setPen(Palette::inversionColor());
        painter.drawText(QRectF(area.left(), top, area.width(), metrics.height()), Qt::AlignHCenter | Qt::AlignTop,
                         inversionText(m_layout->inversionCount) +
                             QObject::tr(": merges below one of their children, drawn going down"));
        top += metrics.height() + 4;
    }
    const double legend = legendWidth(painter);
    const QRectF plot(QPointF(area.left() + heightAxisWidth(text), top + metrics.height() / 2),
                      QPointF(area.right() - kMargin - (legend > 0 ? legend + kMargin : 0.0),
                              area.bottom() - kMargin - metrics.height() - 6));
    if (plot.width() < 20 || plot.height() < 20) {
        painter.restore();
        return;
    }

    const HeightScale scale = HeightScale::forLayout(*m_layout, m_options.logHeights);
    DendrogramView whole;
    whole.reset(*m_layout, scale);
    const bool ranged = m_options.x1 > m_options.x0;
    const DendrogramView view = DendrogramView::exact(ranged ? m_options.x0 : whole.x0(),
                                                      ranged ? m_options.x1 : whole.x1(), whole.y0(), whole.y1());
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
    const DendrogramGeometry geometry = buildDendrogramGeometry(request);

    paintHeightAxis(painter, plot, view, scale,
                    m_options.logHeights ? QObject::tr("merge height (log scale)") : QObject::tr("merge height"));
    paintLeafAxis(painter, plot, view, *m_layout, m_options.pointNames.get());
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
    if (legend > 0) paintLegend(painter, QRectF(plot.right() + kMargin, plot.top(), legend, plot.height()));
    painter.restore();
}

}  // namespace clusterlens::views
