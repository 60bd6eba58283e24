#include "dendrogram/dendrogram_geometry.hpp"

#include <algorithm>
#include <cmath>

#include "palette.hpp"

namespace clusterlens::views {

namespace {

constexpr double kSelectedWidth = 2.5;  // times the line width
constexpr double kInvertedWidth = 1.6;
constexpr double kMinStripAlpha = 0.2;  // a column holding a single small subtree
constexpr double kMaxStripAlpha = 0.7;  // the densest column: links drawn over it stay visible
constexpr double kInversionFlag = 4.0;  // output units above a strip holding an inversion

QRgb withAlpha(QRgb rgb, double alpha) {
    return qRgba(qRed(rgb), qGreen(rgb), qBlue(rgb),
                 static_cast<int>(std::lround(255.0 * std::clamp(alpha, 0.0, 1.0))));
}

// Per output column: what the strips and the rug of that column gather.
struct Column {
    double leaves = 0.0;    // leaves of narrow subtrees
    double top = 0.0;       // smallest y (highest point) of those subtrees
    double heaviest = 0.0;  // leaves of the largest subtree, whose colour the strip takes
    QRgb rgb = 0;
    bool inversion = false;
    double rugLeaves = 0.0;  // every leaf in the column
    double rugSelected = 0.0;
};

class Builder {
public:
    explicit Builder(const GeometryRequest& request)
        : m_r(request),
          m_l(*request.layout),
          m_pxPerLeaf(request.area.width() / (request.view.x1() - request.view.x0())),
          m_columns(static_cast<std::size_t>(std::max(1.0, std::ceil(request.area.width()))) + 1),
          m_lastVertical(m_columns.size(), -1) {
        for (Column& c : m_columns) c.top = request.area.bottom() + 1.0;
        m_out.baseline = yAxis(request.scale.baseline());
        if (m_r.cut && m_r.cut->k > 1) m_cutAxis = cutAxisPosition(*m_r.cut, m_r.scale);
        if (m_r.cut && m_r.cut->k > 1) m_out.cutY = yAxis(m_cutAxis);
    }

    DendrogramGeometry run();

private:
    double xLeaf(double x) const { return m_r.area.left() + (x - m_r.view.x0()) * m_pxPerLeaf; }
    double yAxis(double axis) const {
        const DendrogramView& v = m_r.view;
        return m_r.area.bottom() - (axis - v.y0()) / (v.y1() - v.y0()) * m_r.area.height();
    }
    double yNode(std::int32_t node) const {
        return yAxis(m_r.scale.toAxis(m_l.height[static_cast<std::size_t>(node)]));
    }
    bool selected(std::int32_t node) const { return m_r.selection && m_r.selection->covers(m_l, node); }
    QRgb clusterRgb(std::int32_t node) const;
    QRgb barRgb(std::int32_t node) const;
    void visitWide(std::int32_t node);
    void link(std::int32_t child, std::int32_t parent, double yParent);
    void vertical(double x, double y0, double y1, QRgb rgb, double width);
    void horizontal(double x0, double x1, double y, QRgb rgb, double width);
    void gather(std::int32_t node, bool strip);
    void emitColumns();

    const GeometryRequest& m_r;
    const DendrogramLayout& m_l;
    double m_pxPerLeaf;
    double m_cutAxis = 0.0;
    std::vector<Column> m_columns;
    std::vector<std::ptrdiff_t> m_lastVertical;  // per column: the last vertical link, for merging
    DendrogramGeometry m_out;
};

QRgb Builder::clusterRgb(std::int32_t node) const {
    if (!m_r.cut || m_r.cut->isAbove(m_l, node)) return Palette::linkColor().rgba();
    const int colour = m_r.cut->colourOf(m_r.cut->clusterOf(m_l, node));
    return Palette::labelColor(colour, m_r.palette, m_r.cut->colourCount()).rgba();
}

QRgb Builder::barRgb(std::int32_t node) const {
    if (selected(node)) return Palette::selectionColor().rgba();
    if (m_l.isInverted(node)) return Palette::inversionColor().rgba();
    return clusterRgb(node);
}

DendrogramGeometry Builder::run() {
    const double x0 = m_r.view.x0(), x1 = m_r.view.x1();
    std::vector<std::int32_t> stack{m_l.root()};
    while (!stack.empty()) {
        const std::int32_t node = stack.back();
        stack.pop_back();
        ++m_out.visitedNodes;
        const auto n = static_cast<std::size_t>(node);
        const double first = m_l.first[n], size = m_l.size[n];
        if (first + size <= x0 || first >= x1) continue;
        if (m_l.isLeaf(node)) {
            gather(node, false);
            continue;
        }
        if (m_r.collapsed && (*m_r.collapsed)[m_l.row(node)]) {
            const double left = std::max(xLeaf(first), m_r.area.left() - 1.0);
            const double right = std::min(xLeaf(first + size), m_r.area.right() + 1.0);
            m_out.collapsed.push_back(
                {node, QPointF(xLeaf(m_l.x[n]), yNode(node)), left, right, m_out.baseline, barRgb(node)});
            gather(node, false);
            continue;
        }
        const bool undone = m_r.cut && m_r.cut->isAbove(m_l, node);
        if (size * m_pxPerLeaf < m_r.minSubtreeWidth && !undone) {
            gather(node, true);
            continue;
        }
        visitWide(node);
        stack.push_back(m_l.right[m_l.row(node)]);
        stack.push_back(m_l.left[m_l.row(node)]);
    }
    emitColumns();
    return std::move(m_out);
}

void Builder::visitWide(std::int32_t node) {
    const std::size_t row = m_l.row(node);
    const std::int32_t a = m_l.left[row], b = m_l.right[row];
    const double y = yNode(node);
    const double xa = xLeaf(m_l.x[static_cast<std::size_t>(a)]), xb = xLeaf(m_l.x[static_cast<std::size_t>(b)]);
    // A bar shorter than a pixel lies inside the two vertical links that meet it.
    if (xb - xa >= 0.5) {
        const bool marked = selected(node) || m_l.isInverted(node);
        const double factor = selected(node) ? kSelectedWidth : marked ? kInvertedWidth : 1.0;
        horizontal(xa, xb, y, barRgb(node), factor * m_r.lineWidth);
    }
    link(a, node, y);
    link(b, node, y);
}

// The vertical link from `child` up (or, for an inversion, down) to its parent's bar. Inside a
// cluster it takes the cluster's colour up to the cut line and the neutral colour above it.
void Builder::link(std::int32_t child, std::int32_t parent, double yParent) {
    const double x = xLeaf(m_l.x[static_cast<std::size_t>(child)]);
    const double yChild = yNode(child);
    if (selected(child))
        return vertical(x, yChild, yParent, Palette::selectionColor().rgba(), kSelectedWidth * m_r.lineWidth);
    if (m_l.isInverted(parent))
        return vertical(x, yChild, yParent, Palette::inversionColor().rgba(), kInvertedWidth * m_r.lineWidth);
    const QRgb own = clusterRgb(child);
    const QRgb above = clusterRgb(parent);
    const double cutY = m_out.cutY;  // screen y grows downwards: below the line is y > cutY
    if (own == above || cutY < 0.0 || yParent >= cutY) return vertical(x, yChild, yParent, own, m_r.lineWidth);
    if (yChild <= cutY) return vertical(x, yChild, yParent, above, m_r.lineWidth);
    vertical(x, yChild, cutY, own, m_r.lineWidth);
    vertical(x, cutY, yParent, above, m_r.lineWidth);
}

void Builder::vertical(double x, double y0, double y1, QRgb rgb, double width) {
    const QRectF& area = m_r.area;
    if (x < area.left() - width || x > area.right() + width) return;
    double top = std::max(std::min(y0, y1), area.top() - width);
    double bottom = std::min(std::max(y0, y1), area.bottom() + width);
    if (bottom < top) return;
    const auto column =
        static_cast<std::size_t>(std::clamp(x - area.left(), 0.0, static_cast<double>(m_columns.size() - 1)));
    const std::ptrdiff_t last = m_lastVertical[column];
    if (last >= 0) {
        GeometrySegment& s = m_out.links[static_cast<std::size_t>(last)];
        // Chains of merges climb one column in many short steps: one segment draws them all.
        if (s.rgb == rgb && s.width == static_cast<float>(width) && std::abs(s.a.x() - x) < 0.5 &&
            top <= s.b.y() + 1.0 && bottom >= s.a.y() - 1.0) {
            s.a.setY(std::min(s.a.y(), top));
            s.b.setY(std::max(s.b.y(), bottom));
            return;
        }
    }
    m_lastVertical[column] = static_cast<std::ptrdiff_t>(m_out.links.size());
    m_out.links.push_back({QPointF(x, top), QPointF(x, bottom), static_cast<float>(width), rgb});
}

void Builder::horizontal(double x0, double x1, double y, QRgb rgb, double width) {
    const QRectF& area = m_r.area;
    if (y < area.top() - width || y > area.bottom() + width) return;
    const double left = std::max(x0, area.left() - width), right = std::min(x1, area.right() + width);
    if (right < left) return;
    m_out.links.push_back({QPointF(left, y), QPointF(right, y), static_cast<float>(width), rgb});
}

// Adds a subtree drawn without its links to the columns it covers: as a density strip, and to
// the selection rug.
void Builder::gather(std::int32_t node, bool strip) {
    const auto n = static_cast<std::size_t>(node);
    const double first = m_l.first[n], size = m_l.size[n];
    const double left = xLeaf(first) - m_r.area.left(), right = xLeaf(first + size) - m_r.area.left();
    const double last = static_cast<double>(m_columns.size() - 1);
    if (right <= 0.0 || left >= last + 1.0) return;
    const std::int64_t chosen = m_r.selection ? m_r.selection->countIn(m_l.first[n], m_l.size[n]) : 0;
    const double top = strip ? yAxis(m_r.scale.toAxis(m_l.subtreeTop(node))) : 0.0;
    const QRgb rgb = strip ? clusterRgb(node) : 0;
    const bool inversion = strip && m_l.inversionsBelow[m_l.row(node)] > 0;
    for (double c = std::floor(std::max(left, 0.0)); c < std::min(right, last + 1.0); c += 1.0) {
        const double share = (std::min(right, c + 1.0) - std::max(left, c)) / (right - left);
        Column& column = m_columns[static_cast<std::size_t>(c)];
        column.rugLeaves += share * size;
        column.rugSelected += share * static_cast<double>(chosen);
        if (!strip) continue;
        column.leaves += share * size;
        column.top = std::min(column.top, top);
        column.inversion = column.inversion || inversion;
        if (share * size > column.heaviest) {
            column.heaviest = share * size;
            column.rgb = rgb;
        }
    }
}

void Builder::emitColumns() {
    double densest = 0.0;
    for (const Column& c : m_columns) densest = std::max(densest, c.leaves);
    const double logDensest = std::log1p(densest);
    const double left = m_r.area.left();
    const auto append = [](std::vector<GeometryRect>& out, QRectF rect, QRgb rgb) {
        // Neighbouring columns that look alike become one rectangle.
        if (!out.empty()) {
            GeometryRect& prev = out.back();
            if (prev.rgb == rgb && prev.rect.top() == rect.top() && prev.rect.bottom() == rect.bottom() &&
                std::abs(prev.rect.right() - rect.left()) < 1e-9) {
                prev.rect.setRight(rect.right());
                return;
            }
        }
        out.push_back({rect, rgb});
    };
    std::vector<GeometryRect> flags, rug;
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        const Column& c = m_columns[i];
        const double x = left + static_cast<double>(i);
        if (c.leaves > 0.0 && c.top < m_out.baseline) {
            // Quantised opacity keeps equal-looking neighbours mergeable.
            const double t = std::round(16.0 * std::log1p(c.leaves) / logDensest) / 16.0;
            const double alpha = kMinStripAlpha + (kMaxStripAlpha - kMinStripAlpha) * t;
            append(m_out.strips, QRectF(QPointF(x, c.top), QPointF(x + 1.0, m_out.baseline)), withAlpha(c.rgb, alpha));
            if (c.inversion)
                append(flags, QRectF(QPointF(x, c.top - kInversionFlag), QPointF(x + 1.0, c.top - 1.0)),
                       Palette::inversionColor().rgba());
        }
        if (c.rugSelected > 0.0) {
            const double fraction = std::round(8.0 * c.rugSelected / c.rugLeaves) / 8.0;
            const double top = m_out.baseline + 2.0;
            append(rug, QRectF(QPointF(x, top), QPointF(x + 1.0, top + m_r.rugHeight)),
                   withAlpha(Palette::selectionColor().rgba(), 0.3 + 0.7 * fraction));
        }
    }
    m_out.marks = std::move(flags);
    m_out.marks.insert(m_out.marks.end(), rug.begin(), rug.end());
}

}  // namespace

LeafSelection::LeafSelection(const DendrogramLayout& layout, const std::vector<std::int64_t>& leafIds)
    : m_prefix(layout.leafCount + 1, 0) {
    std::vector<std::uint8_t> chosen(layout.leafCount, 0);
    for (const std::int64_t id : leafIds)
        if (id >= 0 && static_cast<std::size_t>(id) < layout.leafCount) chosen[static_cast<std::size_t>(id)] = 1;
    for (std::size_t r = 0; r < layout.leafCount; ++r) {
        const std::uint8_t c = chosen[static_cast<std::size_t>(layout.order[r])];
        m_prefix[r + 1] = m_prefix[r] + c;
        m_count += c;
    }
}

bool LeafSelection::covers(const DendrogramLayout& layout, std::int32_t node) const {
    if (m_count == 0) return false;
    const auto n = static_cast<std::size_t>(node);
    return countIn(layout.first[n], layout.size[n]) == layout.size[n];
}

double cutAxisPosition(const DendrogramCut& cut, const HeightScale& scale) {
    const double lower = scale.toAxis(cut.lower);
    if (!std::isfinite(cut.upper)) return lower;
    return 0.5 * (lower + scale.toAxis(cut.upper));
}

DendrogramGeometry buildDendrogramGeometry(const GeometryRequest& request) {
    if (!request.layout || request.layout->leafCount < 2 || request.area.isEmpty()) return {};
    return Builder(request).run();
}

}  // namespace clusterlens::views
