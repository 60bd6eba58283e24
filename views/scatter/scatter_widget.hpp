#pragma once
// Data scatter drawn with our own GLSL point-sprite shaders: two features or an embedding,
// coloured by density or by cluster labels. Points are rendered into retained layers
// (layer_cache.hpp) so a frame at 10^6 points costs one textured quad even on a software
// rasteriser. Wheel zooms about the cursor, left-drag pans,
// right-drag or shift-drag selects a rectangle, ctrl-drag draws a lasso (a free polygon, closed on
// release, the way cytometry gates are drawn); a polygon gate (beginPolygonGate(), key G) is drawn
// click by click, closed by a double-click or Enter and cancelled by Escape. Every gate becomes the
// selection. Double-click or Home resets the view, Escape clears the selection. Axes and tick
// labels are painted with QPainter over the GL content.
// GL objects are created in initializeGL() and released when the context is about to be destroyed
// (docking and undocking recreate it), following Qt's hellogl2 example.

#include <QList>
#include <QOpenGLWidget>
#include <QPolygonF>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <vector>

#include "scatter/scatter_data.hpp"
#include "scatter/view_window.hpp"

namespace clusterlens::views {

class LayerCache;
class ScatterRenderer;

class ScatterWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit ScatterWidget(QWidget* parent = nullptr);
    ~ScatterWidget() override;

    /// Shows `data` (null clears the plot). With `keepView` the zoom/pan window stays (same
    /// coordinates, other colours); the selection stays when the dataset size is unchanged and
    /// `keepSelection` is set.
    void setData(std::shared_ptr<const ScatterData> data, bool keepView = false, bool keepSelection = false);
    const std::shared_ptr<const ScatterData>& data() const { return m_data; }

    /// Selected dataset rows, ascending.
    const QList<qsizetype>& selection() const { return m_selection; }
    void setSelection(const QList<qsizetype>& rows);
    void clearSelection();
    /// Selects the points inside a polygon given in widget coordinates (logical pixels), as a lasso
    /// drag does: even-odd rule, the polygon closed between its last and first vertex. O(N) with a
    /// bounding-box test first, so a lasso over 10^6 points takes a few ms.
    void selectInPolygon(const QPolygonF& widgetPolygon);

    /// Starts a polygon gate: each left click adds a vertex, a double-click or Enter closes the
    /// polygon and selects the points inside (at least three vertices), Escape cancels. Panning and
    /// zooming stay possible while it is drawn (the vertices keep their data coordinates).
    void beginPolygonGate();
    /// Ends the polygon gate being drawn without changing the selection.
    void cancelPolygonGate();
    bool isDrawingPolygonGate() const { return m_polygonGate; }
    /// Vertices placed so far, in widget coordinates.
    QPolygonF polygonGateVertices() const;

    void resetView();
    /// Moves the content by `delta` pixels, as a left-drag does.
    void panByPixels(QPointF delta);
    /// Zooms by `factor` (> 1 magnifies) about `widgetPos`, as the wheel does.
    void zoomAt(QPointF widgetPos, double factor);
    const ViewWindow& viewWindow() const { return m_view; }
    /// Shows a stored zoom/pan window (kept until the data's coordinates change).
    void setViewWindow(const ViewWindow& window);

    /// Draws the line y = x (data coordinates) over the points: the reference of plots that put
    /// two measurements of the same points against each other. Off by default.
    void setDiagonalVisible(bool visible);
    bool isDiagonalVisible() const { return m_diagonal; }
    /// Draws each cluster's 95 % covariance ellipse (cluster_shapes.hpp) over the points while they
    /// are coloured by a labeling. Off by default.
    void setShapesVisible(bool visible);
    bool shapesVisible() const { return m_shapes; }
    /// The colour legend, outside the plot area so it never covers points: labels in a column on
    /// the right, a density or marker colour bar above the plot's top right corner. On by default;
    /// views that show the colours elsewhere turn it off.
    void setLegendVisible(bool visible);
    /// The hint drawn while there is no data (by default: how to open a dataset).
    void setPlaceholderText(const QString& text);

    /// The plot area inside the widget (logical pixels); axes and labels lie outside it.
    QRectF plotRect() const;
    /// The colour bar of density and marker colouring inside the legend (logical pixels); its left
    /// end is the low end. Empty when the points are coloured by labels or the legend is off.
    QRectF colourBarRect() const;
    /// Data coordinates -> widget position (logical pixels).
    QPointF mapFromData(double x, double y) const;
    /// Widget position -> data coordinates.
    QPointF mapToData(QPointF widgetPos) const;

    /// GL_RENDERER of the widget's context, known after the first initializeGL().
    const QString& glRenderer() const { return m_glRenderer; }
    /// Set when the shaders could not be built; the widget then shows this text.
    const QString& glError() const { return m_glError; }
    /// How often point data went to the GPU; panning and zooming must not add to it.
    int dataUploads() const { return m_dataUploads; }
    /// True when the last frame showed every point of the current data at full resolution for
    /// the current view (no layer build or zoom refinement outstanding).
    bool isSettled() const { return m_settled; }

    QSize minimumSizeHint() const override { return {320, 240}; }
    QSize sizeHint() const override { return {900, 700}; }

Q_SIGNALS:
    /// The user (or setSelection) changed the selection; `rows` ascending.
    void selectionChanged(const QList<qsizetype>& rows);
    /// A frame showing the current data reached the screen for the first time.
    void dataDrawn();
    /// A polygon gate began (true) or ended, closed or cancelled (false).
    void polygonGateActive(bool active);

protected:
    /// Painted over the points, the axes and the legend, clipped to nothing (views that build on
    /// the scatter draw their own marks here, e.g. threshold lines). Does nothing by default.
    virtual void paintOverlay(QPainter& painter) const;

    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    enum class Drag { None, Pan, Select, Lasso };

    void releaseGL();
    void uploadPending();
    void planLayer(QSize plotPixels);
    void renderPoints();
    QSize plotPixels() const;
    void invalidateLayer();
    void paintAxes(QPainter& painter) const;
    void paintLegend(QPainter& painter) const;
    void paintColourBar(QPainter& painter, const QRectF& plot, const QFontMetrics& metrics) const;
    /// Room the legend takes beside (width) or above (height) the plot area; zero when none is drawn.
    QSizeF legendSize() const;
    void paintDiagonal(QPainter& painter) const;
    void paintShapes(QPainter& painter) const;
    void paintMessage(QPainter& painter, const QString& text) const;
    void selectInRect(const QRectF& widgetRect);
    void applySelection(QList<qsizetype> rows, bool notify);
    float pointSizePixels() const;
    bool polygonGateMouse(QMouseEvent* event);
    bool polygonGateKey(QKeyEvent* event);
    void finishPolygonGate();
    void paintPolygonGate(QPainter& painter) const;

    std::unique_ptr<ScatterRenderer> m_renderer;
    std::unique_ptr<LayerCache> m_layers;
    QTimer m_refineTimer;  // rebuilds the layer shortly after the last zoom or resize
    std::shared_ptr<const ScatterData> m_data;
    ViewWindow m_view;
    QList<qsizetype> m_selection;
    std::vector<std::uint8_t> m_selectionFlags;  // per drawn point (draw order)
    bool m_uploadPending = false;
    bool m_selectionPending = false;
    bool m_dataChanged = false;     // the front layer shows other data: drop it
    bool m_contentChanged = false;  // same points, other colours/selection: rebuild, keep front
    bool m_frontIsCurrent = false;  // the front layer holds every point of the current data
    bool m_drawnPending = false;    // current data not yet on screen
    bool m_drewData = false;        // the last paintGL() showed all of the current data
    bool m_settled = false;         // ... and at full resolution for the current view
    bool m_diagonal = false;        // overlay the line y = x
    bool m_shapes = false;          // overlay the clusters' covariance ellipses
    bool m_legend = true;           // draw the colour legend
    Drag m_drag = Drag::None;
    QPointF m_dragStart;
    QPointF m_dragLast;
    QPolygonF m_lasso;           // widget coordinates of the lasso being drawn
    bool m_polygonGate = false;  // a click-by-click polygon gate is being drawn
    QPolygonF m_gateVertices;    // its vertices in data coordinates (they follow pan and zoom)
    QPointF m_gateHover;         // the cursor, for the edge that would come next
    QString m_placeholder;
    QString m_glRenderer;
    QString m_glError;
    int m_dataUploads = 0;
};

}  // namespace clusterlens::views
