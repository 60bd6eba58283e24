#pragma once
// Interactive VAT/iVAT image. The matrix is never stored: each frame shows a viewport rendered at
// the plot's pixel size (capped at 2048) by the run's VatFrameRenderer, coloured by shaders/vat.frag.
// Two paths, chosen with the context current at the first paint and shown by renderPath():
//  - CUDA–OpenGL interop (an NVIDIA GL context on the CUDA device): the kernel writes a registered
//    pixel buffer, the texture is filled from it on the GPU; each changed view renders at once.
//  - host: the viewport is rendered (CUDA or CPU) into host memory by a job and uploaded. Requests
//    are coalesced (one render in flight, then only the latest view), and the last texture is drawn
//    shifted and scaled to the current view meanwhile, so panning never waits for a render.
// Mouse: wheel zooms about the cursor, left-drag pans, right-drag or shift-drag along the diagonal
// selects the points of that block, a click inside a cut block selects the block, double-click or
// Home resets the view, Escape clears the selection. Hover shows positions, point indices and the
// exact distance. Axes, the colouring strips, cut boxes, the selection and hover are painted with
// QPainter over the GL content. GL objects are created in initializeGL() and released when the
// context is about to be destroyed (docking and undocking recreate it), as Qt's hellogl2 example.

#include <QOpenGLWidget>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "analysis_session.hpp"
#include "colour_strips.hpp"
#include "jobs/job_runner.hpp"
#include "vat/vat_image.hpp"
#include "vat/vat_window.hpp"

namespace clusterlens::views {

struct VatRun;
class VatGlRenderer;
class VatInteropTarget;

class VatWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    /// Largest rendered image side; a larger plot shows the image scaled.
    static constexpr int maxImageSide = 2048;

    explicit VatWidget(QWidget* parent = nullptr);
    ~VatWidget() override;

    /// Shows a run (null clears): the whole matrix; cuts, selection, marks and labels are dropped.
    void setRun(std::shared_ptr<const VatRun> run);
    const std::shared_ptr<const VatRun>& run() const { return m_run; }
    void setDisplay(const VatDisplay& display);
    const VatDisplay& display() const { return m_display; }
    /// Keeps the contrast levels of the image shown now for every later frame (comparing views).
    void setHoldLevels(bool hold);

    /// Cluster boundaries (positions, ascending, as largestCutPositions) drawn as boxes on the diagonal.
    void setCutBoundaries(std::vector<std::size_t> boundaries);
    const std::vector<std::size_t>& cutBoundaries() const { return m_cuts; }
    /// The diagonal block [first, last] of positions drawn as selected (made here or by the panel).
    void setSelectedBlock(std::size_t first, std::size_t last);
    void clearSelectedBlock();
    std::optional<std::pair<std::size_t, std::size_t>> selectedBlock() const { return m_block; }
    /// Positions selected in other views (ascending), marked along both axes; null clears.
    void setMarkedPositions(std::shared_ptr<const std::vector<std::int64_t>> positions);
    std::size_t markedCount() const { return m_marked ? m_marked->size() : 0; }
    /// The labeling that colours the views (per point index), drawn as strips along both axes; null, or
    /// labels of another size than the run's, show none.
    void setLabels(std::shared_ptr<const LabelVector> labels);
    /// Colour strips (a colour per point index) along the bottom (columns) and right (rows) edges;
    /// strips of another size than the run's are not drawn. Null or empty: none.
    void setStrips(std::shared_ptr<const ColourStrips> strips);
    /// The bands below and right of the plot the strips take (logical pixels); empty without strips.
    QRectF bottomStripsRect() const;
    QRectF rightStripsRect() const;

    void resetView();
    void panByPixels(QPointF delta);
    /// Zooms by `factor` (> 1 magnifies) about `widgetPos`, as the wheel does.
    void zoomAt(QPointF widgetPos, double factor);
    void setWindow(double row0, double col0, double span);
    const VatWindow& window() const { return m_window; }

    /// The square plot inside the widget (logical pixels, on the device pixel grid).
    QRectF plotRect() const;
    /// Fractional (column, row) positions under a widget point.
    QPointF positionsAt(QPointF widgetPos) const;
    /// Widget point of fractional (column, row) positions.
    QPointF widgetPoint(double column, double row) const;
    /// Hover text at a widget point: positions, point indices and the exact distance (empty outside).
    QString describeAt(QPointF widgetPos) const;
    const QString& hoverText() const { return m_hoverText; }
    /// Where tooltips find the cluster and populations of an event (null: left out).
    void setEventSource(const AnalysisSession* analysis) { m_events = analysis; }
    /// Whole-dataset index of the event at `position` of the order (a population run's members mapped
    /// back); -1 outside the order.
    std::int64_t eventAtPosition(std::size_t position) const;
    /// The tooltip at a widget point (event_tooltip.hpp): over the image or the right strips, the
    /// event of that row (its position, the column's event, cluster, populations); over the bottom
    /// strips, the event of that column. Empty elsewhere.
    QString tooltipAt(QPointF widgetPos) const;

    /// The viewport the current view needs, and the one the image on screen was rendered for.
    VatViewport wantedViewport() const;
    const VatViewport& shownViewport() const { return m_shownViewport; }
    /// Levels (lo, hi) the image on screen is coloured with.
    std::pair<float, float> levels() const { return {m_lo, m_hi}; }
    /// The host image on screen (null on the interop path or before the first render).
    const std::shared_ptr<const VatImage>& shownImage() const { return m_shownImage; }
    /// True when the last frame showed the current view of the current content at full resolution.
    bool isSettled() const;
    int renderCount() const { return m_renderCount; }
    double lastRenderMs() const { return m_lastRenderMs; }
    bool usesInterop() const;

    /// How frames reach the screen ("CPU (16 threads) → host → texture; GL: Mesa llvmpipe ...").
    const QString& renderPath() const { return m_renderPath; }
    const QString& glRenderer() const { return m_glRenderer; }
    const QString& glError() const { return m_glError; }

    QSize minimumSizeHint() const override { return {320, 320}; }
    QSize sizeHint() const override { return {640, 640}; }

Q_SIGNALS:
    /// The user selected the diagonal block of positions [first, last].
    void blockSelected(qint64 first, qint64 last);
    /// The user cleared the selection (click outside the blocks, Escape).
    void selectionCleared();
    void hoverChanged(const QString& text);
    void renderPathChanged(const QString& text);
    /// A frame showing the current view of the current content reached the screen.
    void frameSettled();
    void viewChanged();
    /// A viewport could not be rendered (engine message).
    void renderFailed(const QString& message);

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
    bool event(QEvent* e) override;

private:
    enum class Drag { None, Pending, Pan, Select };

    void releaseGL();
    void changed(bool content);
    QRect plotDeviceRect() const;
    QSize imagePixels() const;
    void updateRenderPath();
    void renderWithInterop(const VatViewport& wanted);
    void scheduleHostRender();
    void onHostImage(const JobOutcome<VatImage>& outcome, quint64 generation);
    void showImage(const VatViewport& viewport, quint64 generation, float lo, float hi);
    std::array<float, 4> imageRect() const;
    void paintOverlay(QPainter& painter) const;
    void paintAxes(QPainter& painter) const;
    void paintStrips(QPainter& painter) const;
    void paintCutBoxes(QPainter& painter) const;
    void paintSelection(QPainter& painter) const;
    void paintHover(QPainter& painter) const;
    void paintMessage(QPainter& painter, const QString& text) const;
    void paintStripBands(QPainter& painter) const;
    double stripsExtent() const;
    std::pair<std::size_t, std::size_t> diagonalBlock(QPointF a, QPointF b) const;
    std::optional<std::size_t> cutBlockAt(QPointF widgetPos) const;
    void updateHover(QPointF pos);

    std::shared_ptr<const VatRun> m_run;
    VatDisplay m_display;
    VatWindow m_window;
    std::vector<std::size_t> m_cuts;
    std::optional<std::pair<std::size_t, std::size_t>> m_block;
    std::shared_ptr<const std::vector<std::int64_t>> m_marked;
    std::shared_ptr<const LabelVector> m_labels;
    std::shared_ptr<const ColourStrips> m_strips;
    const AnalysisSession* m_events = nullptr;

    std::unique_ptr<VatGlRenderer> m_gl;
    std::unique_ptr<VatInteropTarget> m_interop;
    QString m_interopReason;
    bool m_colormapDirty = true;

    // What the texture holds. The generation counts content changes (run, kind, pixel mode, levels'
    // percentiles); an image of an older generation is still drawn until its replacement arrives.
    quint64 m_generation = 1;
    bool m_hasShown = false;
    VatViewport m_shownViewport;
    quint64 m_shownGeneration = 0;
    std::shared_ptr<const VatImage> m_shownImage;
    std::shared_ptr<const VatImage> m_incoming;
    quint64 m_incomingGeneration = 0;
    float m_lo = 0.0f, m_hi = 0.0f;
    bool m_holdLevels = false;

    // The host render in flight (one at a time) and the view it renders.
    JobId m_renderJob = 0;
    VatViewport m_renderingViewport;
    quint64 m_renderingGeneration = 0;
    std::optional<std::pair<VatViewport, quint64>> m_failed;  // not retried until the view changes

    Drag m_drag = Drag::None;
    QPointF m_dragStart;
    QPointF m_dragLast;
    QPointF m_hoverPos;
    QString m_hoverText;
    bool m_settledPending = true;
    int m_renderCount = 0;
    double m_lastRenderMs = 0.0;
    QString m_renderPath;
    QString m_glVendor;
    QString m_glRenderer;
    QString m_glError;
    // Last: destroyed first, waiting for a render still running on a worker.
    std::unique_ptr<JobRunner> m_frames;
};

}  // namespace clusterlens::views
