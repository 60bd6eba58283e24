#pragma once
// Level of detail: what to draw of a dendrogram for one window onto it, in output units (screen
// pixels for the widget, points for a figure). Subtrees narrower than `minSubtreeWidth` are not
// descended into: they become density strips, one per output column, rising from the leaves to the
// highest merge inside (opacity grows with the leaves in the column, colour of the largest subtree
// there). Everything wider is drawn as links, and collinear vertical links in one column are
// merged, so the output stays proportional to the output width whether the tree is balanced or a
// chain of 10^6 merges. The same geometry feeds the OpenGL widget and the QPainter figure.

#include <QRgb>
#include <QPointF>
#include <QRectF>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_view.hpp"
#include "palette.hpp"

namespace clusterlens::views {

/// Selected leaves as prefix counts over the leaf order: O(1) per subtree query.
class LeafSelection {
public:
    LeafSelection() = default;
    /// `leafIds`: selected leaf ids (any order; ids outside 0..n-1 are ignored). O(N).
    LeafSelection(const DendrogramLayout& layout, const std::vector<std::int64_t>& leafIds);
    bool isEmpty() const { return m_count == 0; }
    std::size_t count() const { return m_count; }
    /// Selected leaves among the ranks [first, first + size).
    std::int64_t countIn(std::int64_t first, std::int64_t size) const {
        return m_prefix[static_cast<std::size_t>(first + size)] - m_prefix[static_cast<std::size_t>(first)];
    }
    /// True when every leaf of `node` is selected.
    bool covers(const DendrogramLayout& layout, std::int32_t node) const;

private:
    std::vector<std::int32_t> m_prefix;  // n + 1
    std::size_t m_count = 0;
};

struct GeometryRequest {
    const DendrogramLayout* layout = nullptr;
    const DendrogramCut* cut = nullptr;                    ///< optional: colours clusters
    const LeafSelection* selection = nullptr;              ///< optional: highlights selected leaves
    const std::vector<std::uint8_t>* collapsed = nullptr;  ///< optional: per merge row, drawn as triangles
    DendrogramView view;                                   ///< the window mapped onto `area`
    HeightScale scale;
    QRectF area;  ///< output rectangle (pixels or points)
    double lineWidth = 1.0;
    double minSubtreeWidth = 1.0;                ///< narrower subtrees become strips
    double rugHeight = 5.0;                      ///< selection marks under the leaves
    PaletteKind palette = PaletteKind::Tableau;  ///< the clusters' colours (figures choose)
};

struct GeometrySegment {
    QPointF a, b;  ///< horizontal or vertical
    float width = 1.0f;
    QRgb rgb = 0;
};

struct GeometryRect {
    QRectF rect;
    QRgb rgb = 0;  ///< with alpha
};

struct CollapsedSubtree {
    std::int32_t node = 0;
    QPointF apex;       ///< the merge
    double left = 0.0;  ///< base: the subtree's leaf range at the leaves' level
    double right = 0.0;
    double base = 0.0;
    QRgb rgb = 0;
};

struct DendrogramGeometry {
    std::vector<GeometryRect> strips;  ///< density strips (drawn first)
    std::vector<GeometrySegment> links;
    std::vector<GeometryRect> marks;  ///< inversion flags above strips, selection rug under leaves
    std::vector<CollapsedSubtree> collapsed;
    double baseline = 0.0;  ///< output y of the leaves
    double cutY = -1.0;     ///< output y of the cut line; < 0 when there is no cut or k = 1
    std::size_t visitedNodes = 0;
};

/// Builds what `request` shows. O(nodes whose leaf range meets the window and is at least
/// minSubtreeWidth wide) + O(area width); never recursive.
DendrogramGeometry buildDendrogramGeometry(const GeometryRequest& request);

/// Axis position of the cut line: between the highest kept and the lowest undone merge.
double cutAxisPosition(const DendrogramCut& cut, const HeightScale& scale);

}  // namespace clusterlens::views
