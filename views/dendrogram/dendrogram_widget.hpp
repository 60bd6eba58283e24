#pragma once
// Interactive dendrogram drawn with our own GLSL shaders. The level-of-detail geometry
// (dendrogram_geometry.hpp) is built on the CPU for a region of the view plus half a plot of
// margin per side and kept in one vertex buffer: panning inside the region changes a uniform only,
// leaving it or zooming (after a short pause) builds the region anew. Axes, the cut line, hover
// and labels are painted with QPainter over the GL content.
//
// Mouse: wheel zooms the leaves about the cursor (Ctrl+wheel: the heights); left-drag pans; a
// left click selects the subtree under the cursor (empty space clears); dragging the cut line
// moves the cut; shift-drag or right-drag zooms into a rectangle; double-click collapses or expands
// a subtree; a right click opens a menu. Home resets the view, Escape clears the selection.
// GL objects are created in initializeGL() and released when the context is about to be destroyed
// (docking and undocking recreate it), following Qt's hellogl2 example.

#include <QOpenGLWidget>
#include <QTimer>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "colour_strips.hpp"
#include "dendrogram/dendrogram_clusters.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_geometry.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_view.hpp"
#include "dendrogram/threshold_marks.hpp"

namespace clusterlens::views {

class AnalysisSession;
class DendrogramRenderer;

class DendrogramWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit DendrogramWidget(QWidget* parent = nullptr);
    ~DendrogramWidget() override;

    /// Shows a tree (null clears). Cut, selection and collapsed subtrees are dropped; the view is
    /// reset.
    void setTree(std::shared_ptr<const DendrogramLayout> layout);
    const std::shared_ptr<const DendrogramLayout>& tree() const { return m_layout; }
    /// Colours the clusters of `cut` (null: no cut).
    void setCut(std::shared_ptr<const DendrogramCut> cut);
    const std::shared_ptr<const DendrogramCut>& cut() const { return m_cut; }
    /// Highlights these leaf ids (ascending or not); empty clears the highlight.
    void setSelectedLeaves(const std::vector<std::int64_t>& leafIds);
    std::size_t selectedLeafCount() const { return m_selection.count(); }
    /// Features whose means the hover text shows.
    void setFeatures(FeatureSelection features);
    void setLogHeights(bool logarithmic);
    bool logHeights() const { return m_scale.logarithmic; }
    /// Where hover texts find the cluster and populations of a leaf's event (null: left out). Leaf k is
    /// event k, or for a tree of a population the k-th of its `members` (whole-dataset indices). Set it
    /// only while the leaves are linked to the session's events.
    void setEventSource(const AnalysisSession* analysis,
                        std::shared_ptr<const std::vector<std::int64_t>> members = nullptr) {
        m_events = analysis;
        m_eventMembers = std::move(members);
    }
    /// Names shown for leaves when zoomed in far enough (point names of the dataset), may be null.
    void setPointNames(std::shared_ptr<const std::vector<std::string>> names);
    /// Colour strips under the leaves (each a colour per leaf id); strips of another size are not
    /// drawn. Null or empty: none.
    void setStrips(std::shared_ptr<const ColourStrips> strips);
    /// The band under the plot the strips take (logical pixels); empty without strips.
    QRectF stripsRect() const;
    /// Threshold-size marks of the tree on the height axis (null: none; setTree drops them).
    void setThresholdMarks(std::shared_ptr<const ThresholdMarks> marks);
    const std::shared_ptr<const ThresholdMarks>& thresholdMarks() const { return m_thresholdMarks; }
    /// Whether the marks are drawn (on by default; the context menu's "Threshold-size marks").
    void setThresholdMarksShown(bool shown);
    bool thresholdMarksShown() const { return m_thresholdMarksShown; }
    /// The marks drawn now: thresholdMarks() when shown, else null.
    std::shared_ptr<const ThresholdMarks> shownThresholdMarks() const {
        return m_thresholdMarksShown ? m_thresholdMarks : nullptr;
    }

    void toggleCollapsed(std::int32_t node);
    void expandAll();
    bool isCollapsed(std::int32_t node) const;
    /// Per merge row: 1 when collapsed.
    const std::vector<std::uint8_t>& collapsedFlags() const { return m_collapsed; }

    void resetView();
    void panByPixels(QPointF delta);
    /// Zooms by `fx` (leaves) and `fy` (heights) about `widgetPos`; > 1 magnifies.
    void zoomAt(QPointF widgetPos, double fx, double fy);
    /// Shows the leaves of `node` across the plot.
    void zoomToSubtree(std::int32_t node);
    const DendrogramView& view() const { return m_view; }
    const HeightScale& scale() const { return m_scale; }

    /// The plot area inside the widget (logical pixels).
    QRectF plotRect() const;
    /// The node under `widgetPos`: a merge whose bar is within a few pixels, else the subtree
    /// whose vertical link passes the cursor's height above the leaf under it; -1 outside the tree.
    std::int32_t nodeAt(QPointF widgetPos) const;
    /// Widget position of a node's bar centre (a leaf: its position on the leaf line).
    QPointF nodePosition(std::int32_t node) const;
    /// Text shown when hovering `node` (event_tooltip.hpp): a leaf as an event (index, marker values,
    /// cluster, populations, leaf position); a subtree or cluster as a group (name, size, merge height,
    /// leaf positions, inversion, feature means).
    QString describeNode(std::int32_t node) const;

    /// GL_RENDERER, known after the first initializeGL().
    const QString& glRenderer() const { return m_glRenderer; }
    const QString& glError() const { return m_glError; }
    /// Geometry of the region on the GPU, and how often it was built.
    const DendrogramGeometry& geometry() const { return m_geometry; }
    int geometryBuilds() const { return m_geometryBuilds; }
    double lastBuildMs() const { return m_lastBuildMs; }

    QSize minimumSizeHint() const override { return {320, 220}; }
    QSize sizeHint() const override { return {700, 480}; }

Q_SIGNALS:
    /// The user clicked (or chose from the menu) the subtree of `node`.
    void subtreeClicked(std::int32_t node);
    /// The user clicked empty space or pressed Escape.
    void selectionCleared();
    /// The user switched the threshold-size marks on or off.
    void thresholdMarksShownChanged(bool shown);
    /// The user dropped the cut line at `height`.
    void cutHeightChosen(double height);
    void collapsedChanged();
    /// A frame showing the current tree, cut and selection reached the screen.
    void contentDrawn();

protected:
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    enum class Drag { None, Pending, Pan, Zoom, Cut };
    // The window and pixel size the uploaded geometry was built for.
    struct Region {
        DendrogramView window;
        QSize pixels;
        bool valid = false;
    };

    void releaseGL();
    void contentChanged();
    QSize plotPixels() const;
    Region regionFor(QSize plot) const;
    bool regionServes(const Region& region, QSize plot, bool exactScale) const;
    void buildGeometry(QSize plot);
    std::array<float, 4> regionTransform() const;
    void renderTree();
    void paintOverlay(QPainter& painter) const;
    void paintCutLine(QPainter& painter) const;
    void paintHover(QPainter& painter) const;
    void paintCollapsedLabels(QPainter& painter) const;
    std::size_t drawnStripCount() const;
    void paintMessage(QPainter& painter, const QString& text) const;
    double cutLineY() const;
    void updateHover(QPointF pos, QPoint globalPos);

    std::unique_ptr<DendrogramRenderer> m_renderer;
    std::shared_ptr<const DendrogramLayout> m_layout;
    std::shared_ptr<const DendrogramCut> m_cut;
    std::shared_ptr<const std::vector<std::string>> m_pointNames;
    std::shared_ptr<const ColourStrips> m_strips;
    std::shared_ptr<const ThresholdMarks> m_thresholdMarks;
    bool m_thresholdMarksShown = true;
    const AnalysisSession* m_events = nullptr;
    std::shared_ptr<const std::vector<std::int64_t>> m_eventMembers;
    LeafSelection m_selection;
    FeatureSelection m_features;
    std::vector<std::uint8_t> m_collapsed;
    std::vector<std::int32_t> m_collapsedNodes;
    DendrogramView m_view;
    HeightScale m_scale;
    Region m_region;
    DendrogramGeometry m_geometry;
    QTimer m_refineTimer;  // rebuilds the geometry shortly after the last zoom
    bool m_contentChanged = true;
    bool m_drawnPending = false;
    Drag m_drag = Drag::None;
    QPointF m_dragStart;
    QPointF m_dragLast;
    double m_dragCutAxis = 0.0;
    std::int32_t m_hoverNode = -1;
    QString m_glRenderer;
    QString m_glError;
    int m_geometryBuilds = 0;
    double m_lastBuildMs = 0.0;
};

}  // namespace clusterlens::views
